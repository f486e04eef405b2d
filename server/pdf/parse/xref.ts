/**
 * Cross-reference data: the one reader of `xref` tables, cross-reference streams, their /Prev chains and
 * object-stream headers, used by the signer (sign/pdf-base.ts) and the verifier (parse/document.ts) alike,
 * so the two halves can never read one file differently. Also the rebuild of a table from the objects
 * themselves (as qpdf and pdf.js do), for files whose cross-reference data is damaged.
 */
import { decodeStreamData } from './filters.ts';
import {
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
  /**
   * Object numbers the section lists more than once with different entries (overlapping subsections,
   * an /Index naming a number twice); the first entry is kept. Absent when there are none.
   */
  conflicts?: number[];
};

function sameEntry(a: XrefEntry, b: XrefEntry): boolean {
  if (a.type === 1 && b.type === 1) return a.offset === b.offset && a.gen === b.gen;
  if (a.type === 2 && b.type === 2) return a.objStm === b.objStm && a.index === b.index;
  return a.type === b.type;
}

/** Throws when called after the deadline; long loops call it so one file cannot hold the process. */
export type Deadline = () => void;
export const noDeadline: Deadline = () => {};

const MAX_SECTIONS = 2000;
const MAX_XREF_ENTRIES = 5_000_000;

export function intOf(o: PdfObject | undefined): number | undefined {
  return typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;
}

/** The section (table + trailer, or stream) at `offset`, or null when none is readable there. */
export function readXrefSection(bytes: Uint8Array, offset: number, deadline: Deadline = noDeadline) {
  try {
    return parseSection(bytes, offset, deadline);
  } catch (err) {
    if (err instanceof Error && err.name === 'PdfSyntaxError') return null;
    if (err instanceof RangeError) return null;
    throw err; // the deadline
  }
}

function parseSection(b: Uint8Array, offset: number, deadline: Deadline): XrefSection | null {
  if (offset < 0 || offset >= b.length) return null;
  const lx = new Lexer(b, offset);
  if (lx.expectKeyword('xref')) {
    const entries = new Map<number, XrefEntry>();
    const conflicts: number[] = [];
    let total = 0;
    for (;;) {
      const kw = lx.peekKeyword();
      if (kw === 'trailer') break;
      const start = lx.readInt();
      const count = lx.readInt();
      if (start === null || count === null) return null;
      for (let i = 0; i < count; i++) {
        if (++total > MAX_XREF_ENTRIES) return null;
        if ((i & 0xfff) === 0) deadline();
        const off = lx.readInt();
        const gen = lx.readInt();
        if (off === null || gen === null) return null;
        const t = lx.peekKeyword();
        if (t !== 'n' && t !== 'f') return null;
        lx.expectKeyword(t);
        const num = start + i;
        const entry: XrefEntry = t === 'n' ? { type: 1, offset: off, gen } : { type: 0 };
        const have = entries.get(num);
        if (!have) entries.set(num, entry);
        else if (!sameEntry(have, entry)) conflicts.push(num);
      }
    }
    lx.expectKeyword('trailer');
    const trailer = lx.parseObject();
    if (!isDict(trailer)) return null;
    return conflicts.length > 0
      ? { offset, isStream: false, entries, trailer, conflicts }
      : { offset, isStream: false, entries, trailer };
  }
  // cross-reference stream (never encrypted, ISO 32000-1 §7.5.8.2)
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
  const conflicts: number[] = [];
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
      if ((i & 0xfff) === 0) deadline();
      const type = field(ws[0], 1);
      const f2 = field(ws[1], 0);
      const f3 = field(ws[2], 0);
      const num = start + i;
      const entry: XrefEntry | undefined =
        type === 1
          ? { type: 1, offset: f2, gen: f3 }
          : type === 2
            ? { type: 2, objStm: f2, index: f3 }
            : type === 0
              ? { type: 0 }
              : undefined;
      const have = entries.get(num);
      if (have) {
        if (entry && !sameEntry(have, entry)) conflicts.push(num);
      } else if (entry) entries.set(num, entry);
    }
  }
  return conflicts.length > 0
    ? { offset, isStream: true, entries, trailer: dict, conflicts }
    : { offset, isStream: true, entries, trailer: dict };
}

type MergedTable = {
  /** entries of this revision's own section(s): what this update wrote */
  own: Map<number, XrefEntry>;
  /** merged table as seen by a reader of the first `limit` bytes */
  table: Map<number, XrefEntry>;
  /** why the chain is incomplete (an unreadable /Prev or /XRefStm, a loop), if it is */
  problem?: string;
  /**
   * Object numbers this revision's own section(s) list twice with different entries: within a table or
   * stream, or an in-use entry of a hybrid table that its /XRefStm lists otherwise
   */
  conflicts?: number[];
};

