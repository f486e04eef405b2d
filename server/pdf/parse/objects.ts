/**
 * Low-level PDF object model and a tolerant tokenizer/parser over raw bytes.
 *
 * Everything here works on byte offsets of the original file, so callers can check where an object or
 * a string sits (signature verification needs the exact position of `/Contents`). The parser never
 * recurses deeper than MAX_DEPTH and never reads past the end of the buffer; on malformed input it
 * throws PdfSyntaxError, which callers catch.
 */

export type PdfName = { readonly t: 'name'; readonly v: string };
export type PdfString = {
  readonly t: 'str';
  readonly v: Uint8Array;
  readonly hex: boolean;
  /** offset of the opening delimiter */
  readonly start: number;
  /** offset just after the closing delimiter */
  readonly end: number;
};
export type PdfArray = { readonly t: 'arr'; readonly v: PdfObject[] };
export type PdfDict = {
  readonly t: 'dict';
  readonly v: Map<string, PdfObject>;
  readonly start: number;
  readonly end: number;
  /**
   * Keys that occurred more than once in this dictionary (absent when none did). The value kept is the
   * LAST occurrence, as poppler, qpdf and pdf.js keep it; the verifier treats duplicates written after a
   * signature as a reader differential (verify/revisions.ts).
   */
  readonly dups?: readonly string[];
};
export type PdfRef = { readonly t: 'ref'; readonly num: number; readonly gen: number };
export type PdfStream = {
  readonly t: 'stream';
  readonly dict: PdfDict;
  readonly dataStart: number;
  readonly dataEnd: number;
  readonly raw: Uint8Array;
};
export type PdfObject =
  | null
  | boolean
  | number
  | PdfName
  | PdfString
  | PdfArray
  | PdfDict
  | PdfRef
  | PdfStream;

export class PdfSyntaxError extends Error {
  override name = 'PdfSyntaxError';
}

const MAX_DEPTH = 64;
/** Bounds the number of elements one array or dictionary may hold, so a hostile file cannot exhaust memory. */
const MAX_ELEMENTS = 200_000;

const WS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WS[c] = 1;
/** hex digit values, -1 for anything else (a table: /Contents strings run to tens of kilobytes) */
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[0x41 + c] = 10 + c;
  HEX[0x61 + c] = 10 + c;
}
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

function isRegular(c: number): boolean {
  return WS[c] !== 1 && DELIM[c] !== 1;
}

export function isName(o: PdfObject | undefined, name?: string): o is PdfName {
  return typeof o === 'object' && o !== null && o.t === 'name' && (name === undefined || o.v === name);
}
export function isDict(o: PdfObject | undefined): o is PdfDict {
  return typeof o === 'object' && o !== null && o.t === 'dict';
}
export function isArray(o: PdfObject | undefined): o is PdfArray {
  return typeof o === 'object' && o !== null && o.t === 'arr';
}
export function isRef(o: PdfObject | undefined): o is PdfRef {
  return typeof o === 'object' && o !== null && o.t === 'ref';
}
export function isStream(o: PdfObject | undefined): o is PdfStream {
  return typeof o === 'object' && o !== null && o.t === 'stream';
}
export function isString(o: PdfObject | undefined): o is PdfString {
  return typeof o === 'object' && o !== null && o.t === 'str';
}

/** Decodes a PDF text string (UTF-16BE with BOM, UTF-8 with BOM, else PDFDocEncoding approximated by Latin-1). */
export function textOf(o: PdfObject | undefined): string | undefined {
  if (!isString(o)) return isName(o) ? o.v : undefined;
  const b = o.v;
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff)
    return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)
    return new TextDecoder('utf-8').decode(b.subarray(3));
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
}

