import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certsFromPem } from '../../../server/pdf/verify/trust.ts';
import { verifyPdf } from '../../../server/pdf/verify/verify-pdf.ts';
import { corpusDir, corpusFile, hasCorpus, manifest } from '../fixtures/pdf-corpus.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const verdictOf = (indication: string, sub: string | null) => (sub ? `${indication}/${sub}` : indication);

describe.skipIf(!hasCorpus)('public signed-PDF corpus (trust aside)', () => {
  for (const entry of manifest()) {
    it(entry.file, async () => {
      const bytes = corpusFile(entry.file);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
      const report = await verifyPdf(bytes, { trustAnchors: [] });
      const ex = entry.expected;
      const got = verdictOf(report.trustAside.verdict, report.trustAside.subIndication);
      // alternative_verdicts entries may carry an explanation after the verdict itself
      const alternatives = (ex.alternative_verdicts ?? []).map((a) => a.split(' ')[0]);
      expect([verdictOf(ex.verdict, ex.subindication), ...alternatives]).toContain(got);
      // BadEncodedCMS.pdf: the alternative verdict explicitly means "report the field as a broken
      // signature", which implies one signature instead of none.
      const brokenFieldAlternative = (ex.alternative_verdicts ?? []).some((a) =>
        a.includes('report the field as a broken signature'),
      );
      if (brokenFieldAlternative && got !== verdictOf(ex.verdict, ex.subindication)) {
        expect(report.signatures.every((s) => s.indication === 'TOTAL_FAILED')).toBe(true);
        return;
      }
      expect(report.signatures.length).toBe(ex.signature_count);
      ex.signatures.forEach((s, i) => {
        const g = report.signatures[i];
        expect(g.field).toBe(s.field);
        expect(g.kind).toBe(s.kind);
        if (s.coverage !== null) expect(`${s.field}: ${g.coverage}`).toBe(`${s.field}: ${s.coverage}`);
        if (s.modified_after_signing !== null)
          expect(`${s.field}: ${g.modifiedAfterSigning}`).toBe(`${s.field}: ${s.modified_after_signing}`);
        if (s.intact !== null) expect(`${s.field}: ${g.intact}`).toBe(`${s.field}: ${s.intact}`);
        if (s.crypto_valid !== null)
          expect(`${s.field}: ${g.cryptoValid}`).toBe(`${s.field}: ${s.crypto_valid}`);
      });
    });
  }

  it('trusts a chain to a shipped root at the time the sources validated it, and not without the root', async () => {
    const anchors = certsFromPem(
      readFileSync(path.join(corpusDir, 'trust', 'pyhanko-testing-ca-root.pem'), 'utf8'),
    );
    const bytes = corpusFile('files/pyhanko/separate-annots-kids-indir.pdf');
    const then = new Date('2020-11-01T12:00:00Z');
    const trusted = await verifyPdf(bytes, { trustAnchors: anchors.map((c) => c.der), now: then });
    expect(trusted.verdict).toBe('TOTAL_PASSED');
    expect(trusted.signatures.every((s) => s.trusted)).toBe(true);
    const untrusted = await verifyPdf(bytes, { trustAnchors: [], now: then });
    expect(untrusted.verdict).toBe('INDETERMINATE');
    expect(untrusted.subIndication).toBe('NO_CERTIFICATE_CHAIN_FOUND');
    const today = await verifyPdf(bytes, { trustAnchors: anchors.map((c) => c.der) });
    expect(today.subIndication).toBe('OUT_OF_BOUNDS_NO_POE');
  });

  it('reports NO_SIGNATURE_FOUND for an unsigned file', async () => {
    const report = await verifyPdf(corpusFile('files/pyhanko/minimal.pdf'), { trustAnchors: [] });
    expect(report.verdict).toBe('NO_SIGNATURE_FOUND');
    expect(report.signatures).toEqual([]);
  });
});