/**
 * Merges a section with its /Prev chain: newer entries win, and a hybrid section's /XRefStm entries belong
 * to that same section (they take precedence over older ones, not over the table's own). Sections at or
 * beyond `limit` are not followed (they are not part of the revision ending there).
 */
export function mergeChain(
  start: XrefSection,
  limit: number,
  read: (offset: number) => XrefSection | null,
): MergedTable {
  const table = new Map<number, XrefEntry>();
  const own = new Map<number, XrefEntry>();
  const visited = new Set<number>();
  let problem: string | undefined;
  const conflicts: number[] = [...(start.conflicts ?? [])];
  let cur: XrefSection | null = start;
  for (let n = 0; cur; n++) {
    if (n >= MAX_SECTIONS) {
      problem = 'too many cross-reference sections';
      break;
    }
    const s: XrefSection = cur;
    const isOwn = n === 0;
    visited.add(s.offset);
    for (const [num, e] of s.entries) {
      if (!table.has(num)) table.set(num, e);
      if (isOwn && !own.has(num)) own.set(num, e);
    }
    const hy = intOf(s.trailer.v.get('XRefStm'));
    if (hy !== undefined && !visited.has(hy)) {
      const hybrid = hy < limit ? read(hy) : null;
      if (!hybrid) problem ??= `the /XRefStm at ${hy} cannot be read`;
      else {
        visited.add(hybrid.offset);
        if (isOwn) for (const c of hybrid.conflicts ?? []) conflicts.push(c);
        for (const [num, e] of hybrid.entries) {
          const mine = s.entries.get(num);
          if (isOwn && mine && mine.type !== 0 && e.type !== 0 && !sameEntry(mine, e)) conflicts.push(num);
          const have = table.get(num);
          if (!have || (have.type === 0 && s.entries.has(num))) table.set(num, e);
          if (isOwn && !own.has(num)) own.set(num, e);
        }
      }
    }
    cur = null;
    const prev = s.trailer.v.get('Prev');
    if (prev === undefined) break;
    const po = intOf(prev);
    if (po === undefined || visited.has(po)) {
      problem ??= '/Prev is invalid or loops';
      break;
    }
    if (po >= limit) {
      problem ??= `/Prev ${po} points past its revision`;
      break;
    }
    cur = read(po);
    if (!cur) problem ??= `no cross-reference section at /Prev ${po}`;
  }
  return conflicts.length > 0 ? { own, table, problem, conflicts } : { own, table, problem };
}

/** The (object number, offset) pairs at the head of an object stream's decoded data, in order. */
export function objStmHeader(data: Uint8Array, n: number, first: number): [number, number][] {
  const lx = new Lexer(data, 0, Math.min(first, data.length));
  const out: [number, number][] = [];
  for (let i = 0; i < n && i < 1_000_000; i++) {
    const on = lx.readInt();
    const oo = lx.readInt();
    if (on === null || oo === null) break;
    out.push([on, oo]);
  }
  return out;
}

/** The object number → offset table of an object stream's header (the first entry of a number wins). */
export function objStmOffsets(header: [number, number][]): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const [on, oo] of header) if (!offsets.has(on)) offsets.set(on, oo);
  return offsets;
}

type RebuiltXref = {
  /** the last definition of every object found in the file, then the objects of object streams */
  table: Map<number, XrefEntry>;
  /** keys of the trailers found (tables' `trailer` and cross-reference streams), later ones winning */
  trailer: PdfDict;
  /** some trailer of the file names a catalog and no /Encrypt (see repair.ts) */
  plainTrailer: boolean;
  /**
   * The keys name an /Encrypt entry that the `trailer` poppler keeps names none: poppler's reconstruction
   * takes the first `trailer` dictionary naming a catalog, and a later one only when it names another
   * catalog object (so a trailer appended with the same /Root and an /Encrypt is not read).
   */
  encryptIgnored: boolean;
};

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSpace = (c: number) => c === 0x20 || c === 0x0d || c === 0x0a || c === 0x09 || c === 0x0c || c === 0;

/**
 * Rebuilds the cross-reference data from the objects: every `n g obj` header of the file (the last
 * definition of a number wins, as in an incremental update), each object skipped whole (so stream data is
 * not searched for headers), plus the members of object streams that no plain object defines. The trailer
 * is assembled from every `trailer` dictionary and cross-reference stream found, later keys winning; when
 * none names a readable catalog, the last `/Type /Catalog` object is taken. Null when nothing is found.
 */
