import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

// ---- encryption that protects only attachments ----------------------------------------------------------
// An /Encrypt dictionary whose /StmF and /StrF are /Identity and whose /EFF crypt filter encrypts embedded
// files (under a user password, or none). Viewers open the document without asking; the signer signs it,
// writes its updates as the file's filters say (in the clear), and leaves the attachment encrypted. The test
// files are built here byte by byte (ISO 32000-2 §7.6.4, written independently of the product's crypt.ts).

// ---- the security handler, written from the standard -------------------------------------------------

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...p: Uint8Array[]) => p.reduce((h, x) => h.update(x), createHash('md5')).digest();
const hex = (b: Uint8Array) => `<${Buffer.from(b).toString('hex')}>`;

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const aesCbc = (key: Uint8Array, iv: Uint8Array, data: Uint8Array, pad: boolean) => {
  const c = createCipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv);
  c.setAutoPadding(pad);
  return Buffer.concat([c.update(data), c.final()]);
};

/** Algorithm 2.B (R 6): the hash of a password with a salt and (for the owner) the /U string. */
function hash6(pw: Buffer, salt: Buffer, udata: Buffer): Buffer {
  let k = createHash('sha256')
    .update(Buffer.concat([pw, salt, udata]))
    .digest();
  for (let round = 0; ; round++) {
    const e = aesCbc(
      k.subarray(0, 16),
      k.subarray(16, 32),
      Buffer.concat(Array(64).fill(Buffer.concat([pw, k, udata]))),
      false,
    );
    const mod = e.subarray(0, 16).reduce((a, x) => a + x, 0) % 3;
    k = createHash(['sha256', 'sha384', 'sha512'][mod]).update(e).digest();
    if (round >= 63 && e[e.length - 1] <= round - 31) break;
  }
  return k.subarray(0, 32);
}

/** An /Encrypt dictionary, the encryption of attachments and (when not in the clear) of the rest. */
type Handler = {
  encrypt: string;
  embed: (num: number, data: Buffer) => Buffer;
  doc?: (num: number, data: Buffer) => Buffer;
};

const P = -4;

/** R 6 (AES-256): /StmF and /StrF /Identity, /EFF /StdCF with /AuthEvent /EFOpen. */
function r6(userPw: string): Handler {
  const fk = randomBytes(32);
  const [u, o] = [Buffer.from(userPw, 'utf8'), Buffer.from('owner-secret', 'utf8')];
  const [uvs, uks, ovs, oks] = [randomBytes(8), randomBytes(8), randomBytes(8), randomBytes(8)];
  const U = Buffer.concat([hash6(u, uvs, Buffer.alloc(0)), uvs, uks]);
  const UE = aesCbc(hash6(u, uks, Buffer.alloc(0)), Buffer.alloc(16), fk, false);
  const O = Buffer.concat([hash6(o, ovs, U), ovs, oks]);
  const OE = aesCbc(hash6(o, oks, U), Buffer.alloc(16), fk, false);
  const perms = Buffer.alloc(16);
  perms.writeInt32LE(P, 0);
  perms.fill(0xff, 4, 8);
  perms.write('Tadb', 8, 'latin1');
  const ecb = createCipheriv('aes-256-ecb', fk, null);
  ecb.setAutoPadding(false);
  const Perms = Buffer.concat([ecb.update(perms), ecb.final()]);
  return {
    encrypt:
      `<</Filter /Standard /V 5 /R 6 /Length 256 /P ${P} /O ${hex(O)} /U ${hex(U)} /OE ${hex(OE)} ` +
      `/UE ${hex(UE)} /Perms ${hex(Perms)} /CF <</StdCF <</Type /CryptFilter /CFM /AESV3 ` +
      '/AuthEvent /EFOpen /Length 32>>>> /StmF /Identity /StrF /Identity /EFF /StdCF>>',
    embed: (_num, data) => {
      const iv = randomBytes(16);
      return Buffer.concat([iv, aesCbc(fk, iv, data, true)]);
    },
  };
}

/**
 * R 4, the key of Algorithm 2: AES-128 for attachments alone (the same filters as r6), or, with `short`, RC4
 * for everything under a 40-bit key that Acrobat and pdf.js pad with zeros to 16 bytes for the object keys
 * (what Acrobat writes; `issue19484_*` of pdf-wild).
 */
