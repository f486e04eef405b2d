// PDF signing budget (issue 5): one party's signature (seal appearance, CMS, time-stamp from the in-process
// TSA, output bytes) on a 20-page ~1 MB PDF, median of 30, against the floor measured in the same run
// (SHA-256 of the file + one RSA-2048 signature); then 50 signatures in parallel on 50 different documents.
// `npx node bench/sign.ts` alone, or through `npm run bench`.
import '../scripts/require-node24.ts';
import { createHash, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, type PDFImage, StandardFonts } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { SealType } from '#contract/enums.ts';
import { type Signer, signerFromPki } from '#server/pdf/sign/cms.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { createPki, type Pki } from '#server/pki/pki.ts';
import { renderSealPdf } from '#server/seal/render-pdf.ts';
import type { Figure } from './foundation.ts';
import { median } from './lib.ts';

const RUNS = 30;
const PARALLEL = 50;
const PAGES = 20;

/** A photo-like image (noise over gradients) that deflate cannot shrink much: it gives the file its weight. */
function noisyPng(width: number, height: number, seed: number): Uint8Array {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(width, height);
  let s = seed;
  for (let i = 0; i < img.data.length; i += 4) {
    s = (s * 1103515245 + 12345) >>> 0;
    const p = i / 4;
    img.data[i] = ((p % width) * 255) / width + (s & 31);
    img.data[i + 1] = (Math.floor(p / width) * 255) / height + ((s >> 8) & 31);
    img.data[i + 2] = (s >> 16) & 255;
    img.data[i + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return new Uint8Array(canvas.toBuffer('image/png'));
}

async function document(seed: number, png: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const image: PDFImage = await doc.embedPng(png);
  for (let p = 0; p < PAGES; p++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Contract ${seed}, page ${p + 1}`, { x: 72, y: 770, size: 18, font });
    for (let l = 0; l < 40; l++)
      page.drawText(
        `${p + 1}.${l + 1} The parties agree to the terms and conditions set out in this clause.`,
        {
          x: 72,
          y: 740 - l * 12,
          size: 9,
          font,
        },
      );
    page.drawImage(image, { x: 72, y: 72, width: 300, height: 160 });
  }
  return doc.save({ useObjectStreams: false });
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A signer with a fresh account certificate of the bench's PKI. */
export async function party(pki: Pki, i: number): Promise<Signer> {
  const holder = { userType: 0 as const, accountId: `bench-${i}` };
  await pki.issue({ ...holder, name: `签署人${i}`, idNumber: `11010119900307${String(1000 + i)}` });
  const m = await pki.signer(holder);
  if (!m) throw new Error('no signer');
  return signerFromPki(m);
}

/** The product's PKI on a data folder of its own (in memory certificates), as the benches sign with it. */
export function benchPki(dir: string): Promise<Pki> {
  return createPki({
    dataDir: dir,
    publicUrl: 'http://127.0.0.1:9',
    masterKey: 'bench-master-key-0123456789abcdef-0123456789',
    isProduction: false,
    repository: new InMemoryCertRepository(),
    log: quiet,
  });
}

export async function run(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-bench-sign-'));
  try {
    const pki = await benchPki(dir);
    const timestamp = (imprint: Uint8Array) => pki.timestamp(imprint);
    // The seal is rendered once, when it is created; signing embeds that small PDF.
    const seal = await renderSealPdf({
      kind: 'company',
      sealType: SealType.Contract,
      companyName: '示例科技有限公司',
    });
    const png = noisyPng(680, 500, 1);
    const input = await document(0, png);
    const signer = await party(pki, 0);
    const material = await pki.signer({ userType: 0, accountId: 'bench-0' });
    const key = material!.privateKey;

    // As the product signs: the input checked (and repaired when damaged) first, then signed.
    const signOnce = (pdf: Uint8Array, s: Signer) =>
      signPdf(prepareForSigning(pdf).bytes, {
        signer: s,
        timestamp,
        appearance: { pdf: seal },
        placement: { pageIndex: PAGES - 1, mm: { left: 120, top: 220, width: 40, height: 40 } },
        reason: 'bench',
      });

    // Warm-up: JIT, the first TSA token, NSS-free code paths.
    for (let i = 0; i < 3; i++) await signOnce(input, signer);
    const sign: number[] = [];
    const floor: number[] = [];
    const withoutTimestamp: number[] = [];
    const token: number[] = [];
    let outBytes = 0;
    let digest = Buffer.alloc(32);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      digest = createHash('sha256').update(input).digest();
      await webcrypto.subtle.sign('RSASSA-PKCS1-v1_5', key, digest);
      const t1 = performance.now();
      const out = await signOnce(input, signer);
      const t2 = performance.now();
      floor.push(t1 - t0);
      sign.push(t2 - t1);
      outBytes = out.length;
      // The same signature without the time-stamp (B-B), and the TSA token alone: where the time goes.
      const t3 = performance.now();
      await signPdf(prepareForSigning(input).bytes, {
        signer,
        appearance: { pdf: seal },
        placement: { pageIndex: PAGES - 1, mm: { left: 120, top: 220, width: 40, height: 40 } },
      });
      const t4 = performance.now();
      await timestamp(new Uint8Array(digest));
      token.push(performance.now() - t4);
      withoutTimestamp.push(t4 - t3);
    }

    const docs = await Promise.all([...Array(PARALLEL).keys()].map((i) => document(i + 1, png)));
    const signers = await Promise.all([...Array(PARALLEL).keys()].map((i) => party(pki, i + 1)));
    const t0 = performance.now();
    await Promise.all(docs.map((d, i) => signOnce(d, signers[i])));
    const parallelS = (performance.now() - t0) / 1000;

    const ms = median(sign);
    const fl = median(floor);
    return [
      { name: `input: ${PAGES} pages`, value: input.length / 1024 / 1024, unit: 'MB' },
      { name: 'one signature (appearance, CMS, time-stamp, output), median', value: ms, unit: 'ms' },
      { name: 'floor: SHA-256 of the file + one RSA-2048 signature, median', value: fl, unit: 'ms' },
      { name: 'signature / floor', value: ms / fl, unit: '×', budget: 8 },
      {
        name: 'of which the time-stamp token (pki.timestamp, in process), median',
        value: median(token),
        unit: 'ms',
      },
      {
        name: 'the same signature without time-stamp (B-B), median',
        value: median(withoutTimestamp),
        unit: 'ms',
      },
      { name: 'B-B signature / floor', value: median(withoutTimestamp) / fl, unit: '×' },
      { name: 'bytes added by one signature', value: (outBytes - input.length) / 1024, unit: 'KB' },
      {
        name: `${PARALLEL} signatures in parallel on ${PARALLEL} documents`,
        value: PARALLEL / parallelS,
        unit: 'signatures/s',
        budget: 40,
        lowerIsBetter: false,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('sign', await run());
}
