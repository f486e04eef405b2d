// Shared by the signing tests: test PDFs, a PKI with a Signer, seals, and the external tools on files.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { SealType } from '#contract/enums.ts';
import { signerFromPki, type Signer } from '#server/pdf/sign/cms.ts';
import { pkijs, toArrayBuffer } from '#server/pki/crypto.ts';
import { renderSealPdf } from '#server/seal/render-pdf.ts';
import type { PkiFixture } from '../../pki/fixture.ts';

/** A document with text on each page; `objectStreams` saves it with object streams and an xref stream. */
export async function makePdf(opts: { pages?: number; objectStreams?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < (opts.pages ?? 3); i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Contract page ${i + 1}`, { x: 72, y: 760, size: 20, font, color: rgb(0, 0, 0) });
    for (let l = 0; l < 30; l++)
      page.drawText(`Clause ${i + 1}.${l + 1}: the parties agree to the terms set out here.`, {
        x: 72,
        y: 720 - l * 20,
        size: 11,
        font,
      });
  }
  return doc.save({ useObjectStreams: opts.objectStreams ?? false });
}

let sealPdfCache: Uint8Array | undefined;
export async function contractSealPdf(): Promise<Uint8Array> {
  sealPdfCache ??= await renderSealPdf({
    kind: 'company',
    sealType: SealType.Contract,
    companyName: '示例科技有限公司',
  });
  return sealPdfCache;
}

export async function partySigner(
  fx: PkiFixture,
  accountId: string,
  name: string,
  userType: 0 | 1 = 0,
): Promise<Signer> {
  const idNumber = userType === 1 ? '91110000MA01ABCD2X' : '110101199003071234';
  await fx.pki.issue({
    userType,
    accountId,
    name,
    organisation: userType === 1 ? name : undefined,
    idNumber,
  });
  const m = await fx.pki.signer({ userType, accountId });
  if (!m) throw new Error('no signer material');
  return signerFromPki(m);
}

export function run(cmd: string, args: string[], input?: Uint8Array): { status: number; out: string } {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export function hasTool(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** An NSS database that trusts only the platform root, for pdfsig. */
export function nssDb(dir: string, rootPem: string): string {
  const db = join(dir, 'nss');
  if (!existsSync(db)) {
    mkdirSync(db);
    const root = join(dir, 'root.pem');
    writeFileSync(root, rootPem);
    for (const args of [
      ['-N', '-d', `sql:${db}`, '--empty-password'],
      ['-A', '-d', `sql:${db}`, '-n', 'root', '-t', 'C,C,C', '-i', root],
    ]) {
      const r = run('certutil', args);
      if (r.status !== 0) throw new Error(`certutil ${args.join(' ')}: ${r.out}`);
    }
  }
  return `sql:${db}`;
}

/** Pixels of page `page` (1-based) rendered by pdftoppm at 50 dpi. */
export async function renderPage(dir: string, path: string, page: number) {
  const prefix = join(dir, `render-${page}-${Math.random().toString(36).slice(2)}`);
  const r = run('pdftoppm', [
    '-png',
    '-r',
    '50',
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    path,
    prefix,
  ]);
  if (r.status !== 0) throw new Error(`pdftoppm: ${r.out}`);
  const img = await loadImage(readFileSync(`${prefix}.png`));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const k = 50 / 72;
  return {
    width: img.width,
    height: img.height,
    /** Counts seal-red pixels inside a PDF rectangle (points, origin bottom-left, page height h). */
    redIn(rect: number[], pageHeight: number): number {
      let n = 0;
      const x0 = Math.floor(rect[0] * k);
      const x1 = Math.ceil(rect[2] * k);
      const y0 = Math.floor((pageHeight - rect[3]) * k);
      const y1 = Math.ceil((pageHeight - rect[1]) * k);
      for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y++)
        for (let x = Math.max(0, x0); x < Math.min(img.width, x1); x++) {
          const i = (y * img.width + x) * 4;
          if (data[i] > 150 && data[i + 1] < 100 && data[i + 2] < 100) n++;
        }
      return n;
    },
    pixel(x: number, y: number, pageHeight: number): [number, number, number] {
      const i = (Math.round((pageHeight - y) * k) * img.width + Math.round(x * k)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    },
  };
}

/** The signatures of a file as /ByteRange and /Contents, read straight from the bytes. */
export function signaturesOf(pdf: Uint8Array): { range: number[]; cms: Buffer }[] {
  const text = Buffer.from(pdf).toString('latin1');
  const out: { range: number[]; cms: Buffer }[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const range = m.slice(1, 5).map(Number);
    const hex = text.slice(range[1] + 1, range[2] - 1);
    const cms = Buffer.from(hex, 'hex');
    // Trailing zero padding after the DER: cut to the outer SEQUENCE's length.
    const lenBytes = cms[1] & 0x7f;
    const len = cms[1] & 0x80 ? cms.subarray(2, 2 + lenBytes).reduce((a, b) => a * 256 + b, 0) : cms[1];
    out.push({ range, cms: cms.subarray(0, 2 + (cms[1] & 0x80 ? lenBytes : 0) + len) });
  }
  return out;
}

export function signedData(pdf: Uint8Array, range: number[]): Buffer {
  return Buffer.concat([
    pdf.subarray(range[0], range[0] + range[1]),
    pdf.subarray(range[2], range[2] + range[3]),
  ]);
}

/**
 * openssl ts -verify of the signature time-stamp inside a CMS signature (the unsigned attribute
 * id-aa-timeStampToken, a token over SHA-256 of the signature value), against the root PEM file with the
 * issuing CA's PEM file as untrusted; returns openssl's output ("Verification: OK" when it holds).
 */
export function verifySignatureTimestamp(
  dir: string,
  name: string,
  cms: Uint8Array,
  rootFile: string,
  issuingFile: string,
): string {
  const si = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(toArrayBuffer(cms)).content })
    .signerInfos[0];
  const attr = si.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
  if (!attr) return 'no signature time-stamp';
  const token = join(dir, `${name}-ts.der`);
  writeFileSync(token, new Uint8Array(attr.values[0].toBER()));
  const imprint = createHash('sha256').update(si.signature.valueBlock.valueHexView).digest('hex');
  return run('openssl', [
    'ts',
    '-verify',
    '-token_in',
    '-in',
    token,
    '-digest',
    imprint,
    '-CAfile',
    rootFile,
    '-untrusted',
    issuingFile,
  ]).out;
}

/** openssl ts -verify of a document time-stamp (the token is the signature's CMS, over its byte range). */
export function verifyDocumentTimestamp(
  dir: string,
  pdf: Uint8Array,
  sig: { range: number[]; cms: Uint8Array },
  rootFile: string,
  issuingFile: string,
): string {
  const token = join(dir, 'dts.der');
  writeFileSync(token, sig.cms);
  const data = join(dir, 'dts.bin');
  writeFileSync(data, signedData(pdf, sig.range));
  const args = ['-CAfile', rootFile, '-untrusted', issuingFile];
  return run('openssl', ['ts', '-verify', '-token_in', '-in', token, '-data', data, ...args]).out;
}
