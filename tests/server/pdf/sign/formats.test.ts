// Inputs of every shape the signer meets: xref streams with object streams, existing signatures from
// other tools, an empty field prepared by the author, PNG seals, and the inputs it must refuse.
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { SealType } from '#contract/enums.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Signer, TimestampFn } from '#server/pdf/sign/cms.ts';
import { SignError, SignErrorCode } from '#server/pdf/sign/errors.ts';
import { type SignPdfOptions, signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { renderSealPng } from '#server/seal/render-png.ts';
import type { PkiFixture } from '../../fixtures/pki.ts';
import {
  hasTool,
  isPrefix,
  makePdf,
  nssDb,
  renderPage,
  run,
  startSigningKit,
} from '../../fixtures/pdf-signing.ts';

const CORPUS = '/work/shared/pdf-corpus/files';
const hasTools = ['pdfsig', 'qpdf', 'certutil'].every(hasTool);
if (!hasTools)
  console.warn('SKIPPING pdfsig/qpdf assertions: poppler-utils, qpdf or libnss3-tools not installed');

let fx: PkiFixture;
let signer: Signer;
let second: Signer;
let ts: TimestampFn;
let seal: Uint8Array;

beforeAll(async () => {
  ({ fx, signer, second, ts, seal } = await startSigningKit('p-formats', ['c-formats', '示例二号有限公司']));
}, 60_000);
afterAll(() => fx?.close());

const opts = (extra: Partial<SignPdfOptions> = {}): SignPdfOptions => ({
  signer,
  timestamp: ts,
  appearance: { pdf: seal },
  placement: { pageIndex: 0, rect: [100, 100, 200, 200] },
  ...extra,
});

/** pdfsig's verdicts: one entry per signature, [valid, trusted]. */
function pdfsigVerdicts(
  pdf: Uint8Array,
  name: string,
): { valid: boolean; trusted: boolean; block: string }[] {
  const out = run('pdfsig', ['-nssdir', nssDb(fx.dir, fx.pki.rootPem), '-no-ocsp', fx.file(name, pdf)]).out;
  return out
    .split(/Signature #\d+:/)
    .slice(1)
    .map((block) => ({
      block,
      valid: block.includes('Signature is Valid.'),
      trusted: block.includes('Certificate is Trusted.'),
    }));
}

/** qpdf --check is clean, or (for a corpus input that already has warnings) warns about nothing new. */
function qpdfCheck(pdf: Uint8Array, name: string, input?: Uint8Array): void {
  const r = run('qpdf', ['--check', fx.file(name, pdf)]);
  const warnings = (out: string) =>
    new Set([...out.matchAll(/WARNING: [^:]+: (.*)/g)].map((m) => m[1]).filter((w) => !w.includes('/tmp/')));
  if (input) {
    const before = run('qpdf', ['--check', fx.file(`${name}-input.pdf`, input)]);
    if (before.status !== 0) {
      expect(r.status, r.out).toBe(before.status);
      expect([...warnings(r.out)].filter((w) => !warnings(before.out).has(w))).toEqual([]);
      return;
    }
  }
  expect(r.status, r.out).toBe(0);
  expect(r.out).toContain('No syntax or stream encoding errors found');
}

/** The last update: everything after the previous %%EOF. */
function lastUpdate(before: Uint8Array, after: Uint8Array): string {
  return Buffer.from(after.subarray(before.length)).toString('latin1');
}

describe('input structures', () => {
  test('a file saved with object streams gets an xref-stream update with /Prev, and verifies', async () => {
    const input = await makePdf({ objectStreams: true });
    expect(Buffer.from(input).toString('latin1')).toContain('/ObjStm');
    const once = await signPdf(input, opts());
    // A second party: poppler 22.12 (pdfsig) reports "Unknown issue with Certificate" for the second of two
    // signatures made with the very same certificate in one file, though both verify (openssl, verifyPdf).
    const twice = await signPdf(
      once,
      opts({ signer: second, placement: { pageIndex: 2, rect: [300, 300, 400, 400] } }),
    );
    expect(isPrefix(input, once) && isPrefix(once, twice)).toBe(true);
    const update = lastUpdate(once, twice);
    expect(update).toMatch(/\/Type\s*\/XRef/);
    expect(update).toMatch(/\/Prev \d+/);
    expect(update).not.toMatch(/\nxref\n/);
    const report = await verifyPdf(twice, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
    if (hasTools) {
      qpdfCheck(twice, 'objstm-signed.pdf');
      const v = pdfsigVerdicts(twice, 'objstm-signed.pdf');
      expect(
        v.map((x) => [x.valid, x.trusted]),
        v.map((x) => x.block).join('\n'),
      ).toEqual([
        [true, true],
        [true, true],
      ]);
    }
  });

  test('a classic file gets a classic xref table update', async () => {
    const input = await makePdf({ pages: 1 });
    const out = await signPdf(input, opts());
    const update = lastUpdate(input, out);
    expect(update).toMatch(/\nxref\n/);
    expect(update).toMatch(/trailer\n<<[\s\S]*\/Prev \d+/);
  });

  test('pyHanko minimal.pdf (corpus, read-only) signs and verifies', async () => {
    const input = new Uint8Array(readFileSync(`${CORPUS}/pyhanko/minimal.pdf`));
    const out = await signPdf(input, opts());
    expect(isPrefix(input, out)).toBe(true);
    const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures[0].indication).toBe('TOTAL_PASSED');
    if (hasTools) {
      qpdfCheck(out, 'minimal-signed.pdf');
      expect(pdfsigVerdicts(out, 'minimal-signed.pdf').map((x) => [x.valid, x.trusted])).toEqual([
        [true, true],
      ]);
    }
  });

  test.each([
    'node-signpdf/signed-twice.pdf',
    'pyhanko/minimal-two-fields-signed-twice.pdf',
    'dss/doc-firmado-LT.pdf',
  ])(
    'already signed by another tool (%s): earlier signatures stay valid, ours is valid and trusted',
    async (file) => {
      const input = new Uint8Array(readFileSync(`${CORPUS}/${file}`));
      const out = await signPdf(input, opts());
      expect(isPrefix(input, out)).toBe(true);
      const before = await verifyPdf(input, { trustAnchors: [fx.pki.ca.root.der] });
      const after = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
      expect(after.signatures).toHaveLength(before.signatures.length + 1);
      for (const s of after.signatures) {
        expect(s.intact).toBe(true);
        expect(s.cryptoValid).toBe(true);
        expect(['none', 'allowed']).toContain(s.modifiedAfterSigning);
      }
      expect(after.signatures.at(-1)?.indication).toBe('TOTAL_PASSED');
      if (hasTools) {
        const name = file.replace(/\W/g, '_');
        qpdfCheck(out, name, input);
        const beforeV = pdfsigVerdicts(input, `${name}-in.pdf`);
        const v = pdfsigVerdicts(out, `${name}-out.pdf`);
        expect(v).toHaveLength(beforeV.length + 1);
        // Whatever pdfsig said of the earlier signatures still holds; the new one is valid and trusted.
        expect(v.filter((x) => x.valid).length).toBe(beforeV.filter((x) => x.valid).length + 1);
        expect(v.find((x) => x.block.includes('CN=李四'))).toMatchObject({ valid: true, trusted: true });
      }
    },
  );
});

describe('fields and appearances', () => {
  test('an empty signature field placed by the author is signed where it is', async () => {
    const doc = await PDFDocument.load(await makePdf({ pages: 2 }));
    const page = doc.getPage(1);
    const field = doc.context.register(
      doc.context.obj({
        FT: 'Sig',
        T: PDFString.of('Party A'),
        Type: 'Annot',
        Subtype: 'Widget',
        Rect: [50, 50, 150, 150],
        P: page.ref,
        F: 4,
      }),
    );
    page.node.set(PDFName.of('Annots'), doc.context.obj([field]));
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [field] }));
    const input = await doc.save({ useObjectStreams: false });
    const out = await signPdf(input, opts({ fieldName: 'Party A', placement: undefined }));
    const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => [s.field, s.indication])).toEqual([['Party A', 'TOTAL_PASSED']]);
    // Signing the same field again is refused.
    await expect(signPdf(out, opts({ fieldName: 'Party A' }))).rejects.toMatchObject({
      code: SignErrorCode.FieldAlreadySigned,
    });
    if (hasTools) {
      expect(pdfsigVerdicts(out, 'field-signed.pdf').map((x) => [x.valid, x.trusted])).toEqual([
        [true, true],
      ]);
      const png = fx.file('field-signed', new Uint8Array());
      const r = run('pdftoppm', [
        '-png',
        '-r',
        '50',
        '-f',
        '2',
        '-l',
        '2',
        '-singlefile',
        fx.file('field-signed.pdf', out),
        png,
      ]);
      expect(r.status, r.out).toBe(0);
    }
  });

  test('a PNG seal is embedded with a soft mask, so it stays transparent', async () => {
    // A round seal: the corners of its square image are transparent pixels.
    const png = renderSealPng(
      { kind: 'company', sealType: SealType.Finance, companyName: '示例科技有限公司' },
      { dpi: 150 },
    );
    const input = await makePdf({ pages: 1 });
    const out = await signPdf(
      input,
      opts({ appearance: { png }, placement: { pageIndex: 0, rect: [72, 600, 172, 700] } }),
    );
    const update = lastUpdate(input, out);
    expect(update).toMatch(/\/Subtype\s*\/Image/);
    expect(update).toMatch(/\/SMask \d+ 0 R/);
    const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures[0].indication).toBe('TOTAL_PASSED');
    if (hasTools) {
      const page = await renderPage(fx.dir, fx.file('png-signed.pdf', out), 1);
      expect(page.redIn([72, 600, 172, 700], 841.89)).toBeGreaterThan(100);
      // Without the soft mask the transparent corners of the image would paint black.
      expect(page.pixel(74, 602, 841.89)).toEqual([255, 255, 255]);
    }
  });
});

