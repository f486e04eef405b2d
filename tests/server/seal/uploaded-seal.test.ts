import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { SealError, SealErrorCode } from '#server/seal/seal-errors.ts';
import { prepareUploadedSeal } from '#server/seal/uploaded-seal.ts';

async function refusal(bytes: Uint8Array): Promise<SealError> {
  try {
    await prepareUploadedSeal(bytes);
  } catch (e) {
    if (e instanceof SealError) return e;
    throw e;
  }
  throw new Error('the upload was accepted');
}

/** A red ring and bar on paper, as a scan or photo would give it. */
function scannedSeal(format: 'jpeg' | 'png', paper = '#ffffff'): Uint8Array {
  const canvas = createCanvas(400, 300);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, 400, 300);
  ctx.strokeStyle = '#d0101c';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.arc(200, 150, 80, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = '#d0101c';
  ctx.fillRect(150, 140, 100, 20);
  return new Uint8Array(format === 'jpeg' ? canvas.encodeSync('jpeg', 85) : canvas.encodeSync('png'));
}

async function decode(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height);
}

describe('prepareUploadedSeal', () => {
  it('makes the white background of a JPEG transparent and trims to the seal', async () => {
    const out = await prepareUploadedSeal(scannedSeal('jpeg'));
    // The ring is 168 px across (radius 80 + half the 8 px stroke); 2 px of margin each side.
    expect(out.width).toBeGreaterThanOrEqual(166);
    expect(out.width).toBeLessThanOrEqual(176);
    expect(out.height).toBeGreaterThanOrEqual(166);
    expect(out.height).toBeLessThanOrEqual(176);
    const img = await decode(out.png);
    expect([img.width, img.height]).toEqual([out.width, out.height]);
    const at = (x: number, y: number) =>
      Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));
    // Corners and the paper inside the ring are transparent; the ink stays red and opaque.
    for (const [x, y] of [
      [0, 0],
      [img.width - 1, img.height - 1],
      [Math.round(img.width / 2), Math.round(img.height / 2) - 40],
    ]) {
      expect(at(x, y)[3]).toBe(0);
    }
    const bar = at(Math.round(img.width / 2), Math.round(img.height / 2));
    expect(bar[3]).toBeGreaterThan(240);
    expect(bar[0]).toBeGreaterThan(180);
    expect(bar[1]).toBeLessThan(60);
    // No pale halo: every visible pixel is ink-coloured, not pinkish paper.
    for (let i = 0; i < img.data.length; i += 4) {
      if (img.data[i + 3] > 64) expect(img.data[i + 1]).toBeLessThan(110);
    }
  });

  it('accepts a PNG drawn on a signature pad (already transparent) and keeps its strokes', async () => {
    const canvas = createCanvas(375, 200);
    const ctx = canvas.getContext('2d');
    ctx.strokeStyle = '#000000';
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(50, 150);
    ctx.bezierCurveTo(120, 20, 200, 180, 320, 60);
    ctx.stroke();
    const out = await prepareUploadedSeal(new Uint8Array(canvas.encodeSync('png')));
    expect(out.width).toBeLessThan(300);
    expect(out.width).toBeGreaterThan(260);
    const img = await decode(out.png);
    let ink = 0;
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i + 3] > 200 && img.data[i] < 40) ink++;
    expect(ink).toBeGreaterThan(500);
  });

  it('refuses SVG, even with an XML declaration', async () => {
    for (const text of [
      '<svg xmlns="http://www.w3.org/2000/svg"><circle r="5"/></svg>',
      '\uFEFF<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    ]) {
      const e = await refusal(new TextEncoder().encode(text));
      expect(e.code).toBe(SealErrorCode.UploadSvg);
      expect(e.text.zh).toContain('SVG');
      expect(e.text.en).toContain('PNG or JPG');
    }
  });

  it('refuses GIF, text and other files by their content, not their name', async () => {
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0]);
    expect((await refusal(gif)).code).toBe(SealErrorCode.UploadNotImage);
    expect((await refusal(new TextEncoder().encode('just some text'))).code).toBe(
      SealErrorCode.UploadNotImage,
    );
    expect((await refusal(new TextEncoder().encode('%PDF-1.7\n'))).code).toBe(SealErrorCode.UploadNotImage);
    expect((await refusal(new Uint8Array())).code).toBe(SealErrorCode.UploadEmpty);
  });

  it('refuses files over 5 MB', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(scannedSeal('png'));
    const e = await refusal(big);
    expect(e.code).toBe(SealErrorCode.UploadTooLarge);
    expect(e.text.zh).toContain('5 MB');
  });

  it('refuses images over 4000 px on a side, before decoding them', async () => {
    for (const [w, h] of [
      [4001, 8],
      [8, 4001],
    ]) {
      const png = new Uint8Array(createCanvas(w, h).encodeSync('png'));
      const e = await refusal(png);
      expect(e.code).toBe(SealErrorCode.UploadTooManyPixels);
      expect(e.text.en).toContain('4000');
    }
    const jpeg = new Uint8Array(createCanvas(4001, 8).encodeSync('jpeg'));
    expect((await refusal(jpeg)).code).toBe(SealErrorCode.UploadTooManyPixels);
  });

  it('refuses a damaged image, a blank page and a coloured background', async () => {
    const png = scannedSeal('png');
    expect((await refusal(png.subarray(0, 200))).code).toBe(SealErrorCode.UploadCorrupt);
    const blank = createCanvas(100, 100);
    const bctx = blank.getContext('2d');
    bctx.fillStyle = '#ffffff';
    bctx.fillRect(0, 0, 100, 100);
    expect((await refusal(new Uint8Array(blank.encodeSync('jpeg')))).code).toBe(SealErrorCode.UploadNoInk);
    expect((await refusal(scannedSeal('jpeg', '#3060a0'))).code).toBe(SealErrorCode.UploadBackground);
  });
});
