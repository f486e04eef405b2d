/**
 * A PDF file seen as its sequence of incremental revisions, each with its own object table.
 *
 * A revision ends at a `startxref N %%EOF` whose N points at a readable cross-reference section (table
 * or stream). The object table of revision k is what a reader of the first `end_k` bytes would see: the
 * section named by that startxref merged with its /Prev chain (and hybrid /XRefStm). This is what
 * signature verification needs and what general-purpose PDF libraries do not expose.
 */
import { decodeStreamData } from './filters.ts';
import {
  type IndirectObject,
  indexOf,
  isArray,
  isDict,
  isName,
  isRef,
  isStream,
  Lexer,
  latin1,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  type PdfStream,
  PdfSyntaxError,
  parseIndirectAt,
} from './objects.ts';

export type XrefEntry =
  | { type: 0 }
  | { type: 1; offset: number; gen: number }
  | { type: 2; objStm: number; index: number };

export type XrefSection = {
  offset: number;
  isStream: boolean;
  entries: Map<number, XrefEntry>;
  trailer: PdfDict;
};

export type Revision = {
  index: number;
  /** offset of the `startxref` keyword that closes this revision */
  startxrefPos: number;
  /** offset just after `%%EOF` (and its end-of-line marker, if any) */
  end: number;
  /** offset just after `%%EOF`, without any end-of-line marker */
  eofEnd: number;
  xrefOffset: number;
  /** entries of this revision's own section(s): what this update wrote */
  own: Map<number, XrefEntry>;
  /** merged table as seen by a reader of the first `end` bytes */
  table: Map<number, XrefEntry>;
  trailer: PdfDict;
  /** true when the table was rebuilt by scanning for `n g obj` because no xref was readable */
  reconstructed: boolean;
};

export class PdfParseError extends Error {
  override name = 'PdfParseError';
}

/** Throws when called after the deadline; long loops call it so one file cannot hold the process. */
export type Deadline = () => void;
const noDeadline: Deadline = () => {};

const MAX_SECTIONS = 2000;
const MAX_REVISIONS = 1000;
const MAX_XREF_ENTRIES = 5_000_000;

function intOf(o: PdfObject | undefined): number | undefined {
  return typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;
}

export class PdfFile {
  readonly bytes: Uint8Array;
  readonly revisions: Revision[];
  private readonly deadline: Deadline;
  private readonly objCache = new Map<number, IndirectObject | null>();
  private readonly objStmCache = new Map<
    string,
    { data: Uint8Array; offsets: Map<number, number>; first: number } | null
  >();
  private readonly sectionCache = new Map<number, XrefSection | null>();

  constructor(bytes: Uint8Array, deadline: Deadline = noDeadline) {
    this.bytes = bytes;
    this.deadline = deadline;
    this.revisions = this.findRevisions();
  }

  get latest(): Revision {
    return this.revisions[this.revisions.length - 1];
  }

  /** The raw object at a given entry, or undefined when absent/unreadable. */
  entryObject(rev: Revision, num: number): IndirectObject | undefined {
    const e = rev.table.get(num);
    if (!e || e.type === 0) return undefined;
    if (e.type === 1) return this.objectAt(e.offset, rev, num) ?? undefined;
    return this.fromObjStm(rev, e.objStm, e.index, num);
  }

  /** Resolves a reference (or passes a direct object through) in the given revision. */
  resolve(rev: Revision, o: PdfObject | undefined): PdfObject | undefined {
    let cur = o;
    for (let i = 0; i < 32 && isRef(cur); i++) {
      const io = this.entryObject(rev, cur.num);
      cur = io ? io.obj : null;
    }
    return isRef(cur) ? null : cur;
  }

  get(rev: Revision, dict: PdfDict | PdfStream | undefined, key: string): PdfObject | undefined {
    if (!dict) return undefined;
    const d = dict.t === 'stream' ? dict.dict : dict;
    return this.resolve(rev, d.v.get(key));
  }

  getDict(rev: Revision, dict: PdfDict | PdfStream | undefined, key: string): PdfDict | undefined {
    const v = this.get(rev, dict, key);
    if (isDict(v)) return v;
    if (isStream(v)) return v.dict;
    return undefined;
  }

  catalog(rev: Revision): PdfDict | undefined {
    const root = this.resolve(rev, rev.trailer.v.get('Root'));
    return isDict(root) ? root : undefined;
  }

