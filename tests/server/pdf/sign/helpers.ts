// Shared by the signing tests: test PDFs, a PKI with a Signer, seals, and the external tools on files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { SealType } from '#contract/enums.ts';
import { signerFromPki, type Signer } from '#server/pdf/sign/cms.ts';
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
