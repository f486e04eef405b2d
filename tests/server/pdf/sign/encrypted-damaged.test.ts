import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PdfFile } from '#server/pdf/parse/document.ts';
import type { Signer, TimestampFn } from '#server/pdf/sign/cms.ts';
import { SignError, SignErrorCode } from '#server/pdf/sign/errors.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { type SignPdfOptions, signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import type { PkiFixture } from '../../fixtures/pki.ts';
import {
  encryptedPdf,
  hasTool,
  isPrefix,
  makePdf,
  pdfsigValid as pdfsigValidIn,
  run,
  startSigningKit,
} from '../../fixtures/pdf-signing.ts';

const hasTools = ['pdfsig', 'qpdf', 'certutil'].every(hasTool);
if (!hasTools)
  console.warn('SKIPPING pdfsig/qpdf assertions: poppler-utils, qpdf or libnss3-tools not installed');

let fx: PkiFixture;
let signer: Signer;
let second: Signer;
let ts: TimestampFn;
let seal: Uint8Array;

beforeAll(async () => {
  ({ fx, signer, second, ts, seal } = await startSigningKit('p-enc', ['c-enc', '示例三号有限公司']));
}, 60_000);
afterAll(() => fx?.close());

const opts = (extra: Partial<SignPdfOptions> = {}): SignPdfOptions => ({
  signer,
  timestamp: ts,
  appearance: { pdf: seal },
  placement: { pageIndex: 0, rect: [100, 100, 200, 200] },
  name: '李四',
  reason: '合同签署 contract',
  ...extra,
});

const pdfsigValid = (pdf: Uint8Array, name: string) => pdfsigValidIn(fx, pdf, name);

const encrypted = async (
  ...args: Parameters<typeof encryptedPdf> extends [unknown, ...infer R] ? R : never
) => encryptedPdf(await makePdf({ pages: 2 }), ...args);

describe('encrypted with an empty user password', () => {
  test.each(['RC4-40', 'RC4-128', 'AES-128', 'AES-256'] as const)(
    '%s: opened without asking, two signatures with an encrypted update each, all valid',
    async (algorithm) => {
      const input = await encrypted(algorithm);
      expect(new PdfFile(input).encryption?.kind).toBe('open');
      const once = await signPdf(input, opts());
      const twice = await signPdf(
        once,
        opts({ signer: second, placement: { pageIndex: 1, rect: [300, 300, 400, 400] } }),
      );
      expect(isPrefix(input, once) && isPrefix(once, twice)).toBe(true);
      // the update is encrypted: the reason, a text string of the signature dictionary, is not in clear
      const update = Buffer.from(twice.subarray(once.length)).toString('latin1');
      expect(update).toMatch(/\/Encrypt \d+ 0 R/);
      expect(update).not.toContain(Buffer.from('contract').toString('hex'));
      const report = await verifyPdf(twice, { trustAnchors: [fx.pki.ca.root.der] });
      expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
      if (hasTools) {
        expect(pdfsigValid(twice, `enc-${algorithm}.pdf`)).toEqual([true, true]);
        const check = run('qpdf', ['--check', fx.file(`enc-${algorithm}-q.pdf`, twice)]);
        expect(check.out).toContain('No syntax or stream encoding errors found');
        // qpdf decrypts the signature dictionary's /Reason as we wrote it
        const json = run('qpdf', [
          '--json=2',
          '--json-key=qpdf',
          fx.file(`enc-${algorithm}-j.pdf`, twice),
        ]).out;
        expect(json).toContain('合同签署 contract');
      }
    },
    60_000,
  );

  test('permissions that forbid filling in forms: refused, naming the permission', async () => {
    const input = await encrypted('AES-128', { fillingForms: false, annotating: false });
    const err = await signPdf(input, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignError);
    expect((err as SignError).code).toBe(SignErrorCode.SigningNotPermitted);
    expect((err as SignError).en).toContain('filling in form fields');
    expect((err as SignError).zh).toContain('填写表单域');
  });

  test('a user password: refused with a clear message, for signing and for verifying', async () => {
    const input = await encrypted('AES-256', undefined, 'user-secret');
    const err = await signPdf(input, opts()).catch((e: unknown) => e);
    expect((err as SignError).code).toBe(SignErrorCode.PasswordRequired);
    expect((err as SignError).en).toContain('needs a password');
    await expect(verifyPdf(input, { trustAnchors: [] })).rejects.toMatchObject({ code: 'ENCRYPTED' });
  });
});