export function rebuildXref(b: Uint8Array, deadline: Deadline = noDeadline): RebuiltXref | null {
  const table = new Map<number, XrefEntry>();
  const objStms: number[] = [];
  const trailerKeys = new Map<string, PdfObject>();
  const plain = { seen: false };
  let catalog: { num: number; gen: number } | undefined;
  let from = 0;
  for (let guard = 0; guard < 5_000_000; guard++) {
    const o = indexOf(b, 'obj', from);
    if (o < 0) break;
    from = o + 3;
    if ((guard & 0x3ff) === 0) deadline();
    if (from < b.length && !isSpace(b[from]) && b[from] !== 0x3c && b[from] !== 0x2f && b[from] !== 0x5b)
      continue; // "objx": another word
    let p = o - 1;
    while (p >= 0 && isSpace(b[p])) p--;
    const genEnd = p + 1;
    while (p >= 0 && isDigit(b[p])) p--;
    const genStart = p + 1;
    while (p >= 0 && isSpace(b[p])) p--;
    const numEnd = p + 1;
    while (p >= 0 && isDigit(b[p])) p--;
    const numStart = p + 1;
    if (genStart === genEnd || genEnd === o || numStart === numEnd || numEnd === genStart) continue;
    if (numEnd - numStart > 10 || genEnd - genStart > 5) continue;
    if (numStart > 0 && !isSpace(b[numStart - 1]) && b[numStart - 1] !== 0x3e && b[numStart - 1] !== 0x25)
      continue; // part of a longer token
    const num = Number(latin1(b, numStart, numEnd));
    const gen = Number(latin1(b, genStart, genEnd));
    if (num === 0 || num > 10_000_000) continue;
    let io: ReturnType<typeof parseIndirectAt> | undefined;
    try {
      io = parseIndirectAt(b, numStart, () => undefined);
    } catch {
      io = undefined;
    }
    if (!io) {
      // a header whose body does not parse: still the object's latest definition, as viewers take it
      table.set(num, { type: 1, offset: numStart, gen });
      continue;
    }
    table.set(num, { type: 1, offset: numStart, gen });
    const obj = io.obj;
    const dict = isStream(obj) ? obj.dict : isDict(obj) ? obj : undefined;
    if (dict) {
      if (isStream(obj) && isName(dict.v.get('Type'), 'ObjStm')) objStms.push(num);
      if (isName(dict.v.get('Type'), 'Catalog')) catalog = { num, gen };
      if (isStream(obj) && isName(dict.v.get('Type'), 'XRef')) takeTrailer(trailerKeys, dict, plain);
    }
    if (io.end > from) from = io.end;
  }
  let t = 0;
  let kept: PdfDict | undefined;
  for (let guard = 0; guard < 100_000; guard++) {
    const tp = indexOf(b, 'trailer', t);
    if (tp < 0) break;
    t = tp + 7;
    try {
      const d = new Lexer(b, tp + 7).parseObject();
      if (isDict(d)) takeTrailer(trailerKeys, d, plain);
      const root = isDict(d) ? d.v.get('Root') : undefined;
      const keptRoot = kept?.v.get('Root');
      if (isDict(d) && isRef(root) && (!isRef(keptRoot) || keptRoot.num !== root.num)) kept = d;
    } catch {
      // keep looking
    }
  }
  for (const s of objStms) {
    const e = table.get(s);
    if (e?.type !== 1) continue;
    try {
      const io = parseIndirectAt(b, e.offset, () => undefined);
      if (!isStream(io.obj)) continue;
      const { data, decoded } = decodeStreamData(io.obj.dict, io.obj.raw);
      if (!decoded) continue;
      const offsets = objStmOffsets(
        objStmHeader(data, intOf(io.obj.dict.v.get('N')) ?? 0, intOf(io.obj.dict.v.get('First')) ?? 0),
      );
      let index = 0;
      for (const num of offsets.keys()) {
        if (!table.has(num)) table.set(num, { type: 2, objStm: s, index });
        index++;
      }
    } catch {
      // an unreadable object stream adds nothing
    }
  }
  if (table.size === 0) return null;
  const root = trailerKeys.get('Root');
  const rootOk = isRef(root) && table.has(root.num);
  if (!rootOk && catalog) trailerKeys.set('Root', { t: 'ref', num: catalog.num, gen: catalog.gen });
  let max = 0;
  for (const n of table.keys()) if (n > max) max = n;
  trailerKeys.set('Size', max + 1);
  trailerKeys.delete('Prev');
  trailerKeys.delete('XRefStm');
  return {
    table,
    trailer: { t: 'dict', v: trailerKeys, start: -1, end: -1 },
    plainTrailer: plain.seen,
    encryptIgnored: trailerKeys.has('Encrypt') && kept !== undefined && !kept.v.has('Encrypt'),
  };
}

const TRAILER_KEYS = ['Root', 'Info', 'Encrypt', 'ID'];
function takeTrailer(into: Map<string, PdfObject>, d: PdfDict, plain: { seen: boolean }): void {
  if (d.v.has('Root') && !d.v.has('Encrypt')) plain.seen = true;
  for (const k of TRAILER_KEYS) {
    const v = d.v.get(k);
    if (v !== undefined) into.set(k, v);
  }
}