function r4(userPw: string, id0: Buffer, short = false): Handler {
  const n = short ? 5 : 16;
  const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
  const xor19 = (key: Buffer, data: Buffer, down = false) => {
    let x = data;
    for (let k = 1; k <= 19; k++)
      x = rc4(
        key.map((b) => b ^ (down ? 20 - k : k)),
        x,
      );
    return x;
  };
  let h = md5(padded('owner-secret'));
  for (let i = 0; i < 50; i++) h = md5(h);
  const O = xor19(h.subarray(0, n), rc4(h.subarray(0, n), padded(userPw)));
  const p = Buffer.alloc(4);
  p.writeInt32LE(P, 0);
  let fk = md5(padded(userPw), O, p, id0);
  for (let i = 0; i < 50; i++) fk = md5(fk.subarray(0, n));
  fk = fk.subarray(0, n);
  const U = xor19(fk, rc4(fk, md5(PAD, id0)));
  const key16 = Buffer.concat([fk, Buffer.alloc(16 - n)]);
  const objectKey = (num: number, salt: string) =>
    md5(key16, Buffer.from([num & 255, (num >> 8) & 255, num >> 16, 0, 0]), Buffer.from(salt));
  if (short) {
    const doc = (num: number, data: Buffer) => rc4(objectKey(num, ''), data);
    return {
      encrypt:
        `<</Filter /Standard /V 4 /R 4 /Length 40 /P ${P} /O ${hex(O)} /U ${hex(Buffer.concat([U, Buffer.alloc(16)]))} ` +
        '/CF <</StdCF <</CFM /V2 /AuthEvent /DocOpen /Length 5>>>> /StmF /StdCF /StrF /StdCF>>',
      embed: doc,
      doc,
    };
  }
  return {
    encrypt:
      `<</Filter /Standard /V 4 /R 4 /Length 128 /P ${P} /O ${hex(O)} /U ${hex(Buffer.concat([U, Buffer.alloc(16)]))} ` +
      '/CF <</StdCF <</Type /CryptFilter /CFM /AESV2 /AuthEvent /EFOpen /Length 16>>>> ' +
      '/StmF /Identity /StrF /Identity /EFF /StdCF>>',
    embed: (num, data) => {
      const iv = randomBytes(16);
      return Buffer.concat([iv, aesCbc(objectKey(num, 'sAlT'), iv, data, true)]);
    },
  };
}

const PRODUCER = 'hand-built encryption';
const SECRET = Buffer.from('the attachment: confidential terms, only with the password\n');