  /** Decoded stream data, or undefined when the filter is unsupported or broken. */
  streamData(s: PdfStream): Uint8Array | undefined {
    try {
      const { data, decoded } = decodeStreamData(s.dict, s.raw);
      return decoded ? data : undefined;
    } catch {
      return undefined;
    }
  }

  private objectAt(offset: number, rev: Revision, expectNum?: number): IndirectObject | null {
    if (!this.objCache.has(offset)) {
      this.deadline();
      let io: IndirectObject | null = null;
      if (offset >= 0 && offset < this.bytes.length) {
        try {
          io = parseIndirectAt(this.bytes, offset, (ref) => this.lengthOf(rev, ref));
        } catch {
          io = null;
        }
      }
      this.objCache.set(offset, io);
    }
    const io = this.objCache.get(offset) ?? null;
    if (io && expectNum !== undefined && io.num !== expectNum) return null;
    return io;
  }

  private lengthDepth = 0;
  private lengthOf(rev: Revision, ref: PdfRef): number | undefined {
    if (this.lengthDepth > 4) return undefined;
    this.lengthDepth++;
    try {
      const v = this.resolve(rev, ref);
      return typeof v === 'number' ? v : undefined;
    } finally {
      this.lengthDepth--;
    }
  }

  private objStmDepth = 0;
  private fromObjStm(rev: Revision, stmNum: number, index: number, num: number): IndirectObject | undefined {
    const e = rev.table.get(stmNum);
    if (e?.type !== 1) return undefined;
    const key = `${e.offset}`;
    if (!this.objStmCache.has(key)) {
      if (this.objStmDepth > 2) return undefined;
      this.objStmDepth++;
      try {
        this.objStmCache.set(key, this.loadObjStm(rev, e.offset, stmNum));
      } finally {
        this.objStmDepth--;
      }
    }
    const stm = this.objStmCache.get(key);
    if (!stm) return undefined;
    const rel = stm.offsets.get(num);
    if (rel === undefined) return undefined;
    try {
      const lx = new Lexer(stm.data, stm.first + rel);
      const obj = lx.parseObject();
      // index is informative; the number/offset table is authoritative
      void index;
      return { num, gen: 0, obj, start: -1, end: -1 };
    } catch {
      return undefined;
    }
  }

  private loadObjStm(rev: Revision, offset: number, stmNum: number) {
    const io = this.objectAt(offset, rev, stmNum);
    if (!io || !isStream(io.obj)) return null;
    const data = this.streamData(io.obj);
    if (!data) return null;
    const n = intOf(io.obj.dict.v.get('N')) ?? 0;
    const first = intOf(io.obj.dict.v.get('First')) ?? 0;
    const lx = new Lexer(data, 0, Math.min(first, data.length));
    const offsets = new Map<number, number>();
    for (let i = 0; i < n && i < 1_000_000; i++) {
      const on = lx.readInt();
      const oo = lx.readInt();
      if (on === null || oo === null) break;
      if (!offsets.has(on)) offsets.set(on, oo);
    }
    return { data, offsets, first };
  }

  // ---- cross-reference sections -------------------------------------------------------------

  private readSection(offset: number): XrefSection | null {
    if (this.sectionCache.has(offset)) return this.sectionCache.get(offset) ?? null;
    this.deadline();
    let s: XrefSection | null = null;
    try {
      s = this.parseSection(offset);
    } catch {
      s = null;
    }
    this.sectionCache.set(offset, s);
    return s;
  }

