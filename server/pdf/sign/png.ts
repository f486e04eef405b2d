/**
 * A small PNG decoder for seal images: 8- and 16-bit grey, RGB, palette (with tRNS), grey+alpha and RGBA,
 * not interlaced. Output is split into colour and alpha planes, ready for an image XObject with an SMask.
 */
import { inflateSync } from 'node:zlib';
import { SignError, SignErrorCode } from './errors.ts';

type DecodedPng = {
  width: number;
  height: number;
  /** 3 bytes per pixel (RGB) or 1 (grey) */
  colour: Uint8Array;
  channels: 1 | 3;
  /** one byte per pixel, or null when every pixel is opaque */
  alpha: Uint8Array | null;
};

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_PIXELS = 40_000_000;

const bad = (detail: string) => new SignError(SignErrorCode.BadAppearance, `PNG: ${detail}`);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG; throws SignError(BadAppearance) for anything it does not support. */
export function decodePng(png: Uint8Array): DecodedPng {
  if (png.length < 33 || !SIGNATURE.every((b, i) => png[i] === b)) throw bad('not a PNG');
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let p = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colourType = 0;
  let interlace = 0;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  while (p + 8 <= png.length) {
    const len = dv.getUint32(p);
    const type = String.fromCharCode(png[p + 4], png[p + 5], png[p + 6], png[p + 7]);
    const data = png.subarray(p + 8, p + 8 + len);
    if (p + 12 + len > png.length) throw bad('truncated');
    if (type === 'IHDR') {
      width = dv.getUint32(p + 8);
      height = dv.getUint32(p + 12);
      depth = png[p + 16];
      colourType = png[p + 17];
      interlace = png[p + 20];
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    p += 12 + len;
  }
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw bad('bad size');
  if (interlace !== 0) throw bad('interlaced images are not supported');
  const samples = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType as 0 | 2 | 3 | 4 | 6];
  if (!samples) throw bad(`colour type ${colourType}`);
  if (colourType === 3 ? depth !== 8 : depth !== 8 && depth !== 16) throw bad(`bit depth ${depth}`);
  if (colourType === 3 && !palette) throw bad('palette missing');
  const bpp = (samples * depth) / 8;
  const stride = width * bpp;
  let raw: Uint8Array;
  try {
    raw = new Uint8Array(inflateSync(Buffer.concat(idat)));
  } catch {
    throw bad('corrupt image data');
  }
  if (raw.length < height * (stride + 1)) throw bad('image data too short');
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    const up = dst - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[dst + x - bpp] : 0;
      const b = y > 0 ? px[up + x] : 0;
      const c = x >= bpp && y > 0 ? px[up + x - bpp] : 0;
      const v = raw[src + x];
      px[dst + x] =
        f === 0
          ? v
          : f === 1
            ? v + a
            : f === 2
              ? v + b
              : f === 3
                ? v + ((a + b) >> 1)
                : f === 4
                  ? v + paeth(a, b, c)
                  : -1;
      if (f > 4) throw bad(`filter ${f}`);
    }
  }
  const n = width * height;
  const step = depth / 8;
  const sample = (i: number, s: number) => px[(i * samples + s) * step];
  const isColour = colourType === 2 || colourType === 6 || colourType === 3;
  const channels = isColour ? 3 : 1;
  const colour = new Uint8Array(n * channels);
  const alpha = new Uint8Array(n);
  let opaque = true;
  for (let i = 0; i < n; i++) {
    let al = 255;
    if (colourType === 3) {
      const idx = px[i];
      colour.set(palette!.subarray(idx * 3, idx * 3 + 3), i * 3);
      if (trns && idx < trns.length) al = trns[idx];
    } else if (colourType === 2 || colourType === 6) {
      colour[i * 3] = sample(i, 0);
      colour[i * 3 + 1] = sample(i, 1);
      colour[i * 3 + 2] = sample(i, 2);
      if (colourType === 6) al = sample(i, 3);
    } else {
      colour[i] = sample(i, 0);
      if (colourType === 4) al = sample(i, 1);
    }
    alpha[i] = al;
    if (al !== 255) opaque = false;
  }
  return { width, height, colour, channels, alpha: opaque ? null : alpha };
}
