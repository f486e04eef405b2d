// The signing engine against independent checkers: poppler's pdfsig with an NSS database trusting only
// the platform root, qpdf --check, openssl cms/ts, the platform verifier, and pdftoppm renderings.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Signer, TimestampFn } from '#server/pdf/sign/cms.ts';
import { addDocumentTimestamp, addValidationData } from '#server/pdf/sign/ltv.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { createPkiFixture, type PkiFixture } from '../../fixtures/pki.ts';
import {
  contractSealPdf,
  hasTool,
  makePdf,
  nssDb,
  partySigner,
  renderPage,
  run,
  signaturesOf,
  signedData,
  verifyDocumentTimestamp,
  verifySignatureTimestamp,
} from '../../fixtures/pdf-signing.ts';

const TOOLS = ['pdfsig', 'qpdf', 'openssl', 'pdftoppm', 'certutil'];
const missing = TOOLS.filter((t) => !hasTool(t));
if (missing.length > 0)
  console.warn(
    `SKIPPING external-tool assertions: ${missing.join(', ')} not installed (apt-get install -y poppler-utils qpdf libnss3-tools)`,
  );
const withTools = missing.length === 0 ? test : test.skip;

let fx: PkiFixture;
let company: Signer;
let person: Signer;
let ts: TimestampFn;
let nss = '';

beforeAll(async () => {
  fx = await createPkiFixture();
  company = await partySigner(fx, 'company-1', '示例科技有限公司', 1);
  person = await partySigner(fx, 'person-1', '张三', 0);
  ts = (imprint) => fx.pki.timestamp(imprint);
  if (missing.length === 0) nss = nssDb(fx.dir, fx.pki.rootPem);
}, 60_000);
afterAll(() => fx?.close());

const isPrefix = (before: Uint8Array, after: Uint8Array) =>
  after.length > before.length && Buffer.from(after.subarray(0, before.length)).equals(Buffer.from(before));

function pdfsig(path: string): string {
  return run('pdfsig', ['-nssdir', nss, '-no-ocsp', path]).out;
}

const A4_HEIGHT = 841.89;