  private parseSection(offset: number): XrefSection | null {
    const b = this.bytes;
    if (offset < 0 || offset >= b.length) return null;
    const lx = new Lexer(b, offset);
    if (lx.expectKeyword('xref')) {
      const entries = new Map<number, XrefEntry>();
      let total = 0;
      for (;;) {
        const kw = lx.peekKeyword();
        if (kw === 'trailer') break;
        const start = lx.readInt();
        const count = lx.readInt();
        if (start === null || count === null) return null;
        for (let i = 0; i < count; i++) {
          if (++total > MAX_XREF_ENTRIES) return null;
          if ((i & 0xfff) === 0) this.deadline();
          const off = lx.readInt();
          const gen = lx.readInt();
          if (off === null || gen === null) return null;
          const t = lx.peekKeyword();
          if (t !== 'n' && t !== 'f') return null;
          lx.expectKeyword(t);
          const num = start + i;
          if (!entries.has(num)) entries.set(num, t === 'n' ? { type: 1, offset: off, gen } : { type: 0 });
        }
      }
      lx.expectKeyword('trailer');
      const trailer = lx.parseObject();
      if (!isDict(trailer)) return null;
      return { offset, isStream: false, entries, trailer };
    }
    // cross-reference stream
    const io = parseIndirectAt(b, offset, () => undefined);
    if (!isStream(io.obj) || !isName(io.obj.dict.v.get('Type'), 'XRef')) return null;
    const dict = io.obj.dict;
    const { data, decoded } = decodeStreamData(dict, io.obj.raw);
    if (!decoded) return null;
    const w = dict.v.get('W');
    if (!isArray(w) || w.v.length < 3) return null;
    const ws = w.v.slice(0, 3).map((x) => intOf(x) ?? -1);
    if (ws.some((x) => x < 0 || x > 8)) return null;
    const size = intOf(dict.v.get('Size')) ?? 0;
    const idx = dict.v.get('Index');
    const ranges: number[] = isArray(idx) ? idx.v.map((x) => intOf(x) ?? 0) : [0, size];
    const rowLen = ws[0] + ws[1] + ws[2];
    if (rowLen === 0) return null;
    const entries = new Map<number, XrefEntry>();
    let p = 0;
    const field = (len: number, dflt: number) => {
      if (len === 0) return dflt;
      let v = 0;
      for (let k = 0; k < len; k++) v = v * 256 + data[p++];
      return v;
    };
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      const start = ranges[r];
      const count = ranges[r + 1];
      for (let i = 0; i < count; i++) {
        if (p + rowLen > data.length || entries.size > MAX_XREF_ENTRIES) break;
        if ((i & 0xfff) === 0) this.deadline();
        const type = field(ws[0], 1);
        const f2 = field(ws[1], 0);
        const f3 = field(ws[2], 0);
        const num = start + i;
        if (entries.has(num)) continue;
        if (type === 1) entries.set(num, { type: 1, offset: f2, gen: f3 });
        else if (type === 2) entries.set(num, { type: 2, objStm: f2, index: f3 });
        else if (type === 0) entries.set(num, { type: 0 });
      }
    }
    return { offset, isStream: true, entries, trailer: dict };
  }

  /** Merges a section with its /Prev chain (older entries never override newer ones). */
  private mergedTable(
    start: XrefSection,
    limit: number,
  ): { own: Map<number, XrefEntry>; table: Map<number, XrefEntry> } {
    const table = new Map<number, XrefEntry>();
    const own = new Map<number, XrefEntry>();
    const visited = new Set<number>();
    const queue: { s: XrefSection; isOwn: boolean }[] = [{ s: start, isOwn: true }];
    let count = 0;
    while (queue.length > 0 && count++ < MAX_SECTIONS) {
      const { s, isOwn } = queue.shift()!;
      if (visited.has(s.offset)) continue;
      visited.add(s.offset);
      // hybrid file: the XRefStm entries belong to the same update and take precedence over older ones
      const hy = intOf(s.trailer.v.get('XRefStm'));
      const hybrid = hy !== undefined && hy < limit && !visited.has(hy) ? this.readSection(hy) : null;
      for (const [n, e] of s.entries) {
        if (!table.has(n)) table.set(n, e);
        if (isOwn && !own.has(n)) own.set(n, e);
      }
      if (hybrid) {
        visited.add(hybrid.offset);
        for (const [n, e] of hybrid.entries) {
          if (!table.has(n) || (table.get(n)?.type === 0 && isOwn)) table.set(n, e);
          if (isOwn && !own.has(n)) own.set(n, e);
        }
      }
      const prev = intOf(s.trailer.v.get('Prev'));
      if (prev !== undefined && prev < limit) {
        const ps = this.readSection(prev);
        if (ps) queue.push({ s: ps, isOwn: false });
      }
    }
    return { own, table };
  }

  private findRevisions(): Revision[] {
    const b = this.bytes;
    const revs: Revision[] = [];
    let from = 0;
    let guard = 0;
    while (guard++ < 100_000 && revs.length < MAX_REVISIONS) {
      const sx = indexOf(b, 'startxref', from);
      if (sx < 0) break;
      from = sx + 9;
      const lx = new Lexer(b, sx + 9);
      const xo = lx.readInt();
      if (xo === null) continue;
      // not Lexer.skipWs: it would take %%EOF for a comment
      let q = lx.pos;
      while (
        q < b.length &&
        q < lx.pos + 64 &&
        (b[q] === 0x20 || b[q] === 0x0d || b[q] === 0x0a || b[q] === 0x09 || b[q] === 0x00)
      )
        q++;
      const eof = indexOf(b, '%%EOF', q, q + 5);
      if (eof < 0) continue;
      const eofEnd = eof + 5;
      let end = eofEnd;
      if (b[end] === 0x0d) end++;
      if (b[end] === 0x0a) end++;
      if (xo >= sx) continue;
      const section = this.readSection(xo);
      if (!section) continue;
      const { own, table } = this.mergedTable(section, sx);
      revs.push({
        index: revs.length,
        startxrefPos: sx,
        end,
        eofEnd,
        xrefOffset: xo,
        own,
        table,
        trailer: section.trailer,
        reconstructed: false,
      });
      from = eofEnd;
    }
    // Linearized files: the first-page section is not an update of its own; drop revisions whose
    // table lacks a catalog (nothing a viewer could show).
    const usable = revs.filter((r) => r.trailer.v.has('Root') || r.trailer.v.has('Prev'));
    if (usable.length > 0) {
      usable.forEach((r, i) => {
        r.index = i;
      });
      return usable;
    }
    const rebuilt = this.reconstruct();
    if (!rebuilt) throw new PdfParseError('no readable cross-reference section or objects');
    return [rebuilt];
  }

  /** Viewer-style repair: scan for `n g obj` and a trailer (or an XRef stream with /Root). */
  private reconstruct(): Revision | null {
    const b = this.bytes;
    const table = new Map<number, XrefEntry>();
    let from = 0;
    let trailer: PdfDict | undefined;
    let guard = 0;
    while (guard++ < 2_000_000) {
      const o = indexOf(b, 'obj', from);
      if (o < 0) break;
      from = o + 3;
      if ((guard & 0x3ff) === 0) this.deadline();
      // walk back over "num gen "
      let p = o - 1;
      while (p >= 0 && (b[p] === 0x20 || b[p] === 0x0d || b[p] === 0x0a)) p--;
      const genEnd = p + 1;
      while (p >= 0 && b[p] >= 0x30 && b[p] <= 0x39) p--;
      const genStart = p + 1;
      while (p >= 0 && (b[p] === 0x20 || b[p] === 0x0d || b[p] === 0x0a)) p--;
      const numEnd = p + 1;
      while (p >= 0 && b[p] >= 0x30 && b[p] <= 0x39) p--;
      const numStart = p + 1;
      if (genStart === genEnd || numStart === numEnd || numEnd - numStart > 10) continue;
      const num = Number(latin1(b, numStart, numEnd));
      const gen = Number(latin1(b, genStart, genEnd));
      table.set(num, { type: 1, offset: numStart, gen });
    }
    let t = 0;
    guard = 0;
    while (guard++ < 100_000) {
      const tp = indexOf(b, 'trailer', t);
      if (tp < 0) break;
      t = tp + 7;
      try {
        const d = new Lexer(b, tp + 7).parseObject();
        if (isDict(d) && d.v.has('Root')) trailer = d;
      } catch {
        // keep looking
      }
    }
    if (table.size === 0) return null;
    const rev: Revision = {
      index: 0,
      startxrefPos: b.length,
      end: b.length,
      eofEnd: b.length,
      xrefOffset: -1,
      own: table,
      table,
      trailer: trailer ?? { t: 'dict', v: new Map(), start: -1, end: -1 },
      reconstructed: true,
    };
    if (!trailer) {
      for (const [, e] of table) {
        if (e.type !== 1) continue;
        const io = this.objectAt(e.offset, rev);
        if (
          io &&
          isStream(io.obj) &&
          isName(io.obj.dict.v.get('Type'), 'XRef') &&
          io.obj.dict.v.has('Root')
        ) {
          rev.trailer = io.obj.dict;
        }
      }
    }
    if (!rev.trailer.v.has('Root')) {
      // find a catalog directly
      for (const [n, e] of table) {
        if (e.type !== 1) continue;
        const io = this.objectAt(e.offset, rev);
        if (io && isDict(io.obj) && isName(io.obj.v.get('Type'), 'Catalog')) {
          rev.trailer = {
            t: 'dict',
            v: new Map([['Root', { t: 'ref', num: n, gen: e.gen }]]),
            start: -1,
            end: -1,
          };
          break;
        }
      }
    }
    if (!rev.trailer.v.has('Root')) return null;
    return rev;
  }
}

export { PdfSyntaxError };
