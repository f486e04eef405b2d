import { constants, inflateSync } from 'node:zlib';
import { isArray, isDict, isName, type PdfDict, type PdfObject, PdfSyntaxError } from './objects.ts';

/** A decoded stream may not exceed this size: protects against compression bombs. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

function inflate(data: Uint8Array): Uint8Array {
  try {
    return inflateSync(data, { maxOutputLength: MAX_DECODED_BYTES });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new PdfSyntaxError('stream too large');
    // Truncated or slightly damaged data: keep what decodes, as viewers do.
    try {
      return inflateSync(data, { maxOutputLength: MAX_DECODED_BYTES, finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      throw new PdfSyntaxError('undecodable Flate data');
    }
  }
}

function unpredict(data: Uint8Array, parms: PdfDict | undefined): Uint8Array {
  if (!parms) return data;
  const predictor = parms.v.get('Predictor');
  if (typeof predictor !== 'number' || predictor < 10) return data;
  const colors = typeof parms.v.get('Colors') === 'number' ? (parms.v.get('Colors') as number) : 1;
  const bpc =
    typeof parms.v.get('BitsPerComponent') === 'number' ? (parms.v.get('BitsPerComponent') as number) : 8;
  const columns = typeof parms.v.get('Columns') === 'number' ? (parms.v.get('Columns') as number) : 1;
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const rowLen = Math.ceil((colors * bpc * columns) / 8);
  if (rowLen <= 0 || rowLen > 1 << 20) throw new PdfSyntaxError('bad predictor parameters');
  const rows = Math.floor(data.length / (rowLen + 1));
  const out = new Uint8Array(rows * rowLen);
  const prev = new Uint8Array(rowLen);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLen + 1)];
    const row = data.subarray(r * (rowLen + 1) + 1, (r + 1) * (rowLen + 1));
    const cur = out.subarray(r * rowLen, (r + 1) * rowLen);
    for (let i = 0; i < rowLen; i++) {
      const left = i >= bpp ? cur[i - bpp] : 0;
      const up = prev[i];
      const upLeft = i >= bpp ? prev[i - bpp] : 0;
      let v = row[i];
      switch (type) {
        case 1:
          v += left;
          break;
        case 2:
          v += up;
          break;
        case 3:
          v += (left + up) >> 1;
          break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          v += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
          break;
        }
        default:
          break;
      }
      cur[i] = v & 0xff;
    }
    prev.set(cur);
  }
  return out;
}

function asciiHex(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let hi = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    let v: number;
    if (c >= 0x30 && c <= 0x39) v = c - 0x30;
    else if (c >= 0x41 && c <= 0x46) v = c - 55;
    else if (c >= 0x61 && c <= 0x66) v = c - 87;
    else continue;
    if (hi < 0) hi = v;
    else {
      out.push((hi << 4) | v);
      hi = -1;
    }
  }
  if (hi >= 0) out.push(hi << 4);
  return Uint8Array.from(out);
}

/**
 * Applies the stream's /Filter chain. Supports FlateDecode (with PNG/TIFF-less predictors) and
 * ASCIIHexDecode; other filters (images) are returned undecoded with `decoded: false`.
 */
export function decodeStreamData(dict: PdfDict, raw: Uint8Array): { data: Uint8Array; decoded: boolean } {
  const f = dict.v.get('Filter');
  const p = dict.v.get('DecodeParms');
  const filters: PdfObject[] = isArray(f) ? f.v : f === undefined || f === null ? [] : [f];
  const parms: PdfObject[] = isArray(p) ? p.v : [p ?? null];
  let data = raw;
  for (let i = 0; i < filters.length; i++) {
    const name = filters[i];
    const parm = parms[i];
    if (isName(name, 'FlateDecode') || isName(name, 'Fl')) {
      data = unpredict(inflate(data), isDict(parm) ? parm : undefined);
    } else if (isName(name, 'ASCIIHexDecode') || isName(name, 'AHx')) {
      data = asciiHex(data);
    } else {
      return { data, decoded: false };
    }
  }
  return { data, decoded: true };
}
