// The verification footer's QR code is what a phone scans to reach the verify page: drawn as runs of dark
// modules (one path), it must still decode, at print resolution, to the footer's verify address. The page
// is drawn by pdf.js (the viewers' reader) and the code read by jsQR, not by anything of ours.
import { PDFDocument } from '@cantoo/pdf-lib';
import jsQR from 'jsqr';
import { describe, expect, test } from 'vitest';
import { stampFooter } from '#server/pdf/compose/pdf-tools.ts';
import { openPdf } from '#server/pdf/pdfjs.ts';

async function drawnPage(bytes: Uint8Array, scale: number) {
  const { createCanvas } = await import('@napi-rs/canvas');
  const doc = await openPdf(bytes, true);
  const page = await doc.getPage(1);
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  await page.render({
    canvasContext: ctx as unknown as CanvasRenderingContext2D,
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
    background: '#ffffff',
  }).promise;
  const { width, height } = canvas;
  return { width, height, data: ctx.getImageData(0, 0, width, height).data as unknown as Uint8ClampedArray };
}

describe('footer QR code', () => {
  test.each([
    ['A4 portrait', [595.28, 841.89]],
    ['letter landscape', [792, 612]],
  ] as const)('on %s it decodes to the verify address of the code', async (_name, size) => {
    const doc = await PDFDocument.create();
    doc.addPage([...size]);
    const plain = await doc.save();
    const code = 'QR7K-M2PX-9VWD-4TNB';
    const out = await stampFooter(plain, code, 'https://esign.example');
    // 300 dpi, as a printed and scanned page would be
    const drawn = await drawnPage(out, 300 / 72);
    const found = jsQR(drawn.data, drawn.width, drawn.height);
    expect(found?.data).toBe(`https://esign.example/#/verify/${code}`);
  });
});