export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  const e = Math.min(end, bytes.length);
  for (let i = Math.max(0, start); i < e; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Finds `needle` (ASCII) in bytes[from, until), or -1. */
export function indexOf(bytes: Uint8Array, needle: string, from = 0, until = bytes.length): number {
  const n = needle.length;
  const start = Math.max(0, from);
  const end = Math.min(until, bytes.length);
  if (n === 0 || end - start < n) return -1;
  if (end - start > 64) {
    // whole-file scans (startxref, /ByteRange, endstream, long hex strings): the native search is
    // many times faster than a byte loop
    const i = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).indexOf(needle, 0, 'latin1');
    return i < 0 ? -1 : start + i;
  }
  const first = needle.charCodeAt(0);
  const last = end - n;
  outer: for (let i = start; i <= last; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < n; j++) if (bytes[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

export function lastIndexOf(bytes: Uint8Array, needle: string, before = bytes.length, after = 0): number {
  const n = needle.length;
  for (let i = Math.min(before, bytes.length) - n; i >= after; i--) {
    let ok = true;
    for (let j = 0; j < n; j++)
      if (bytes[i + j] !== needle.charCodeAt(j)) {
        ok = false;
        break;
      }
    if (ok) return i;
  }
  return -1;
}

/**
 * A cursor over PDF bytes. `limit` lets object-stream content be parsed inside a sub-range.
 */
export class Lexer {
  readonly bytes: Uint8Array;
  pos: number;
  readonly limit: number;
  /** keys found twice in any dictionary this lexer parsed (undefined until one is) */
  duplicateKeys: string[] | undefined;

  constructor(bytes: Uint8Array, pos = 0, limit = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.limit = Math.min(limit, bytes.length);
  }

  skipWs(): void {
    const b = this.bytes;
    while (this.pos < this.limit) {
      const c = b[this.pos];
      if (WS[c] === 1) this.pos++;
      else if (c === 0x25) {
        // comment up to end of line
        while (this.pos < this.limit && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
      } else break;
    }
  }

  /** Reads a bare regular-character run (number or keyword). */
  private regular(): string {
    const b = this.bytes;
    const s = this.pos;
    while (this.pos < this.limit && isRegular(b[this.pos])) this.pos++;
    return latin1(b, s, this.pos);
  }

  peekKeyword(): string | null {
    const save = this.pos;
    this.skipWs();
    const c = this.bytes[this.pos];
    if (this.pos >= this.limit || !isRegular(c)) {
      this.pos = save;
      return null;
    }
    const w = this.regular();
    this.pos = save;
    return w;
  }

  /** Reads an unsigned integer token at the cursor, or null (cursor restored). */
  readInt(): number | null {
    const save = this.pos;
    this.skipWs();
    const s = this.pos;
    while (this.pos < this.limit && this.bytes[this.pos] >= 0x30 && this.bytes[this.pos] <= 0x39) this.pos++;
    if (this.pos === s || this.pos - s > 15 || (this.pos < this.limit && isRegular(this.bytes[this.pos]))) {
      this.pos = save;
      return null;
    }
    return Number(latin1(this.bytes, s, this.pos));
  }

  expectKeyword(kw: string): boolean {
    const save = this.pos;
    this.skipWs();
    const w = this.regular();
    if (w === kw) return true;
    this.pos = save;
    return false;
  }

  /** Parses one direct object (refs `n g R` recognised). Keywords other than true/false/null are errors. */
  parseObject(depth = 0): PdfObject {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError('nesting too deep');
    this.skipWs();
    if (this.pos >= this.limit) throw new PdfSyntaxError('unexpected end of data');
    const b = this.bytes;
    const c = b[this.pos];
    if (c === 0x2f) return this.parseName();
    if (c === 0x28) return this.parseLiteralString();
    if (c === 0x3c) {
      if (b[this.pos + 1] === 0x3c) return this.parseDict(depth);
      return this.parseHexString();
    }
    if (c === 0x5b) {
      this.pos++;
      const arr: PdfObject[] = [];
      for (;;) {
        this.skipWs();
        if (this.pos >= this.limit) throw new PdfSyntaxError('unterminated array');
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return { t: 'arr', v: arr };
        }
        if (arr.length > MAX_ELEMENTS) throw new PdfSyntaxError('array too large');
        arr.push(this.parseObject(depth + 1));
      }
    }
    if (isRegular(c)) {
      const start = this.pos;
      const w = this.regular();
      if (w === 'true') return true;
      if (w === 'false') return false;
      if (w === 'null') return null;
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(w)) {
        // integer: maybe an indirect reference "n g R"
        if (/^\d+$/.test(w)) {
          const save = this.pos;
          const gen = this.readInt();
          if (gen !== null && this.expectKeyword('R')) return { t: 'ref', num: Number(w), gen };
          this.pos = save;
        }
        return Number(w);
      }
      this.pos = start;
      throw new PdfSyntaxError(`unexpected keyword ${w.slice(0, 20)}`);
    }
    throw new PdfSyntaxError(`unexpected byte ${c}`);
  }

  private parseName(): PdfName {
    const b = this.bytes;
    this.pos++; // '/'
    let s = '';
    while (this.pos < this.limit && isRegular(b[this.pos])) {
      const c = b[this.pos];
      if (c === 0x23 && this.pos + 2 < this.limit) {
        const h = latin1(b, this.pos + 1, this.pos + 3);
        if (/^[0-9a-fA-F]{2}$/.test(h)) {
          s += String.fromCharCode(Number.parseInt(h, 16));
          this.pos += 3;
          continue;
        }
      }
      s += String.fromCharCode(c);
      this.pos++;
    }
    return { t: 'name', v: s };
  }

  private parseLiteralString(): PdfString {
    const b = this.bytes;
    const start = this.pos;
    this.pos++;
    const out: number[] = [];
    let nest = 1;
    while (this.pos < this.limit) {
      const c = b[this.pos++];
      if (c === 0x5c) {
        if (this.pos >= this.limit) break;
        const e = b[this.pos++];
        switch (e) {
          case 0x6e:
            out.push(10);
            break;
          case 0x72:
            out.push(13);
            break;
          case 0x74:
            out.push(9);
            break;
          case 0x62:
            out.push(8);
            break;
          case 0x66:
            out.push(12);
            break;
          case 0x0d:
            if (b[this.pos] === 0x0a) this.pos++;
            break;
          case 0x0a:
            break;
          default:
            if (e >= 0x30 && e <= 0x37) {
              let v = e - 0x30;
              for (let k = 0; k < 2 && b[this.pos] >= 0x30 && b[this.pos] <= 0x37; k++)
                v = v * 8 + (b[this.pos++] - 0x30);
              out.push(v & 0xff);
            } else out.push(e);
        }
      } else if (c === 0x28) {
        nest++;
        out.push(c);
      } else if (c === 0x29) {
        nest--;
        if (nest === 0) return { t: 'str', v: Uint8Array.from(out), hex: false, start, end: this.pos };
        out.push(c);
      } else out.push(c);
    }
    throw new PdfSyntaxError('unterminated string');
  }

  private parseHexString(): PdfString {
    const b = this.bytes;
    const start = this.pos;
    this.pos++;
    const end = indexOf(b, '>', this.pos, this.limit);
    if (end < 0) throw new PdfSyntaxError('unterminated hex string');
    const out = new Uint8Array(Math.ceil((end - this.pos) / 2));
    let n = 0;
    let hi = -1;
    for (let i = this.pos; i < end; i++) {
      const c = b[i];
      const v = HEX[c];
      if (v < 0) {
        if (WS[c] === 1) continue;
        throw new PdfSyntaxError('bad hex digit');
      }
      if (hi < 0) hi = v;
      else {
        out[n++] = (hi << 4) | v;
        hi = -1;
      }
    }
    if (hi >= 0) out[n++] = hi << 4;
    this.pos = end + 1;
    return { t: 'str', v: out.subarray(0, n), hex: true, start, end: this.pos };
  }

  private parseDict(depth: number): PdfDict {
    const b = this.bytes;
    const start = this.pos;
    this.pos += 2;
    const map = new Map<string, PdfObject>();
    let dups: string[] | undefined;
    for (;;) {
      this.skipWs();
      if (this.pos >= this.limit) throw new PdfSyntaxError('unterminated dictionary');
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return dups
          ? { t: 'dict', v: map, start, end: this.pos, dups }
          : { t: 'dict', v: map, start, end: this.pos };
      }
      if (b[this.pos] !== 0x2f) throw new PdfSyntaxError('dictionary key is not a name');
      if (map.size > MAX_ELEMENTS) throw new PdfSyntaxError('dictionary too large');
      const key = this.parseName().v;
      const val = this.parseObject(depth + 1);
      // Duplicate keys: the LAST one wins, as in poppler, qpdf and pdf.js (a reader that kept the first
      // would see another page than the viewer shows); the duplicate is recorded.
      if (map.has(key)) {
        dups ??= [];
        dups.push(key);
        this.duplicateKeys ??= [];
        this.duplicateKeys.push(key);
      }
      map.set(key, val);
    }
  }
}

export type IndirectObject = {
  num: number;
  gen: number;
  obj: PdfObject;
  start: number;
  end: number;
  /** keys found twice in a dictionary anywhere in the object (its own, a stream's, a nested one) */
  duplicateKeys?: readonly string[];
};

/**
 * Parses `num gen obj ... endobj` at `offset`. Stream lengths are resolved through `resolveLength`
 * (for indirect /Length); when /Length is wrong the data runs to the next `endstream`.
 */
export function parseIndirectAt(
  bytes: Uint8Array,
  offset: number,
  resolveLength: (ref: PdfRef) => number | undefined,
): IndirectObject {
  const lx = new Lexer(bytes, offset);
  const num = lx.readInt();
  const gen = lx.readInt();
  if (num === null || gen === null || !lx.expectKeyword('obj'))
    throw new PdfSyntaxError(`no object at ${offset}`);
  lx.skipWs();
  const obj = lx.parseObject();
  if (isDict(obj) && lx.peekKeyword() === 'stream') {
    lx.expectKeyword('stream');
    let p = lx.pos;
    if (bytes[p] === 0x0d) p++;
    if (bytes[p] === 0x0a) p++;
    const dataStart = p;
    let len = obj.v.get('Length');
    if (isRef(len)) len = resolveLength(len);
    let dataEnd = -1;
    if (typeof len === 'number' && Number.isInteger(len) && len >= 0 && dataStart + len <= bytes.length) {
      const after = new Lexer(bytes, dataStart + len);
      if (after.expectKeyword('endstream')) dataEnd = dataStart + len;
    }
    if (dataEnd < 0) {
      const es = indexOf(bytes, 'endstream', dataStart);
      if (es < 0) throw new PdfSyntaxError('unterminated stream');
      dataEnd = es;
      if (bytes[dataEnd - 1] === 0x0a) dataEnd--;
      if (bytes[dataEnd - 1] === 0x0d) dataEnd--;
      if (dataEnd < dataStart) dataEnd = dataStart;
    }
    const stream: PdfStream = {
      t: 'stream',
      dict: obj,
      dataStart,
      dataEnd,
      raw: bytes.subarray(dataStart, dataEnd),
    };
    const tail = new Lexer(bytes, dataEnd);
    tail.expectKeyword('endstream');
    tail.expectKeyword('endobj');
    return withDuplicates({ num, gen, obj: stream, start: offset, end: tail.pos }, lx);
  }
  lx.expectKeyword('endobj');
  return withDuplicates({ num, gen, obj, start: offset, end: lx.pos }, lx);
}

function withDuplicates(io: IndirectObject, lx: Lexer): IndirectObject {
  return lx.duplicateKeys ? { ...io, duplicateKeys: lx.duplicateKeys } : io;
}

/** Keys found twice in any dictionary inside `o` (walked to MAX_DEPTH), for objects parsed elsewhere. */
export function duplicateKeysIn(o: PdfObject | undefined, depth = 0): string[] {
  if (o === null || typeof o !== 'object' || depth > MAX_DEPTH) return [];
  if (o.t === 'stream') return duplicateKeysIn(o.dict, depth + 1);
  if (o.t === 'arr') return o.v.flatMap((x) => duplicateKeysIn(x, depth + 1));
  if (o.t !== 'dict') return [];
  const out = [...(o.dups ?? [])];
  for (const x of o.v.values())
    if (x !== null && typeof x === 'object' && (x.t === 'dict' || x.t === 'arr'))
      out.push(...duplicateKeysIn(x, depth + 1));
  return out;
}

/**
 * Two objects read the same (offsets aside): the same type and value, dictionaries with the same keys,
 * streams with the same dictionary and the same raw data. Bounded by MAX_DEPTH (deeper counts as unequal).
 */
export function sameObject(a: PdfObject | undefined, b: PdfObject | undefined, depth = 0): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a.t !== b.t || depth > MAX_DEPTH) return false;
  switch (a.t) {
    case 'name':
      return a.v === (b as PdfName).v;
    case 'ref':
      return a.num === (b as PdfRef).num && a.gen === (b as PdfRef).gen;
    case 'str':
      return Buffer.from(a.v).equals((b as PdfString).v);
    case 'arr': {
      const y = (b as PdfArray).v;
      return a.v.length === y.length && a.v.every((x, i) => sameObject(x, y[i], depth + 1));
    }
    case 'dict': {
      const y = (b as PdfDict).v;
      if (a.v.size !== y.size) return false;
      for (const [k, x] of a.v) if (!y.has(k) || !sameObject(x, y.get(k), depth + 1)) return false;
      return true;
    }
    case 'stream': {
      const y = b as PdfStream;
      return sameObject(a.dict, y.dict, depth + 1) && Buffer.from(a.raw).equals(y.raw);
    }
  }
}
