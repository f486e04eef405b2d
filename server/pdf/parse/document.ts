/**
 * A PDF file seen as its sequence of incremental revisions, each with its own object table.
 *
 * A revision ends at a `startxref N %%EOF` whose N points at a readable cross-reference section (table
 * or stream). The object table of revision k is what a reader of the first `end_k` bytes would see: the
 * section named by that startxref merged with its /Prev chain (and hybrid /XRefStm). This is what
 * signature verification needs and what general-purpose PDF libraries do not expose.
 */
import { type Crypt, type EncryptionState, openEncryption } from './crypt.ts';
import { decodeStreamData } from './filters.ts';
import {
  type IndirectObject,
  indexOf,
  isArray,
  isDict,
  isRef,
  isStream,
  isString,
  Lexer,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  type PdfStream,
  parseIndirectAt,
} from './objects.ts';
import {
  type Deadline,
  intOf,
  mergeChain,
  noDeadline,
  objStmHeader,
  objStmOffsets,
  readXrefSection,
  rebuildXref,
  type XrefEntry,
  type XrefSection,
} from './xref.ts';

export type { Deadline, XrefEntry };

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
  /** why this revision's /Prev chain is incomplete, when it is (see xref.ts mergeChain) */
  chainProblem?: string;
  /** object numbers its own section(s) list twice with different entries (see xref.ts mergeChain) */
  conflicts?: number[];
};

export class PdfParseError extends Error {
  override name = 'PdfParseError';
}

const MAX_REVISIONS = 1000;
/** how far from its cross-reference offset an object is looked for (see PdfFile.drifted) */
const DRIFT = 1024;

export class PdfFile {
  readonly bytes: Uint8Array;
  readonly revisions: Revision[];
  private readonly deadline: Deadline;
  private readonly objCache = new Map<number, IndirectObject | null>();
  private readonly objStmCache = new Map<
    string,
    { data: Uint8Array; header: [number, number][]; offsets: Map<number, number>; first: number } | null
  >();
  private readonly sectionCache = new Map<number, XrefSection | null>();

  /**
   * Set when the latest trailer names an /Encrypt dictionary: opened with the empty user password (then
   * every string and stream read through this object comes decrypted), or why it cannot be.
   */
  readonly encryption: EncryptionState | undefined;
  private crypt: Crypt | undefined;
  private encryptNum = -1;

  constructor(bytes: Uint8Array, deadline: Deadline = noDeadline) {
    this.bytes = bytes;
    this.deadline = deadline;
    this.revisions = this.findRevisions();
    this.encryption = this.openEncryption();
    if (this.encryption?.kind === 'open') this.crypt = this.encryption.crypt;
  }

  private openEncryption(): EncryptionState | undefined {
    const rev = this.latest;
    const e = rev.trailer.v.get('Encrypt');
    if (e === undefined || e === null) return undefined;
    if (isRef(e)) this.encryptNum = e.num;
    const enc = this.resolve(rev, e);
    const id = rev.trailer.v.get('ID');
    const id0 = isArray(id) && isString(id.v[0]) ? id.v[0].v : new Uint8Array(0);
    if (!isDict(enc)) return { kind: 'damaged' };
    return openEncryption(enc, id0, (o) => this.resolve(rev, o));
  }

  /** A copy of an object read from the file with its strings and stream data decrypted. */
  private decrypt(io: IndirectObject, crypt: Crypt): IndirectObject {
    const { num, gen } = io;
    const walk = (o: PdfObject, depth: number): PdfObject => {
      if (o === null || typeof o !== 'object' || depth > 64) return o;
      switch (o.t) {
        case 'str':
          return { ...o, v: crypt.decryptString(num, gen, o.v) };
        case 'arr':
          return { t: 'arr', v: o.v.map((x) => walk(x, depth + 1)) };
        case 'dict': {
          // a signature's /Contents is never encrypted (ISO 32000-2 §7.6.2)
          const isSig = o.v.has('ByteRange');
          const v = new Map<string, PdfObject>();
          for (const [k, x] of o.v) v.set(k, isSig && k === 'Contents' ? x : walk(x, depth + 1));
          return { ...o, v };
        }
        case 'stream': {
          const dict = walk(o.dict, depth + 1) as PdfDict;
          return { ...o, dict, raw: crypt.decryptStream(num, gen, o.dict, o.raw) };
        }
        default:
          return o;
      }
    };
    return { ...io, obj: walk(io.obj, 0) };
  }

