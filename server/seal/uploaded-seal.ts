/**
 * Uploaded seal images and signatures drawn on a pad: checked, the paper made transparent, trimmed to the
 * ink, stored as PNG. Everything is refused that is not plainly a PNG or JPEG photo or scan of a seal.
 */
import { crc32 } from 'node:zlib';
import type { Image } from '@napi-rs/canvas';
import { SealError, SealErrorCode } from './seal-errors.ts';

/** Largest upload accepted, in bytes. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Largest side of an upload, in pixels. */
const MAX_UPLOAD_SIDE = 4000;
/** Longest side of the stored PNG: 40 mm at 600 dpi is 945 px; more only makes signed PDFs heavier. */
const MAX_STORED_SIDE = 1200;

interface PreparedSeal {
  png: Uint8Array;
  width: number;
  height: number;
}

type Format = 'png' | 'jpeg';

function sniff(bytes: Uint8Array): Format {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return 'png';
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  // SVG gets its own message: it is an image to the user, but it can carry script and external references.
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<(\?xml|svg|!DOCTYPE svg|!--)/i.test(head) && /<svg[\s>]/i.test(head)) {
    throw new SealError(SealErrorCode.UploadSvg, {
      zh: '不支持 SVG 图片，请上传 PNG 或 JPG 格式的印章图片',
      en: 'SVG images are not accepted; upload the seal as PNG or JPG.',
    });
  }
  throw new SealError(SealErrorCode.UploadNotImage, {
    zh: '文件不是 PNG 或 JPG 图片，请上传 PNG 或 JPG 格式的印章图片',
    en: 'The file is not a PNG or JPG image; upload the seal as PNG or JPG.',
  });
}

function corrupt(): SealError {
  return new SealError(SealErrorCode.UploadCorrupt, {
    zh: '图片已损坏，无法读取',
    en: 'The image is damaged and cannot be read.',
  });
}

/** Width and height from the header, read before decoding so that a huge image is never decompressed. */
function headerSize(bytes: Uint8Array, format: Format): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    // IHDR is always the first chunk: length(4) type(4) width(4) height(4).
    if (bytes.length < 24) throw corrupt();
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) throw corrupt();
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Start-of-frame markers C0..CF, except DHT (C4), JPG (C8) and DAC (CC), carry the size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    i += 2 + view.getUint16(i + 2);
  }
  throw corrupt();
}

/**
 * Whether the file is whole. The decoder is lenient and paints a cut-off file as a partly empty image,
 * which would then pass as a seal with a transparent background; so walk the PNG chunks (with their CRC)
 * up to IEND, or look for the JPEG end-of-image marker.
 */
function isComplete(bytes: Uint8Array, format: Format): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'jpeg') {
    let end = bytes.length;
    while (end > 2 && bytes[end - 1] === 0) end--;
    for (let i = end - 2; i >= Math.max(2, end - 32); i--)
      if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
    return false;
  }
  let i = 8;
  while (i + 12 <= bytes.length) {
    const length = view.getUint32(i);
    if (i + 12 + length > bytes.length) return false;
    if (crc32(bytes.subarray(i + 4, i + 8 + length)) !== view.getUint32(i + 8 + length)) return false;
    if (bytes[i + 4] === 0x49 && bytes[i + 5] === 0x45 && bytes[i + 6] === 0x4e && bytes[i + 7] === 0x44)
      return true;
    i += 12 + length;
  }
  return false;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/**
 * Makes the paper transparent. Each pixel is read as ink laid over the paper colour: its opacity is how
 * far it is from the paper, and its colour is the ink that would give it ("colour to alpha"), so
 * anti-aliased edges stay smooth and no pale halo is left.
 */
