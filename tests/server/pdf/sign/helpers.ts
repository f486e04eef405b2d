// Shared by the signing tests: test PDFs, a PKI with a Signer, seals, and the external tools on files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
