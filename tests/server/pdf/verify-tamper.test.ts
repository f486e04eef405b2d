import { describe, expect, it } from 'vitest';
import { VerifyError } from '../../../server/pdf/verify/errors.ts';
import { verifyPdf } from '../../../server/pdf/verify/verify-pdf.ts';
import { corpusFile, hasCorpus } from '../fixtures/pdf-corpus.ts';
import { replaceFirstPageContent } from '../fixtures/pdf-attack-kit.ts';

const SIGNED = 'files/node-signpdf/signed-once.pdf';

describe.skipIf(!hasCorpus)('tampered copies of a signed document', () => {
  it('the untouched file passes (trust aside)', async () => {
    const report = await verifyPdf(corpusFile(SIGNED), { trustAnchors: [] });
    expect(report.trustAside.verdict).toBe('TOTAL_PASSED');
  });

  it('a byte flipped inside a signed range fails with HASH_FAILURE', async () => {
    const bytes = corpusFile(SIGNED);
    const report0 = await verifyPdf(bytes, { trustAnchors: [] });
    const [, len1] = report0.signatures[0].byteRange!;
    const copy = new Uint8Array(bytes);
    // a byte of the binary-marker comment on line 2: the file still parses, only the hash changes
    const at = copy.indexOf(0x0a) + 2;
    expect(at).toBeLessThan(len1);
    copy[at] ^= 0x01;
    const report = await verifyPdf(copy, { trustAnchors: [] });
    expect(report.verdict).toBe('TOTAL_FAILED');
    expect(report.subIndication).toBe('HASH_FAILURE');
    expect(report.signatures[0].intact).toBe(false);
  });

  it('a file cut short never passes: a failing report or a clear typed error', async () => {
    const bytes = corpusFile(SIGNED);
    for (const cut of [bytes.length - 100, Math.floor(bytes.length / 2), 40]) {
      try {
        const report = await verifyPdf(bytes.subarray(0, cut), { trustAnchors: [] });
        expect(report.trustAside.verdict).not.toBe('TOTAL_PASSED');
      } catch (err) {
        expect(err).toBeInstanceOf(VerifyError);
      }
    }
  });

  it('an incremental update replacing the page content after signing is disallowed', async () => {
    const tampered = replaceFirstPageContent(corpusFile(SIGNED), 'You owe us 1,000,000');
    const report = await verifyPdf(tampered, { trustAnchors: [] });
    const sig = report.signatures[0];
    expect(sig.intact).toBe(true); // the signed bytes are untouched...
    expect(sig.coverage).toBe('ENTIRE_REVISION');
    expect(sig.modifiedAfterSigning).toBe('disallowed'); // ...but what is shown changed
    expect(report.verdict).toBe('TOTAL_FAILED');
    expect(report.trustAside.subIndication).toBe('FORMAT_FAILURE');
  });

  it('a document time-stamp whose TSTInfo was altered after the TSA signed it fails', async () => {
    // The token sits in /Contents, outside the signed bytes: anyone can rewrite its genTime. The
    // messageImprint still matches the document, but the TSA's signature no longer covers the TSTInfo.
    const bytes = corpusFile('files/dss/dss-2058_dss-2058-QC-LTA-test.pdf');
    const before = await verifyPdf(bytes, { trustAnchors: [] });
    const ts = before.signatures[2];
    expect(ts.kind).toBe('doc_timestamp');
    expect(ts.trustAside.indication).toBe('TOTAL_PASSED');
    const [, gapStart, gapEnd] = ts.byteRange!;
    const hex = Buffer.from(bytes.subarray(gapStart, gapEnd)).toString('latin1');
    const genTime = Buffer.from('20170726130653', 'latin1').toString('hex').toUpperCase();
    const at = hex.toUpperCase().indexOf(genTime);
    expect(at).toBeGreaterThan(0);
    const forged = Buffer.from('20160726130653', 'latin1').toString('hex').toUpperCase();
    const copy = new Uint8Array(bytes);
    copy.set(Buffer.from(forged, 'latin1'), gapStart + at);
    const report = await verifyPdf(copy, { trustAnchors: [] });
    const sig = report.signatures[2];
    expect(sig.timestamp?.time.startsWith('2016-07-26')).toBe(true); // the forged time is read...
    expect(sig.timestamp?.valid).toBe(false); // ...and not believed
    expect(sig.intact).toBe(false);
    expect(sig.trustAside).toEqual({ indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE' });
    expect(report.verdict).toBe('TOTAL_FAILED');
  });

  it('rejects bad input with typed errors', async () => {
    const code = async (b: Uint8Array, opts = {}) => {
      try {
        await verifyPdf(b, { trustAnchors: [], ...opts });
        return 'report';
      } catch (err) {
        return (err as VerifyError).code;
      }
    };
    expect(await code(new Uint8Array())).toBe('EMPTY');
    expect(await code(Buffer.from('hello, not a pdf'))).toBe('NOT_PDF');
    expect(await code(corpusFile(SIGNED), { maxBytes: 1000 })).toBe('TOO_LARGE');
    expect(await code(Buffer.from('%PDF-1.7\n garbage with no objects'))).toBe('UNREADABLE');
    const encrypted = Buffer.from(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
        '3 0 obj\n<< /Filter /Standard /V 1 /R 2 >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 3 0 R >>\n',
    );
    expect(await code(encrypted)).toBe('ENCRYPTED');
  });
});