describe('two parties, DSS and a document time-stamp (PAdES B-LTA)', () => {
  const files: Record<string, Uint8Array> = {};
  const paths: Record<string, string> = {};
  const companyRect = [320, 120, 440, 240];

  beforeAll(async () => {
    const seal = await contractSealPdf();
    files.original = await makePdf({ pages: 3 });
    files.company = await signPdf(files.original, {
      signer: company,
      timestamp: ts,
      appearance: { pdf: seal },
      placement: { pageIndex: 2, rect: companyRect as [number, number, number, number] },
      reason: '同意合同条款',
      location: '上海',
      name: '示例科技有限公司',
      crossPageSeal: {},
    });
    files.person = await signPdf(files.company, {
      signer: person,
      timestamp: ts,
      appearance: { pdf: seal },
      placement: { pageIndex: 0, mm: { left: 30, top: 230, width: 30, height: 30 } },
      fieldName: 'person-zhangsan',
    });
    files.dss = addValidationData(files.person, {
      certs: [fx.pki.ca.issuing.der, fx.pki.ca.root.der, fx.pki.ca.tsa.der],
      crls: [await fx.pki.crl(), fx.pki.rootCrl],
    });
    files.lta = await addDocumentTimestamp(files.dss, ts);
    for (const [k, v] of Object.entries(files)) paths[k] = fx.file(`${k}.pdf`, v);
  }, 60_000);

  test('every step appends to the file before it: the earlier bytes are a prefix of the later', () => {
    const order = ['original', 'company', 'person', 'dss', 'lta'];
    for (let i = 1; i < order.length; i++) expect(isPrefix(files[order[i - 1]], files[order[i]])).toBe(true);
    // Each step is exactly one update: one more %%EOF.
    const eofs = (b: Uint8Array) => Buffer.from(b).toString('latin1').split('%%EOF').length - 1;
    for (let i = 1; i < order.length; i++) expect(eofs(files[order[i]])).toBe(eofs(files[order[i - 1]]) + 1);
  });

  withTools(
    'pdfsig: both party signatures valid and trusted; the document time-stamp covers the whole file',
    () => {
      const out = pdfsig(paths.lta);
      const blocks = out.split(/Signature #\d+:/).slice(1);
      expect(blocks).toHaveLength(3);
      for (const b of blocks.slice(0, 2)) {
        expect(b).toContain('Signature Validation: Signature is Valid.');
        expect(b).toContain('Certificate Validation: Certificate is Trusted.');
        expect(b).toContain('Signature Type: ETSI.CAdES.detached');
      }
      expect(blocks[0]).toContain('Signer Certificate Common Name: 示例科技有限公司');
      expect(blocks[1]).toContain('Signature Field Name: person-zhangsan');
      // poppler 22.12 cannot validate ETSI.RFC3161 ("Unimplemented Feature"); it must still see it whole.
      expect(blocks[2]).toContain('Total document signed');
      // The party signatures stay valid at every stage, not only at the end.
      for (const k of ['company', 'person', 'dss']) {
        const o = pdfsig(paths[k]);
        expect(o.match(/Signature is Valid\./g)?.length, o).toBe(k === 'company' ? 1 : 2);
        expect(o.match(/Certificate is Trusted\./g)?.length, o).toBe(k === 'company' ? 1 : 2);
      }
    },
  );

  withTools('qpdf --check is clean at every stage', () => {
    for (const k of ['company', 'person', 'dss', 'lta']) {
      const r = run('qpdf', ['--check', paths[k]]);
      expect(r.status, r.out).toBe(0);
      expect(r.out).toContain('No syntax or stream encoding errors found');
    }
  });

  withTools(
    'openssl verifies each CMS over its byte range to the platform root; signed attributes are exactly PAdES',
    () => {
      const root = fx.file('root.pem', fx.pki.rootPem);
      const issuing = fx.file(
        'issuing.pem',
        `-----BEGIN CERTIFICATE-----\n${Buffer.from(fx.pki.ca.issuing.der).toString('base64')}\n-----END CERTIFICATE-----\n`,
      );
      const sigs = signaturesOf(files.lta);
      expect(sigs).toHaveLength(3);
      for (const [i, s] of sigs.slice(0, 2).entries()) {
        const cms = fx.file(`sig${i}.der`, s.cms);
        const content = fx.file(`sig${i}.bin`, signedData(files.lta, s.range));
        const v = run('openssl', [
          'cms',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          cms,
          '-content',
          content,
          '-CAfile',
          root,
          '-out',
          '/dev/null',
        ]);
        expect(v.status, v.out).toBe(0);
        expect(v.out).toContain('Verification successful');
        const dump = run('openssl', ['cms', '-cmsout', '-print', '-noout', '-inform', 'DER', '-in', cms]).out;
        const signedAttrs = dump.slice(dump.indexOf('signedAttrs:'), dump.indexOf('signatureAlgorithm:'));
        const objects = [...signedAttrs.matchAll(/object: (\S+)/g)].map((m) => m[1]);
        expect(objects.sort()).toEqual(['contentType', 'id-smime-aa-signingCertificateV2', 'messageDigest']);
        // (The TSA's own token may carry signingTime in its SignerInfo; the party's must not.)
        expect(signedAttrs).not.toContain('signingTime');
        expect(signedAttrs).not.toContain('1.2.840.113549.1.9.5');
        const unsigned = dump.slice(dump.indexOf('unsignedAttrs:'));
        expect(unsigned).toMatch(/object: id-smime-aa-timeStampToken/);
        // The signature time-stamp: a token over SHA-256 of the signature value, verified by openssl ts.
        expect(verifySignatureTimestamp(fx.dir, `sig${i}`, s.cms, root, issuing)).toContain(
          'Verification: OK',
        );
      }
      // The document time-stamp: an RFC 3161 token over the file, verified by openssl ts to the root.
      expect(verifyDocumentTimestamp(fx.dir, files.lta, sigs[2], root, issuing)).toContain(
        'Verification: OK',
      );
    },
  );

  test('the platform verifier passes every signature, with only permitted changes after each', async () => {
    const report = await verifyPdf(files.lta, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => s.kind)).toEqual(['approval', 'approval', 'doc_timestamp']);
    for (const s of report.signatures) {
      expect(s.indication, s.problems.join('; ')).toBe('TOTAL_PASSED');
      expect(['none', 'allowed']).toContain(s.modifiedAfterSigning);
      expect(s.timestamp?.valid).toBe(true);
    }
    expect(report.verdict).toBe('TOTAL_PASSED');
  });

  withTools(
    'the rendered pages show the seal inside its widget and a strip at the right edge of every page',
    async () => {
      const last = await renderPage(fx.dir, paths.lta, 3);
      expect(last.redIn(companyRect, A4_HEIGHT)).toBeGreaterThan(200);
      // The person's seal: 30 mm square 30 mm from the left, 230 mm from the top of page 1.
      const mm = 72 / 25.4;
      const personRect = [30 * mm, A4_HEIGHT - 260 * mm, 60 * mm, A4_HEIGHT - 230 * mm];
      const first = await renderPage(fx.dir, paths.lta, 1);
      expect(first.redIn(personRect, A4_HEIGHT)).toBeGreaterThan(100);
      // Riding seal: the right 15 pt of each page, around the vertical middle, has red ink; the left edge has none.
      for (const p of [1, 2, 3]) {
        const page = p === 1 ? first : p === 3 ? last : await renderPage(fx.dir, paths.lta, 2);
        expect(page.redIn([595.28 - 15, 300, 595.28, 540], A4_HEIGHT), `page ${p}`).toBeGreaterThan(20);
        expect(page.redIn([0, 300, 15, 540], A4_HEIGHT)).toBe(0);
      }
      // The seal is ink on paper: text under the seal stays visible, the box behind it is not painted.
      expect(last.pixel(companyRect[0] + 2, companyRect[1] + 2, A4_HEIGHT)).toEqual([255, 255, 255]);
    },
  );
});