/** A one-page document with one attachment (secret.txt), encrypted by `handler`. */
function withAttachment(make: (id0: Buffer) => Handler): Uint8Array {
  const id0 = randomBytes(16);
  const handler = make(id0);
  const plain = Buffer.from('BT /F1 24 Tf 30 100 Td (Attachments only) Tj ET\n');
  const content = handler.doc?.(4, plain) ?? plain;
  const embedded = handler.embed(6, SECRET);
  const str = (num: number, text: string) =>
    handler.doc ? hex(handler.doc(num, Buffer.from(text, 'latin1'))) : `(${text})`;
  const objects: (string | Buffer)[][] = [
    ['<</Type /Catalog /Pages 2 0 R /Names <</EmbeddedFiles 7 0 R>>>>'],
    ['<</Type /Pages /Kids [3 0 R] /Count 1>>'],
    [
      '<</Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>>',
    ],
    [`<</Length ${content.length}>>\nstream\n`, content, '\nendstream'],
    ['<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>'],
    [`<</Type /EmbeddedFile /Length ${embedded.length}>>\nstream\n`, embedded, '\nendstream'],
    [`<</Names [${str(7, 'secret.txt')} 8 0 R]>>`],
    [`<</Type /Filespec /F ${str(8, 'secret.txt')} /UF ${str(8, 'secret.txt')} /EF <</F 6 0 R>>>>`],
    [handler.encrypt],
    [`<</Producer ${str(10, PRODUCER)}>>`],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let pos = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((chunks, i) => {
    offsets.push(pos);
    for (const c of [`${i + 1} 0 obj\n`, ...chunks, '\nendobj\n']) {
      const b = typeof c === 'string' ? Buffer.from(c, 'latin1') : c;
      parts.push(b);
      pos += b.length;
    }
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r\n`).join('');
  const id = `[${hex(id0)} ${hex(id0)}]`;
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${rows}trailer\n<</Size ${objects.length + 1} /Root 1 0 R ` +
        `/Info 10 0 R /Encrypt 9 0 R /ID ${id}>>\nstartxref\n${pos}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * Two signatures on `input`: both valid in the verifier, pdfsig and qpdf (with `password`, if any; not at all
 * when `password` is null: files poppler and qpdf cannot decrypt).
 */
async function signTwice(input: Uint8Array, label: string, password: string | null) {
  const ready = prepareForSigning(input);
  expect(ready.repaired).toBe(false);
  const once = await signPdf(ready.bytes, opts());
  const twice = await signPdf(
    once,
    opts({ signer: second, placement: { pageIndex: 0, rect: [100, 20, 160, 80] } }),
  );
  expect(isPrefix(input, once) && isPrefix(once, twice)).toBe(true);
  const report = await verifyPdf(twice, { trustAnchors: [fx.pki.ca.root.der] });
  expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
  if (hasTools && password !== null) {
    expect(pdfsigValid(once, `${label}-1.pdf`)).toEqual([true]);
    expect(pdfsigValid(twice, `${label}-2.pdf`)).toEqual([true, true]);
    const file = fx.file(`${label}-q.pdf`, twice);
    const pw = password ? [`--password=${password}`] : [];
    expect(run('qpdf', [...pw, '--check', file]).out).toContain('No syntax or stream encoding errors found');
  }
  return { once, twice };
}

test('V 4 with a 40-bit key, padded to 128 bits as Acrobat and pdf.js read it: opened, signed twice, valid', async () => {
  const input = withAttachment((id0) => r4('', id0, true));
  const { twice } = await signTwice(input, 'short-key', null);
  // pdf.js (poppler 22 and qpdf 11 do not pad the key) reads the signed file: the page, the document
  // information, and the signatures' fields, whose strings our updates encrypted
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: twice.slice(), verbosity: 0 }).promise;
  const text = await (await doc.getPage(1)).getTextContent();
  expect(text.items.map((i) => ('str' in i ? i.str : '')).join('')).toContain('Attachments only');
  expect(((await doc.getMetadata()).info as { Producer?: string }).Producer).toBe(PRODUCER);
  const widgets = (await (await doc.getPage(1)).getAnnotations()).filter((a) => a.fieldType === 'Sig');
  expect(widgets.map((w) => w.fieldName)).toEqual(['Signature1', 'Signature2']);
});

describe('encryption that protects only attachments: signed without a password', () => {
  const cases: [string, (id0: Buffer) => Handler, string][] = [
    ['R 6 (AES-256), a user password', () => r6('att-secret'), 'att-secret'],
    ['R 6 (AES-256), no user password', () => r6(''), ''],
    ['R 4 (AES-128), a user password', (id0) => r4('att-secret', id0), 'att-secret'],
    ['R 4 (AES-128), no user password', (id0) => r4('', id0), ''],
  ];

  test.each(cases)(
    '%s: opened, signed twice, every signature valid, the attachment still encrypted',
    async (label, make, password) => {
      const input = withAttachment(make);
      expect(new PdfFile(input).encryption?.kind).toBe('open');
      const { twice } = await signTwice(input, label.replace(/\W+/g, '-'), password);
      const text = Buffer.from(twice).toString('latin1');
      // the updates are written as /StmF and /StrF say: in the clear (the reason is readable as it is)
      expect(text.slice(input.length)).toContain(
        Buffer.from('合同签署 contract', 'utf16le').swap16().toString('hex'),
      );
      expect(text.slice(input.length)).toMatch(/\/Encrypt 9 0 R/);
      // the attachment is not in the clear anywhere; its object is the one the input had, still encrypted,
      // and the key (when the empty password gives it) still opens it. (qpdf 11 and poppler 22 do not apply
      // /EFF: they show an attachment of such a file as its encrypted bytes, before and after signing alike.)
      expect(Buffer.from(twice).includes(SECRET)).toBe(false);
      const attachment = (pdf: Uint8Array) => {
        const file = new PdfFile(pdf);
        const io = file.entryObject(file.latest, 6);
        return io?.obj && typeof io.obj === 'object' && io.obj.t === 'stream'
          ? Buffer.from(io.obj.raw)
          : undefined;
      };
      expect(attachment(twice)).toEqual(attachment(input));
      if (!password) expect(attachment(twice)).toEqual(SECRET);
    },
  );

  test.each([
    ['R 4 (AES-128)', ['128', '--use-aes=y']],
    ['R 6 (AES-256)', ['256']],
  ])('%s encrypted by qpdf with clear-text metadata: signed twice, all valid', async (_label, bits) => {
    if (!hasTools) return;
    const src = fx.file(`plain-${bits[0]}.pdf`, await makePdf({ pages: 1 }));
    const out = `${src}.enc.pdf`;
    const r = run('qpdf', ['--encrypt', '', 'owner-secret', ...bits, '--cleartext-metadata', '--', src, out]);
    expect(r.status, r.out).toBe(0);
    const input = new Uint8Array(readFileSync(out));
    await signTwice(input, `qpdf-${bits[0]}`, '');
  });
});

// ---- pages written directly inside /Kids ------------------------------------------------------------------

/**
 * `pdf` (from makePdf) with an update whose page tree node lists the pages `direct` (0-based) as
 * dictionaries written inside /Kids rather than references: poppler and qpdf open such a file.
 */
function withDirectKids(pdf: Uint8Array, direct: number[]): Buffer {
  const text = Buffer.from(pdf).toString('latin1');
  const [, node, list] = /(\d+) 0 obj\n<<\n\/Type \/Pages\n\/Kids \[ ([^\]]*) \]/.exec(text) ?? [];
  const kids = [...list.matchAll(/(\d+) 0 R/g)].map(([r, n], i) => {
    if (!direct.includes(i)) return r;
    return new RegExp(`\\n${n} 0 obj\\n(<<[\\s\\S]*?>>)\\nendobj`).exec(text)?.[1] ?? '';
  });
  const size = /\/Size (\d+)/.exec(text)?.[1];
  const root = /\/Root (\d+ 0 R)/.exec(text)?.[1];
  // an encrypted file stays encrypted: the new trailer repeats /Encrypt and /ID
  const keep = [/\/Encrypt \d+ 0 R/, /\/ID \[[^\]]*\]/].map((re) => re.exec(text)?.[0] ?? '').join(' ');
  const prev = [...text.matchAll(/startxref\n(\d+)/g)].pop()?.[1];
  const at = pdf.length + 1;
  const obj = `${node} 0 obj\n<< /Type /Pages /Kids [ ${kids.join(' ')} ] /Count ${kids.length} >>\nendobj\n`;
  const xref = `xref\n${node} 1\n${String(at).padStart(10, '0')} 00000 n\r\n`;
  const trailer = `trailer\n<< /Size ${size} /Root ${root} /Prev ${prev} ${keep} >>\nstartxref\n${at + obj.length}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(pdf), Buffer.from(`\n${obj}${xref}${trailer}`, 'latin1')]);
}

/** Pixels of every page as poppler renders them (grey, 20 dpi). */
function popplerPages(pdf: Uint8Array, name: string): Buffer[] {
  const file = fx.file(name, pdf);
  const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]).out)?.[1] ?? 0);
  return Array.from({ length: pages }, (_, i) => {
    const out = `${file}-${i + 1}`;
    run('pdftoppm', ['-f', `${i + 1}`, '-l', `${i + 1}`, '-r', '20', '-gray', '-singlefile', file, out]);
    return readFileSync(`${out}.pgm`);
  });
}

