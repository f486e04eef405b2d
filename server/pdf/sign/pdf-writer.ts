/**
 * Writing one incremental update: PDF objects serialised, new objects numbered from the last /Size,
 * a cross-reference section in the style of the previous one (table, or stream with /Prev), and the
 * signature placeholders (/ByteRange, /Contents) located so they can be patched after the bytes exist.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  isRef,
  type PdfArray,
  type PdfDict,
  type PdfName,
  type PdfObject,
  type PdfRef,
  type PdfString,
} from '../parse/objects.ts';
import { SignError, SignErrorCode } from './errors.ts';
import type { PdfBase } from './pdf-base.ts';

export const name = (v: string): PdfName => ({ t: 'name', v });
export const ref = (num: number, gen = 0): PdfRef => ({ t: 'ref', num, gen });
export const arr = (...v: PdfObject[]): PdfArray => ({ t: 'arr', v });
const bytesString = (v: Uint8Array): PdfString => ({ t: 'str', v, hex: true, start: -1, end: -1 });

/** A text string: PDFDocEncoding-safe ASCII as is, anything else UTF-16BE with a byte-order mark. */
export function textString(s: string): PdfString {
  if (/^[\x20-\x7e]*$/.test(s)) return bytesString(Buffer.from(s, 'latin1'));
  const be = Buffer.from(s, 'utf16le').swap16();
  return bytesString(new Uint8Array([0xfe, 0xff, ...be]));
}

export function dict(entries: Record<string, PdfObject | undefined> | Map<string, PdfObject>): PdfDict {
  const v = new Map<string, PdfObject>();
  const it = entries instanceof Map ? entries.entries() : Object.entries(entries);
  for (const [k, x] of it) if (x !== undefined) v.set(k, x);
  return { t: 'dict', v, start: -1, end: -1 };
}

/** A copy of `d` with entries set (undefined deletes). */
export function withEntries(d: PdfDict, changes: Record<string, PdfObject | undefined>): PdfDict {
  const v = new Map(d.v);
  for (const [k, x] of Object.entries(changes)) {
    if (x === undefined) v.delete(k);
    else v.set(k, x);
  }
  return { t: 'dict', v, start: -1, end: -1 };
}

