import { PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from '@cantoo/pdf-lib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { SealType } from '#contract/enums.ts';
import { renderSealPdf } from '#server/seal/render-pdf.ts';
import { renderSealPng } from '#server/seal/render-png.ts';
import { renderSealSvg } from '#server/seal/render-svg.ts';
import type { SealDef } from '#server/seal/seal-def.ts';
import { SealError } from '#server/seal/seal-errors.ts';

const contract: SealDef = {
  kind: 'company',
  sealType: SealType.Contract,
  companyName: '上海示例科技有限公司',
};
const invoice: SealDef = {
  kind: 'company',
  sealType: SealType.Invoice,
  companyName: '上海示例科技有限公司',
  taxpayerNumber: '91310115MA1H7XKP3C',
};

async function pixels(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const at = (x: number, y: number) =>
    Array.from(data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
  return { width: image.width, height: image.height, data, at };
}

describe('SVG', () => {
  const svg = renderSealSvg(contract);

  it('is sized in millimetres, needs no font and has no background', () => {
    expect(svg).toMatch(/^<svg [^>]*width="40mm" height="40mm" viewBox="0 0 40 40"/);
    expect(svg).not.toMatch(/<text|font-family|@font-face|<image/);
    expect(svg).not.toMatch(/fill="(#fff|#ffffff|white)"/i);
    expect(svg).toContain('#e60012');
  });

  it('refuses what the layout refuses', () => {
    expect(() => renderSealSvg({ ...contract, companyName: '' } as SealDef)).toThrow(SealError);
  });
});

describe('PNG', () => {
  it('has the seal size at the asked dpi, transparent corners and red ink', async () => {
    const png = renderSealPng(contract, { dpi: 300 });
    const img = await pixels(png);
    expect(img.width).toBe(472); // 40 mm at 300 dpi
    expect(img.height).toBe(472);
    for (const [x, y] of [
      [0, 0],
      [img.width - 1, 0],
      [0, img.height - 1],
      [img.width - 1, img.height - 1],
    ]) {
      expect(img.at(x, y)[3]).toBe(0);
    }
    // The star's centre and the ring are solid red.
    const [r, g, b, a] = img.at(236, 236);
    expect([r > 200, g < 40, b < 60, a === 255]).toEqual([true, true, true, true]);
    expect(img.at(3, 236)[3]).toBe(255);
    let red = 0;
    let opaqueNotRed = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      if (img.data[i + 3] > 250) {
        if (img.data[i] > 200 && img.data[i + 1] < 40) red++;
        else opaqueNotRed++;
      }
    }
    expect(red).toBeGreaterThan(img.width * img.height * 0.1);
    expect(opaqueNotRed).toBe(0);
  });

  it('follows the dpi and the oval shape', async () => {
    const img = await pixels(renderSealPng(invoice, { dpi: 150 }));
    expect([img.width, img.height]).toEqual([236, 177]);
  });
});

describe('PDF', () => {
  async function inspect(def: SealDef) {
    const bytes = await renderSealPdf(def);
    const doc = await PDFDocument.load(bytes);
    const page = doc.getPage(0);
    const resources = page.node.Resources();
    const contents = page.node.Contents();
    const streams = contents instanceof PDFRawStream ? [contents] : [];
    if (!(contents instanceof PDFRawStream)) {
      const arr = contents as unknown as { asArray(): unknown[] };
      for (const ref of arr.asArray()) streams.push(doc.context.lookup(ref as never) as PDFRawStream);
    }
    const ops = streams.map((s) => new TextDecoder().decode(decodePDFRawStream(s).decode())).join('\n');
    return { bytes, doc, page, resources, ops };
  }

  it('is one page of exactly the seal size in points', async () => {
    const { doc, page, bytes } = await inspect(contract);
    expect(doc.getPageCount()).toBe(1);
    expect(page.getWidth()).toBeCloseTo((40 / 25.4) * 72, 2);
    expect(page.getHeight()).toBeCloseTo((40 / 25.4) * 72, 2);
    expect(bytes.length).toBeLessThan(30_000);
    const oval = await inspect(invoice);
    expect(oval.page.getWidth()).toBeCloseTo((40 / 25.4) * 72, 2);
    expect(oval.page.getHeight()).toBeCloseTo((30 / 25.4) * 72, 2);
  });

  it('draws red vector paths only: no font, no image, nothing white behind the ink', async () => {
    const { resources, ops, bytes } = await inspect(contract);
    const font = resources instanceof PDFDict ? resources.get(PDFName.of('Font')) : undefined;
    expect(font).toBeUndefined();
    expect(new TextDecoder('latin1').decode(bytes)).not.toMatch(/\/Font|\/FontFile|\/Image/);
    expect(ops).not.toMatch(/\bTf\b|\bTj\b|\bDo\b|\bBT\b/);
    expect(ops).toContain('0.902 0 0.071 rg');
    expect(ops).not.toMatch(/\b1 1 1 rg\b|\b1 g\b/);
    expect(ops).toMatch(/ c\n/);
    expect(ops.trim().endsWith('f\nQ')).toBe(true);
  });

  it('embeds as a form XObject on another page, the way signing uses it', async () => {
    const seal = await renderSealPdf(contract);
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const [embedded] = await doc.embedPdf(seal);
    expect(embedded.width).toBeCloseTo((40 / 25.4) * 72, 2);
    page.drawPage(embedded, { x: 400, y: 100 });
    const reloaded = await PDFDocument.load(await doc.save());
    expect(reloaded.getPageCount()).toBe(1);
    const xobjects = reloaded.getPage(0).node.Resources()?.get(PDFName.of('XObject'));
    expect(xobjects instanceof PDFDict && xobjects.keys().length).toBe(1);
  });
});