/** The offset of the last `xref` table keyword. */
const lastXref = (b: Uint8Array) => Buffer.from(b).lastIndexOf('xref\n');

describe('damaged cross-reference data: repaired once before the first signature', () => {
  test('a sound file is not touched', async () => {
    const input = await makePdf({ pages: 1 });
    const p = prepareForSigning(input);
    expect(p.repaired).toBe(false);
    expect(p.bytes).toBe(input);
  });

  const damages: [string, (b: Buffer) => Buffer][] = [
    [
      'offsets shifted by junk inserted before the objects',
      (b) => Buffer.concat([b.subarray(0, 15), Buffer.from('% junk junk junk junk\n'), b.subarray(15)]),
    ],
    ['no xref table at all', (b) => Buffer.concat([b.subarray(0, lastXref(b)), Buffer.from('%%EOF\n')])],
    [
      'a startxref that points nowhere',
      (b) => Buffer.from(b.toString('latin1').replace(/startxref\n\d+/, 'startxref\n999999'), 'latin1'),
    ],
    ['no %PDF header', (b) => b.subarray(b.indexOf('1 0 obj'))],
  ];

  test.each(damages)('%s: repaired, signed, valid, the repaired bytes a prefix', async (_, damage) => {
    const good = Buffer.from(await makePdf({ pages: 2 }));
    const input = new Uint8Array(damage(good));
    const direct = await signPdf(input, opts()).catch((e: unknown) => e);
    expect((direct as SignError).code).toMatch(/BROKEN_XREF|NOT_PDF/);
    const p = prepareForSigning(input);
    expect(p.repaired).toBe(true);
    expect(p.problem).toBeTruthy();
    // the damaged bytes stay as they were (the header, if missing, goes in front)
    expect(Buffer.from(p.bytes).includes(Buffer.from(input))).toBe(true);
    expect(prepareForSigning(p.bytes).repaired).toBe(false);
    const once = await signPdf(p.bytes, opts());
    const twice = await signPdf(
      once,
      opts({ signer: second, placement: { pageIndex: 1, rect: [300, 300, 400, 400] } }),
    );
    expect(isPrefix(p.bytes, once) && isPrefix(once, twice)).toBe(true);
    const report = await verifyPdf(twice, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
    if (hasTools) expect(pdfsigValid(twice, 'repaired.pdf')).toEqual([true, true]);
  });

  test('an encrypted file with a damaged table: repaired, and its update still encrypted', async () => {
    const good = Buffer.from(await encrypted('AES-128'));
    const input = Buffer.concat([good.subarray(0, lastXref(good)), Buffer.from('%%EOF\n')]);
    const p = prepareForSigning(new Uint8Array(input));
    expect(p.repaired).toBe(true);
    const out = await signPdf(p.bytes, opts());
    const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
    expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED']);
    if (hasTools) expect(pdfsigValid(out, 'repaired-enc.pdf')).toEqual([true]);
  });

  test('a damaged file that already carries a signature is never rewritten: refused clearly', async () => {
    const signed = Buffer.from(await signPdf(await makePdf({ pages: 1 }), opts()));
    // the signed revision's table now lies about where the objects are
    const damaged = Buffer.concat([signed.subarray(0, 15), Buffer.from('%junk\n'), signed.subarray(15)]);
    const err = (() => {
      try {
        prepareForSigning(new Uint8Array(damaged));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SignError);
    expect((err as SignError).code).toBe(SignErrorCode.SignedFileDamaged);
    expect((err as SignError).zh).toContain('已有签名');
    // a sound signed file is extended as it is
    expect(prepareForSigning(new Uint8Array(signed)).bytes).toEqual(new Uint8Array(signed));
  });
});