export function num(n: number): string {
  if (Number.isInteger(n)) return String(n);
  let s = n.toFixed(4);
  // a value read from the file (595.32001) is written back exactly: a rewritten page must not move its
  // boxes, or every earlier signature sees a changed page; computed values keep four decimals
  if (Number(s) !== n && Number(n.toFixed(10)) === n) s = n.toFixed(10);
  s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

function nameToken(v: string): string {
  let s = '/';
  for (const ch of Buffer.from(v, 'latin1')) {
    const regular = ch > 0x20 && ch < 0x7f && !'()<>[]{}/%#'.includes(String.fromCharCode(ch));
    s += regular ? String.fromCharCode(ch) : `#${ch.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/**
 * Serialises a direct object (streams are written by `IncrementalUpdate.stream`). Strings go out as hex,
 * through `str` when given (the encryption of an encrypted file's update).
 */
export function serialize(o: PdfObject | undefined, str?: (b: Uint8Array) => Uint8Array): string {
  if (o === null || o === undefined) return 'null';
  if (typeof o === 'boolean') return o ? 'true' : 'false';
  if (typeof o === 'number') return num(o);
  switch (o.t) {
    case 'name':
      return nameToken(o.v);
    case 'ref':
      return `${o.num} ${o.gen} R`;
    case 'str':
      return `<${Buffer.from(str ? str(o.v) : o.v).toString('hex')}>`;
    case 'arr':
      return `[${o.v.map((x) => serialize(x, str)).join(' ')}]`;
    case 'dict': {
      let s = '<<';
      for (const [k, v] of o.v) s += `${nameToken(k)} ${serialize(v, str)}`;
      return `${s}>>`;
    }
    case 'stream':
      throw new Error('streams are written with IncrementalUpdate.stream');
  }
  return 'null';
}

type Written = { num: number; gen: number; chunks: Uint8Array[] };

/** Where the signature placeholders landed, in bytes of the whole output. */
type SignatureSlot = {
  /** offset of `<` opening /Contents */
  contentsStart: number;
  /** offset just after `>` closing /Contents */
  contentsEnd: number;
  /** offset of the first digit of the /ByteRange placeholder, and its width */
  byteRangeAt: number;
  byteRangeWidth: number;
};

const BYTE_RANGE_PLACEHOLDER = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;
const CONTENTS_MARK = '%%CONTENTS%%';
const BYTE_RANGE_MARK = '%%BYTERANGE%%';

/** The update being built: objects in order, then `finish()` lays out bytes and the xref section. */
export class IncrementalUpdate {
  readonly base: PdfBase;
  private next: number;
  private readonly objects: Written[] = [];
  private sigObject: number | null = null;
  /** bytes reserved for the CMS in /Contents; raise it and call finish() again when a CMS did not fit */
  sigReserve = 0;

  constructor(base: PdfBase) {
    this.base = base;
    this.next = base.size;
  }

  /** A new object number (generation 0). */
  alloc(): PdfRef {
    return ref(this.next++);
  }

  /** The string encryption of object `r` when the file is encrypted (every update of it must be). */
  private strings(r: PdfRef): ((b: Uint8Array) => Uint8Array) | undefined {
    const c = this.base.crypt;
    return c ? (b) => c.encryptString(r.num, r.gen, b) : undefined;
  }

  /** Writes a new version of `r` (existing or allocated) as a direct object. */
  put(r: PdfRef, o: PdfObject): void {
    this.objects.push({
      num: r.num,
      gen: r.gen,
      chunks: [Buffer.from(serialize(o, this.strings(r)), 'latin1')],
    });
  }

  /** Writes a stream object; `compress` deflates data that is not yet filtered. */
  stream(r: PdfRef, d: PdfDict, data: Uint8Array, compress = false): void {
    let body = data;
    let dd = d;
    if (compress && !d.v.has('Filter')) {
      body = deflateSync(data, { level: 6 });
      dd = withEntries(d, { Filter: name('FlateDecode') });
    }
    const c = this.base.crypt;
    if (c) body = c.encryptStream(r.num, r.gen, dd, body);
    dd = withEntries(dd, { Length: body.length, DecodeParms: dd.v.get('DecodeParms') });
    this.objects.push({
      num: r.num,
      gen: r.gen,
      chunks: [
        Buffer.from(`${serialize(dd, this.strings(r))}\nstream\n`, 'latin1'),
        body,
        Buffer.from('\nendstream', 'latin1'),
      ],
    });
  }

  /**
   * Writes the signature dictionary `d` with /ByteRange and /Contents placeholders (`reserve` bytes of
   * CMS, written as 2×reserve hex digits). One per update.
   */
  signature(r: PdfRef, d: PdfDict, reserve: number): void {
    if (this.sigObject !== null) throw new Error('one signature per update');
    this.sigObject = r.num;
    this.sigReserve = reserve;
    // /Contents is never encrypted; the other strings (/M, /Name, /Reason) are like any other
    const body = serialize(withEntries(d, { ByteRange: undefined, Contents: undefined }), this.strings(r));
    // The placeholders come first so their offsets are fixed before the rest of the dictionary.
    const s = `<</ByteRange ${BYTE_RANGE_MARK}/Contents ${CONTENTS_MARK}${body.slice(2)}`;
    this.objects.push({ num: r.num, gen: r.gen, chunks: [Buffer.from(s, 'latin1')] });
  }

  /** Lays out the update after `base.bytes`; the signature slot is filled with zeros until patched. */
  finish(): { bytes: Uint8Array; slot: SignatureSlot | null } {
    const base = this.base;
    const input = base.bytes;
    const parts: Uint8Array[] = [];
    let pos = input.length;
    const push = (b: Uint8Array) => {
      parts.push(b);
      pos += b.length;
    };
    const text = (s: string) => push(Buffer.from(s, 'latin1'));
    // The update starts on a line of its own; the input bytes stay untouched.
    const last = input[input.length - 1];
    if (last !== 0x0a && last !== 0x0d) text('\n');
    const offsets = new Map<number, { offset: number; gen: number }>();
    let slot: SignatureSlot | null = null;
    for (const o of this.objects) {
      offsets.set(o.num, { offset: pos, gen: o.gen });
      text(`${o.num} ${o.gen} obj\n`);
      if (o.num === this.sigObject) {
        const s = Buffer.from(o.chunks[0]).toString('latin1');
        const br = s.indexOf(BYTE_RANGE_MARK);
        const before = s.slice(0, br);
        const between = s.slice(br + BYTE_RANGE_MARK.length, s.indexOf(CONTENTS_MARK));
        const after = s.slice(s.indexOf(CONTENTS_MARK) + CONTENTS_MARK.length);
        text(before);
        const byteRangeAt = pos;
        text(BYTE_RANGE_PLACEHOLDER);
        text(between);
        const contentsStart = pos;
        text(`<${'0'.repeat(this.sigReserve * 2)}>`);
        slot = {
          contentsStart,
          contentsEnd: pos,
          byteRangeAt,
          byteRangeWidth: BYTE_RANGE_PLACEHOLDER.length,
        };
        text(after);
      } else for (const c of o.chunks) push(c);
      text('\nendobj\n');
    }
    const size = this.next;
    const trailerEntries: Record<string, PdfObject | undefined> = {
      Size: size,
      Root: base.trailer.v.get('Root'),
      Info: isRef(base.trailer.v.get('Info')) ? base.trailer.v.get('Info') : undefined,
      Encrypt: base.crypt ? base.trailer.v.get('Encrypt') : undefined,
      // A file without /ID gets one: viewers and later updates expect it (ISO 32000-2 14.4).
      ID: base.trailer.v.get('ID') ?? arr(bytesString(randomBytes(16)), bytesString(randomBytes(16))),
      Prev: base.xrefOffset,
    };
    const xrefAt = pos;
    if (base.usesXrefStream) {
      const xrefNum = this.next;
      offsets.set(xrefNum, { offset: xrefAt, gen: 0 });
      const nums = [...offsets.keys()].sort((a, b) => a - b);
      const index: number[] = [];
      const rows: number[] = [];
      for (const n of nums) {
        if (index.length > 0 && index[index.length - 2] + index[index.length - 1] === n)
          index[index.length - 1]++;
        else index.push(n, 1);
        const { offset, gen } = offsets.get(n)!;
        rows.push(
          1,
          (offset >>> 24) & 255,
          (offset >>> 16) & 255,
          (offset >>> 8) & 255,
          offset & 255,
          gen & 255,
        );
      }
      const data = deflateSync(new Uint8Array(rows));
      const xd = dict({
        Type: name('XRef'),
        ...trailerEntries,
        Size: xrefNum + 1,
        Index: arr(...index),
        W: arr(1, 4, 1),
        Filter: name('FlateDecode'),
        Length: data.length,
      });
      text(`${xrefNum} 0 obj\n${serialize(xd)}\nstream\n`);
      push(data);
      text('\nendstream\nendobj\n');
    } else {
      const nums = [...offsets.keys()].sort((a, b) => a - b);
      let s = 'xref\n';
      for (let i = 0; i < nums.length; ) {
        let j = i;
        while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
        s += `${nums[i]} ${j - i + 1}\n`;
        for (let k = i; k <= j; k++) {
          const { offset, gen } = offsets.get(nums[k])!;
          s += `${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} n\r\n`;
        }
        i = j + 1;
      }
      s += `trailer\n${serialize(dict(trailerEntries))}\n`;
      text(s);
    }
    text(`startxref\n${xrefAt}\n%%EOF\n`);
    const out = new Uint8Array(pos);
    out.set(input, 0);
    let p = input.length;
    for (const b of parts) {
      out.set(b, p);
      p += b.length;
    }
    return { bytes: out, slot };
  }
}

/**
 * Writes the real /ByteRange into the slot: everything except the /Contents hex string, delimiters
 * included. Returns the byte range.
 */
function patchByteRange(out: Uint8Array, slot: SignatureSlot): [number, number, number, number] {
  const range: [number, number, number, number] = [
    0,
    slot.contentsStart,
    slot.contentsEnd,
    out.length - slot.contentsEnd,
  ];
  const s = `[${range.join(' ')}]`.padEnd(slot.byteRangeWidth, ' ');
  if (s.length > slot.byteRangeWidth) throw new Error('byte range does not fit its placeholder');
  out.set(Buffer.from(s, 'latin1'), slot.byteRangeAt);
  return range;
}

/** Writes the DER into /Contents as hex; returns false when it does not fit. */
function patchContents(out: Uint8Array, slot: SignatureSlot, der: Uint8Array): boolean {
  const room = (slot.contentsEnd - slot.contentsStart - 2) / 2;
  if (der.length > room) return false;
  out.set(Buffer.from(Buffer.from(der).toString('hex').toUpperCase(), 'latin1'), slot.contentsStart + 1);
  return true;
}

/**
 * Lays out a signed update: finish, patch /ByteRange, hash the covered bytes, and write what
 * `contents(digest)` returns into /Contents. When that does not fit the reserve, the update is laid out
 * again with room for it (a second call of `contents`; the output is still one update).
 */
export async function finishSigned(
  update: IncrementalUpdate,
  contents: (sha256: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { bytes, slot } = update.finish();
    if (!slot) throw new Error('the update has no signature');
    const range = patchByteRange(bytes, slot);
    const h = createHash('sha256');
    h.update(bytes.subarray(range[0], range[1]));
    h.update(bytes.subarray(range[2], range[2] + range[3]));
    const der = await contents(new Uint8Array(h.digest()));
    if (patchContents(bytes, slot, der)) return bytes;
    update.sigReserve = der.length + 2048;
  }
  throw new SignError(SignErrorCode.ContentsTooLarge);
}