  get latest(): Revision {
    return this.revisions[this.revisions.length - 1];
  }

  /** The raw object at a given entry, or undefined when absent/unreadable. */
  entryObject(rev: Revision, num: number): IndirectObject | undefined {
    const e = rev.table.get(num);
    if (!e || e.type === 0) return undefined;
    if (e.type === 1) return this.objectAt(e.offset, rev, num) ?? this.drifted(e.offset, rev, num, e.gen);
    return this.fromObjStm(rev, e.objStm, e.index, num);
  }

  /**
   * An entry whose offset does not hold its object (some writers count line ends wrong): the `num gen obj`
   * header nearest to it within DRIFT bytes, the object viewers find when they rebuild the table.
   */
  private drifted(offset: number, rev: Revision, num: number, gen: number): IndirectObject | undefined {
    const b = this.bytes;
    const header = `${num} ${gen} obj`;
    const to = Math.min(b.length, offset + DRIFT + header.length);
    let best = -1;
    for (
      let p = indexOf(b, header, Math.max(0, offset - DRIFT), to);
      p >= 0;
      p = indexOf(b, header, p + 1, to)
    ) {
      if (p > 0 && b[p - 1] >= 0x30 && b[p - 1] <= 0x39) continue; // "15 0 obj" is not "5 0 obj"
      if (best < 0 || Math.abs(p - offset) < Math.abs(best - offset)) best = p;
    }
    return best < 0 ? undefined : (this.objectAt(best, rev, num) ?? undefined);
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
      if (io && this.crypt && io.num !== this.encryptNum) io = this.decrypt(io, this.crypt);
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
    // the entry's index names the object, as poppler and pdf.js read it (a header may list a number
    // twice); when the index names another number, the header's first entry for this one
    const at = stm.header[index];
    const rel = at && at[0] === num ? at[1] : stm.offsets.get(num);
    if (rel === undefined) return undefined;
    try {
      const lx = new Lexer(stm.data, stm.first + rel);
      const obj = lx.parseObject();
      const io: IndirectObject = { num, gen: 0, obj, start: -1, end: -1 };
      return lx.duplicateKeys ? { ...io, duplicateKeys: lx.duplicateKeys } : io;
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
    const header = objStmHeader(data, n, first);
    return { data, header, offsets: objStmOffsets(header), first };
  }

  // ---- cross-reference sections -------------------------------------------------------------

  private readSection(offset: number): XrefSection | null {
    if (this.sectionCache.has(offset)) return this.sectionCache.get(offset) ?? null;
    this.deadline();
    const s = readXrefSection(this.bytes, offset, this.deadline);
    this.sectionCache.set(offset, s);
    return s;
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
      const { own, table, problem, conflicts } = mergeChain(section, sx, (o) => this.readSection(o));
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
        chainProblem: problem,
        ...(conflicts ? { conflicts } : {}),
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

  /** Viewer-style repair: the table rebuilt from the objects (xref.ts rebuildXref). */
  private reconstruct(): Revision | null {
    const rebuilt = rebuildXref(this.bytes, this.deadline);
    if (!rebuilt?.trailer.v.has('Root')) return null;
    const b = this.bytes;
    return {
      index: 0,
      startxrefPos: b.length,
      end: b.length,
      eofEnd: b.length,
      xrefOffset: -1,
      own: rebuilt.table,
      table: rebuilt.table,
      trailer: rebuilt.trailer,
      reconstructed: true,
    };
  }
}
