/**
 * The last revision of a PDF, read from its tail: the final `startxref`, that cross-reference section and
 * its /Prev chain (tables, streams and hybrid /XRefStm), and only the objects the signing code asks for.
 * Nothing is repaired: a file whose cross-reference data does not lead to the objects it names is refused,
 * because appending to it would either fail in viewers or require rewriting earlier (signed) bytes.
 */
import { decodeStreamData } from '../parse/filters.ts';
import {
  indexOf,
  isArray,
  isDict,
  isName,
  isRef,
  isStream,
  Lexer,
  lastIndexOf,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  type PdfStream,
  parseIndirectAt,
} from '../parse/objects.ts';
import { SignError, SignErrorCode } from './errors.ts';

type Entry =
  | { type: 0 }
  | { type: 1; offset: number; gen: number }
  | { type: 2; objStm: number; index: number };

const MAX_SECTIONS = 10_000;
const TAIL = 4096;

const intOf = (o: PdfObject | undefined) =>
  typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;

const broken = (detail: string) => new SignError(SignErrorCode.BrokenXref, detail);

export type PageInfo = {
  index: number;
  ref: PdfRef;
  dict: PdfDict;
  /** inherited MediaBox [llx lly urx ury] */
  mediaBox: [number, number, number, number];
  rotate: number;
};

export class PdfBase {
  readonly bytes: Uint8Array;
  /** offset of the last cross-reference section (the /Prev of our update) */
  readonly xrefOffset: number;
  readonly trailer: PdfDict;
  /** the last section is a cross-reference stream (write the update the same way) */
  readonly usesXrefStream: boolean;
  /** the next free object number (/Size) */
  readonly size: number;
  private readonly table = new Map<number, Entry>();
  private readonly cache = new Map<number, PdfObject>();
  private readonly objStms = new Map<
    number,
    { data: Uint8Array; first: number; offsets: Map<number, number> }
  >();