function removePaper(data: Uint8ClampedArray, width: number, height: number): void {
  const border: number[] = [];
  const push = (x: number, y: number) => border.push((y * width + x) * 4);
  for (let x = 0; x < width; x++) {
    push(x, 0);
    push(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    push(0, y);
    push(width - 1, y);
  }
  const opaque = border.filter((i) => data[i + 3] > 200);
  // A pad signature or a cut-out seal already has a transparent background: nothing to remove.
  if (opaque.length < border.length / 2) return;
  const paper = [0, 1, 2].map((c) => median(opaque.map((i) => data[i + c])));
  if (Math.min(...paper) < 170) {
    throw new SealError(SealErrorCode.UploadBackground, {
      zh: '印章图片的背景须为白色或透明，请在白纸上拍摄或扫描印章',
      en: 'The seal image needs a white or transparent background; photograph or scan the seal on white paper.',
    });
  }
  const noise = 0.1;
  for (let i = 0; i < data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, (paper[c] - data[i + c]) / paper[c]);
    if (d <= noise) {
      data[i + 3] = 0;
      continue;
    }
    for (let c = 0; c < 3; c++) data[i + c] = (data[i + c] - (1 - d) * paper[c]) / d;
    data[i + 3] = Math.round(data[i + 3] * Math.min(1, (d - noise) / 0.45));
  }
}

function inkBounds(data: Uint8ClampedArray, width: number, height: number) {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] > 24) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return maxX < 0 ? null : { minX, minY, maxX, maxY };
}

/**
 * Checks and prepares an uploaded seal image or a signature drawn on a pad. Accepts PNG or JPEG (by
 * their magic bytes) up to 5 MB and 4000 px a side; refuses SVG, any other file, a damaged image, a
 * coloured (not near-white) background and an image without ink, each with a SealError. Returns a PNG
 * with the paper made transparent, trimmed to the ink, at most 1200 px on its longer side.
 */
export async function prepareUploadedSeal(bytes: Uint8Array): Promise<PreparedSeal> {
  if (bytes.length === 0) {
    throw new SealError(SealErrorCode.UploadEmpty, {
      zh: '上传的文件是空的',
      en: 'The uploaded file is empty.',
    });
  }
  if (bytes.length > MAX_UPLOAD_BYTES) {
    throw new SealError(SealErrorCode.UploadTooLarge, {
      zh: '图片超过 5 MB，请压缩后再上传',
      en: 'The image is larger than 5 MB; make it smaller and upload it again.',
    });
  }
  const format = sniff(bytes);
  const size = headerSize(bytes, format);
  if (size.width > MAX_UPLOAD_SIDE || size.height > MAX_UPLOAD_SIDE) {
    throw new SealError(SealErrorCode.UploadTooManyPixels, {
      zh: `图片尺寸过大（${size.width}×${size.height}），每边不能超过 ${MAX_UPLOAD_SIDE} 像素`,
      en: `The image is too large (${size.width}×${size.height}); at most ${MAX_UPLOAD_SIDE} px a side.`,
    });
  }
  if (size.width === 0 || size.height === 0 || !isComplete(bytes, format)) throw corrupt();
  // Skia and the system fonts it scans cost ~22 MB resident; loaded on the first upload, not at start.
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  let image: Image;
  try {
    image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw corrupt();
  }
  const { width, height } = image;
  if (!width || !height || width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE) throw corrupt();
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const pixels = ctx.getImageData(0, 0, width, height);
  removePaper(pixels.data, width, height);
  const box = inkBounds(pixels.data, width, height);
  if (!box) {
    throw new SealError(SealErrorCode.UploadNoInk, {
      zh: '图片中没有找到印章或签名',
      en: 'No seal or signature was found in the image.',
    });
  }
  ctx.putImageData(pixels, 0, 0);
  const pad = 2;
  const sx = Math.max(0, box.minX - pad);
  const sy = Math.max(0, box.minY - pad);
  const sw = Math.min(width, box.maxX + 1 + pad) - sx;
  const sh = Math.min(height, box.maxY + 1 + pad) - sy;
  const scale = Math.min(1, MAX_STORED_SIDE / Math.max(sw, sh));
  const outW = Math.max(1, Math.round(sw * scale));
  const outH = Math.max(1, Math.round(sh * scale));
  const out = createCanvas(outW, outH);
  const octx = out.getContext('2d');
  octx.imageSmoothingQuality = 'high';
  octx.drawImage(canvas, sx, sy, sw, sh, 0, 0, outW, outH);
  return { png: new Uint8Array(out.encodeSync('png')), width: outW, height: outH };
}