describe('cross-page seal', () => {
  test('added by the second party: the first signature sees only permitted (form) changes', async () => {
    const input = await makePdf({ pages: 4 });
    const first = await signPdf(input, opts());
    const signed = await signPdf(
      first,
      opts({
        signer: second,
        placement: { pageIndex: 3, rect: [350, 100, 463, 213] },
        crossPageSeal: { pageIndexes: [0, 1, 2, 3], widthMm: 40, heightMm: 40, topMm: 100 },
      }),
    );
    expect(isPrefix(first, signed)).toBe(true);
    // One update: the strips and the signature come together.
    expect(lastUpdate(first, signed).split('%%EOF').length - 1).toBe(1);
    const report = await verifyPdf(signed, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => [s.indication, s.modifiedAfterSigning])).toEqual([
      ['TOTAL_PASSED', 'allowed'],
      ['TOTAL_PASSED', 'none'],
    ]);
    if (hasTools) {
      const path = fx.file('riding.pdf', signed);
      expect(pdfsigVerdicts(signed, 'riding-sig.pdf').map((x) => [x.valid, x.trusted])).toEqual([
        [true, true],
        [true, true],
      ]);
      qpdfCheck(signed, 'riding-q.pdf');
      // 40 mm over 4 pages: a 10 mm (28.35 pt) strip at the right edge, 100 mm from the top, on every page.
      const mm = 72 / 25.4;
      for (const p of [1, 2, 3, 4]) {
        const page = await renderPage(fx.dir, path, p);
        const strip = [595.28 - 10 * mm, 841.89 - 140 * mm, 595.28, 841.89 - 100 * mm];
        expect(page.redIn(strip, 841.89), `page ${p}`).toBeGreaterThan(30);
        expect(page.redIn([595.28 - 10 * mm, 841.89 - 90 * mm, 595.28, 841.89 - 50 * mm], 841.89)).toBe(0);
      }
    }
  });
});