describe('pages written directly inside /Kids: made indirect objects before the first signature', () => {
  test.each([
    ['a sound table, pages 1 and 3 direct', [0, 2], 'sound', 'pages 1, 3 made indirect objects'],
    [
      'every offset wrong, page 2 direct',
      [1],
      'damaged',
      /^cross-reference table rebuilt: .+; page 2 made an indirect object$/,
    ],
    ['encrypted (RC4-128), page 3 direct', [2], 'encrypted', 'page 3 made an indirect object'],
  ] as const)(
    '%s: repaired once, signed twice, valid, poppler shows the same pages',
    async (_, direct, kind, says) => {
      const plain =
        kind === 'encrypted'
          ? await encryptedPdf(await makePdf({ pages: 3 }), 'RC4-128')
          : await makePdf({ pages: 3 });
      let input = withDirectKids(plain, [...direct]);
      // junk after the header: every offset of every table is wrong
      if (kind === 'damaged')
        input = Buffer.concat([input.subarray(0, 15), Buffer.from('% junk\n'), input.subarray(15)]);
      const p = prepareForSigning(new Uint8Array(input));
      expect(p.repaired).toBe(true);
      expect(p.problem).toMatch(says);
      expect(Buffer.from(p.bytes).includes(input)).toBe(true);
      expect(prepareForSigning(p.bytes).repaired).toBe(false);
      const once = await signPdf(p.bytes, opts());
      const twice = await signPdf(
        once,
        opts({ signer: second, placement: { pageIndex: direct[0], rect: [300, 300, 400, 400] } }),
      );
      expect(isPrefix(p.bytes, once) && isPrefix(once, twice)).toBe(true);
      const report = await verifyPdf(twice, { trustAnchors: [fx.pki.ca.root.der] });
      expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
      if (hasTools) {
        expect(pdfsigValid(twice, `direct-${direct.join('')}.pdf`)).toEqual([true, true]);
        const check = run('qpdf', ['--check', fx.file(`direct-${direct.join('')}-q.pdf`, twice)]);
        expect(check.out).toContain('No syntax or stream encoding errors found');
        // qpdf opens the direct-kids file (it makes the pages indirect itself; poppler 22 draws no page of
        // it), and poppler shows the repaired file's pages as those of the file before its pages went direct
        const n = run('qpdf', ['--show-npages', fx.file(`direct-in-${direct.join('')}.pdf`, input)]).out;
        expect(n).toMatch(/^3\n/);
        const before = popplerPages(plain, `direct-plain-${direct.join('')}.pdf`);
        expect(before).toHaveLength(3);
        expect(popplerPages(p.bytes, `direct-out-${direct.join('')}.pdf`)).toEqual(before);
      }
    },
  );
});