  /** Reads the tail of `bytes`; throws SignError (NotPdf, Encrypted, BrokenXref). */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    if (bytes.length < 32 || indexOf(bytes, '%PDF-', 0, 1024) < 0) throw new SignError(SignErrorCode.NotPdf);
    const sx = lastIndexOf(bytes, 'startxref', bytes.length, Math.max(0, bytes.length - TAIL));
    if (sx < 0) throw broken('no startxref at the end of the file');
    const lx = new Lexer(bytes, sx + 9);
    const xo = lx.readInt();
    if (xo === null || xo >= sx) throw broken('startxref does not point into the file');
    if (indexOf(bytes, '%%EOF', lx.pos, Math.min(bytes.length, lx.pos + 64)) < 0) throw broken('no %%EOF');
    this.xrefOffset = xo;
    const first = this.readSection(xo);
    if (!first) throw broken(`no cross-reference section at offset ${xo}`);
    this.trailer = first.trailer;
    this.usesXrefStream = first.isStream;
    if (this.trailer.v.has('Encrypt')) throw new SignError(SignErrorCode.Encrypted);
    this.mergeChain(first);
    const size = intOf(this.trailer.v.get('Size'));
    if (size === undefined) throw broken('the trailer has no /Size');
    let maxNum = 0;
    for (const [n, e] of this.table) if (e.type !== 0 && n > maxNum) maxNum = n;
    // An entry beyond /Size means the table lies about itself; numbering new objects from it would clash.
    if (maxNum >= size) throw broken(`object ${maxNum} is beyond /Size ${size}`);
    this.size = size;
    if (!isRef(this.trailer.v.get('Root'))) throw broken('the trailer has no /Root');
    if (!isDict(this.catalog())) throw broken('the catalog cannot be read');
  }

  private readSection(
    offset: number,
  ): { isStream: boolean; trailer: PdfDict; entries: Map<number, Entry> } | null {
    const b = this.bytes;
    if (offset < 0 || offset >= b.length) return null;
    try {
      const lx = new Lexer(b, offset);
      if (lx.expectKeyword('xref')) {
        const entries = new Map<number, Entry>();
        while (lx.peekKeyword() !== 'trailer') {
          const start = lx.readInt();
          const count = lx.readInt();
          if (start === null || count === null) return null;
          for (let i = 0; i < count; i++) {
            const off = lx.readInt();
            const gen = lx.readInt();
            const t = lx.peekKeyword();
            if (off === null || gen === null || (t !== 'n' && t !== 'f')) return null;
            lx.expectKeyword(t);
            if (!entries.has(start + i))
              entries.set(start + i, t === 'n' ? { type: 1, offset: off, gen } : { type: 0 });
          }
        }
        lx.expectKeyword('trailer');
        const trailer = lx.parseObject();
        return isDict(trailer) ? { isStream: false, trailer, entries } : null;
      }
      const io = parseIndirectAt(b, offset, () => undefined);
      if (!isStream(io.obj) || !isName(io.obj.dict.v.get('Type'), 'XRef')) return null;
      const dict = io.obj.dict;
      const { data, decoded } = decodeStreamData(dict, io.obj.raw);
      const w = dict.v.get('W');
      if (!decoded || !isArray(w) || w.v.length < 3) return null;
      const ws = w.v.slice(0, 3).map((x) => intOf(x) ?? -1);
      if (ws.some((x) => x < 0 || x > 8)) return null;
      const size = intOf(dict.v.get('Size')) ?? 0;
      const idx = dict.v.get('Index');
      const ranges = isArray(idx) ? idx.v.map((x) => intOf(x) ?? 0) : [0, size];
      const rowLen = ws[0] + ws[1] + ws[2];
      const entries = new Map<number, Entry>();
      let p = 0;
      const field = (len: number, dflt: number) => {
        if (len === 0) return dflt;
        let v = 0;
        for (let k = 0; k < len; k++) v = v * 256 + data[p++];
        return v;
      };
      for (let r = 0; r + 1 < ranges.length; r += 2) {
        for (let i = 0; i < ranges[r + 1]; i++) {
          if (p + rowLen > data.length) return null;
          const type = field(ws[0], 1);
          const f2 = field(ws[1], 0);
          const f3 = field(ws[2], 0);
          const num = ranges[r] + i;
          if (entries.has(num)) continue;
          if (type === 1) entries.set(num, { type: 1, offset: f2, gen: f3 });
          else if (type === 2) entries.set(num, { type: 2, objStm: f2, index: f3 });
          else if (type === 0) entries.set(num, { type: 0 });
        }
      }
      return { isStream: true, trailer: dict, entries };
    } catch {
      return null;
    }
  }

  /** Newer entries win; a hybrid section's /XRefStm entries belong to that same section. */
  private mergeChain(first: { trailer: PdfDict; entries: Map<number, Entry> }): void {
    const seen = new Set<number>([this.xrefOffset]);
    let cur: { trailer: PdfDict; entries: Map<number, Entry> } | null = first;
    for (let n = 0; cur && n < MAX_SECTIONS; n++) {
      for (const [num, e] of cur.entries) if (!this.table.has(num)) this.table.set(num, e);
      const hy = intOf(cur.trailer.v.get('XRefStm'));
      if (hy !== undefined && !seen.has(hy)) {
        seen.add(hy);
        const h = this.readSection(hy);
        if (!h) throw broken(`the /XRefStm at ${hy} cannot be read`);
        for (const [num, e] of h.entries) {
          const have = this.table.get(num);
          if (!have || (have.type === 0 && cur.entries.has(num))) this.table.set(num, e);
        }
      }
      const prev = cur.trailer.v.get('Prev');
      if (prev === undefined) break;
      const po = intOf(prev);
      if (po === undefined || seen.has(po)) throw broken('/Prev is invalid or loops');
      seen.add(po);
      cur = this.readSection(po);
      if (!cur) throw broken(`no cross-reference section at /Prev ${po}`);
    }
  }

  /** The generation number an object currently has (0 for objects in object streams). */
  genOf(num: number): number {
    const e = this.table.get(num);
    return e?.type === 1 ? e.gen : 0;
  }

  /**
   * The object `num` as the last revision defines it. A number the table lists whose bytes are not that
   * object means the table is wrong: refused rather than guessed at.
   */
  object(num: number): PdfObject {
    if (this.cache.has(num)) return this.cache.get(num) ?? null;
    const e = this.table.get(num);
    let obj: PdfObject = null;
    if (e?.type === 1) {
      let io: ReturnType<typeof parseIndirectAt>;
      try {
        io = parseIndirectAt(this.bytes, e.offset, (r) => intOf(this.resolve(r)));
      } catch {
        throw broken(`object ${num} is not at offset ${e.offset}`);
      }
      if (io.num !== num) throw broken(`offset ${e.offset} holds object ${io.num}, not ${num}`);
      obj = io.obj;
    } else if (e?.type === 2) {
      obj = this.fromObjStm(e.objStm, num);
    }
    this.cache.set(num, obj);
    return obj;
  }

  private fromObjStm(stmNum: number, num: number): PdfObject {
    let stm = this.objStms.get(stmNum);
    if (!stm) {
      const s = this.table.get(stmNum)?.type === 1 ? this.object(stmNum) : null;
      if (!isStream(s)) throw broken(`object stream ${stmNum} cannot be read`);
      const { data, decoded } = decodeStreamData(s.dict, s.raw);
      if (!decoded) throw broken(`object stream ${stmNum} cannot be decoded`);
      const n = intOf(s.dict.v.get('N')) ?? 0;
      const first = intOf(s.dict.v.get('First')) ?? 0;
      const lx = new Lexer(data, 0, Math.min(first, data.length));
      const offsets = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const on = lx.readInt();
        const oo = lx.readInt();
        if (on === null || oo === null) break;
        if (!offsets.has(on)) offsets.set(on, oo);
      }
      stm = { data, first, offsets };
      this.objStms.set(stmNum, stm);
    }
    const rel = stm.offsets.get(num);
    if (rel === undefined) throw broken(`object ${num} is not in object stream ${stmNum}`);
    try {
      return new Lexer(stm.data, stm.first + rel).parseObject();
    } catch {
      throw broken(`object ${num} in object stream ${stmNum} cannot be parsed`);
    }
  }

  resolve(o: PdfObject | undefined): PdfObject | undefined {
    let cur = o;
    for (let i = 0; i < 32 && isRef(cur); i++) cur = this.object(cur.num);
    return isRef(cur) ? undefined : cur;
  }

  dictOf(o: PdfObject | undefined): PdfDict | undefined {
    const v = this.resolve(o);
    return isDict(v) ? v : isStream(v) ? v.dict : undefined;
  }

  streamOf(o: PdfObject | undefined): PdfStream | undefined {
    const v = this.resolve(o);
    return isStream(v) ? v : undefined;
  }

  rootRef(): PdfRef {
    return this.trailer.v.get('Root') as PdfRef;
  }

  catalog(): PdfDict {
    const c = this.dictOf(this.rootRef());
    if (!c) throw broken('the catalog cannot be read');
    return c;
  }

  pageCount(): number {
    const pages = this.dictOf(this.catalog().v.get('Pages'));
    return intOf(pages?.v.get('Count')) ?? 0;
  }

  /**
   * The page at `index` (0-based), found by descending the page tree along /Count, so a 500-page document
   * costs a few object reads. Throws PageOutOfRange.
   */
  page(index: number): PageInfo {
    if (!Number.isInteger(index) || index < 0) throw new SignError(SignErrorCode.PageOutOfRange, `${index}`);
    let nodeRef = this.catalog().v.get('Pages');
    let remaining = index;
    let mediaBox: PdfObject | undefined;
    let rotate: PdfObject | undefined;
    const seen = new Set<number>();
    for (let depth = 0; depth < 64; depth++) {
      if (!isRef(nodeRef) || seen.has(nodeRef.num)) break;
      seen.add(nodeRef.num);
      const node = this.dictOf(nodeRef);
      if (!node) break;
      mediaBox = node.v.get('MediaBox') ?? mediaBox;
      rotate = node.v.get('Rotate') ?? rotate;
      if (!isName(node.v.get('Type'), 'Pages') && !node.v.has('Kids')) {
        if (remaining !== 0) break;
        const box = this.resolve(mediaBox);
        const nums = isArray(box) ? box.v.map((x) => this.resolve(x)) : [];
        const mb = (
          nums.length === 4 && nums.every((x) => typeof x === 'number') ? nums : [0, 0, 612, 792]
        ) as [number, number, number, number];
        const r = this.resolve(rotate);
        return { index, ref: nodeRef, dict: node, mediaBox: mb, rotate: typeof r === 'number' ? r : 0 };
      }
      const kids = this.resolve(node.v.get('Kids'));
      if (!isArray(kids)) break;
      let next: PdfObject | undefined;
      for (const k of kids.v) {
        const kd = this.dictOf(k);
        if (!kd) continue;
        const isLeaf = !isName(kd.v.get('Type'), 'Pages') && !kd.v.has('Kids');
        const count = isLeaf ? 1 : (intOf(this.resolve(kd.v.get('Count'))) ?? 0);
        if (remaining < count) {
          next = k;
          break;
        }
        remaining -= count;
      }
      if (next === undefined) break;
      nodeRef = next;
    }
    throw new SignError(SignErrorCode.PageOutOfRange, `page ${index + 1} of ${this.pageCount()}`);
  }
}