describe('refusals', () => {
  const refuses = async (
    input: Uint8Array | Promise<Uint8Array>,
    code: string,
    o: Partial<SignPdfOptions> = {},
  ) => {
    const err = await signPdf(await input, opts(o)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignError);
    expect((err as SignError).code).toBe(code);
  };

  test('a PDF that needs a user password', async () => {
    const doc = await PDFDocument.load(await makePdf({ pages: 1 }));
    doc.encrypt({ userPassword: 'u', ownerPassword: 'o' });
    const encrypted = await doc.save({ useObjectStreams: false });
    expect(Buffer.from(encrypted).toString('latin1')).toContain('/Encrypt');
    await refuses(encrypted, SignErrorCode.PasswordRequired);
  });

  test('a file that is not a PDF', async () => {
    await refuses(renderSealPng({ kind: 'person', style: 'square', name: '李四' }), SignErrorCode.NotPdf);
    await refuses(
      new TextEncoder().encode('hello, this is plain text and certainly not a PDF file'),
      SignErrorCode.NotPdf,
    );
  });

  test('a page index out of range', async () => {
    await refuses(makePdf({ pages: 3 }), SignErrorCode.PageOutOfRange, {
      placement: { pageIndex: 3, rect: [0, 0, 50, 50] },
    });
    await refuses(makePdf({ pages: 3 }), SignErrorCode.PageOutOfRange, {
      placement: { pageIndex: -1, rect: [0, 0, 50, 50] },
    });
  });

  test('a field name that is already signed', async () => {
    const once = await signPdf(await makePdf({ pages: 1 }), opts({ fieldName: 'Buyer' }));
    await refuses(once, SignErrorCode.FieldAlreadySigned, { fieldName: 'Buyer' });
  });

  test('a damaged cross-reference table: refused, never rewritten', async () => {
    const input = await makePdf({ pages: 1 });
    const text = Buffer.from(input).toString('latin1');
    const at = text.lastIndexOf('startxref');
    const wrongOffset = Buffer.from(`${text.slice(0, at)}startxref\n17\n%%EOF\n`, 'latin1');
    await refuses(new Uint8Array(wrongOffset), SignErrorCode.BrokenXref);
    // Offsets in the table shifted by junk inserted before the objects.
    const shifted = Buffer.from(text.replace('%PDF-1.7\n', '%PDF-1.7\n% junk junk junk junk\n'), 'latin1');
    await refuses(new Uint8Array(shifted), SignErrorCode.BrokenXref);
  });
});
