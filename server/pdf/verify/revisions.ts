/**
 * Structural rules for the incremental updates after a signature, independent of what the objects say
 * (server/pdf/verify/README.md, "Revision structure"): an update must be readable the same way by
 * every reader. Each finding makes every earlier signature "modified in a disallowed way".
 *
 * - R1 chain: the trailer's /Prev names the cross-reference section of the revision just before
 *   (no skipping, looping or forward /Prev).
 * - R2 kind: a cross-reference stream does not follow cross-reference tables (hybrid /XRefStm aside).
 * - R3 bytes: the update's bytes are objects, each listed at its own offset in the update's
 *   cross-reference section, then that section with one trailer; nothing else (no second trailer,
 *   no object a scanning reader would take that the table does not list).
 * - R4 tail: nothing but white space follows the last complete revision (a file cut short or with
 *   bytes appended is not a document any signature signed).
 */
import type { Deadline, PdfFile, Revision } from '../parse/document.ts';
import {
  duplicateKeysIn,
  type IndirectObject,
  indexOf,
  isDict,
  isName,
  isRef,
  isStream,
  Lexer,
  latin1,
  type PdfDict,
  type PdfObject,
  parseIndirectAt,
  sameObject,
  textOf,
} from '../parse/objects.ts';
import { objStmHeader, objStmOffsets, readXrefSection } from '../parse/xref.ts';

const MAX_OBJECTS_PER_UPDATE = 200_000;
/** findings listed per revision (a hostile update can make one per object) */
const MAX_FINDINGS = 20;

function intOf(o: unknown): number | undefined {
  return typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/** What a revision's structure shows: findings that fail earlier signatures, and warnings that do not. */
type Findings = { problems: string[]; warnings: string[] };

/** The trailer keys a hybrid file's table trailer and its /XRefStm stream must agree on. */
const HYBRID_KEYS = ['Root', 'Encrypt', 'Info', 'ID'] as const;

export class RevisionRules {
  private readonly pdf: PdfFile;
  private readonly deadline: Deadline;
  private readonly cache = new Map<number, Findings>();
  private readonly referenced = new Map<number, Set<number>>();

  constructor(pdf: PdfFile, deadline: Deadline) {
    this.pdf = pdf;
    this.deadline = deadline;
  }

  /** Where the cross-reference section really starts (some writers' startxref is off by white space). */
  private sectionStart(rev: Revision): number {
    const lx = new Lexer(this.pdf.bytes, rev.xrefOffset);
    lx.skipWs();
    return lx.pos;
  }

  private isTable(rev: Revision): boolean {
    const at = this.sectionStart(rev);
    return indexOf(this.pdf.bytes, 'xref', at, at + 4) === at;
  }

  /** Problems with revision `i` as an update of revision `i - 1` (none for the first revision). */
  problems(i: number): string[] {
    return this.findings(i).problems;
  }

  /** What revision `i` does that real writers do and viewers ignore: reported, not failed. */
  warnings(i: number): string[] {
    return this.findings(i).warnings;
  }

  private findings(i: number): Findings {
    const cached = this.cache.get(i);
    if (cached) return cached;
    const f: Findings = { problems: [], warnings: [] };
    const out = f.problems;
    const revs = this.pdf.revisions;
    if (i > 0 && i < revs.length) {
      const rev = revs[i];
      const before = revs[i - 1];
      const n = i + 1;
      const prev = intOf(rev.trailer.v.get('Prev'));
      const prevAt = prev === undefined ? -1 : new Lexer(this.pdf.bytes, prev);
      if (typeof prevAt !== 'number') prevAt.skipWs();
      if (
        prev !== before.xrefOffset &&
        (typeof prevAt === 'number' || prevAt.pos !== this.sectionStart(before))
      )
        out.push(
          `revision ${n}: its /Prev (${prev ?? 'none'}) does not name the cross-reference section of revision ${i} (${before.xrefOffset}): the chain skips, loops or points forward`,
        );
      if (this.isTable(before) && !this.isTable(rev))
        out.push(`revision ${n}: a cross-reference stream follows cross-reference tables`);
      const reported = new Set<number>();
      this.updateBytes(rev, before.end, n, f, reported);
      this.readerDifferentials(rev, n, f, reported);
    }
    for (const list of [f.problems, f.warnings])
      if (list.length > MAX_FINDINGS)
        list.splice(MAX_FINDINGS, list.length, `… and ${list.length - MAX_FINDINGS} more`);
    this.cache.set(i, f);
    return f;
  }

  /**
   * R5: what a strict reader and a viewer read differently in the revision's own data: duplicate keys in
   * an object it lists or in its trailer (viewers take the last value), an object its section lists twice
   * with different entries, a hybrid trailer its /XRefStm contradicts.
   */
  private readerDifferentials(rev: Revision, n: number, f: Findings, reported: Set<number>): void {
    for (const [num, e] of rev.own) {
      if (e.type === 0) continue;
      const io = this.pdf.entryObject(rev, num);
      if (!io) continue;
      if (io.duplicateKeys && !reported.has(num))
        f.problems.push(duplicateFinding(n, `object ${num}`, io.duplicateKeys));
      // poppler reads a reference whose generation is not the table's as null, pdf.js rebuilds the table,
      // this reader ignores generations: a written object must agree with its table
      if (e.type === 1 && io.gen !== e.gen)
        f.problems.push(
          `revision ${n}: object ${num} is listed with generation ${e.gen} but written as generation ${io.gen} (readers disagree on it)`,
        );
      const bad = this.wrongGeneration(rev, io.obj);
      if (bad)
        f.problems.push(
          `revision ${n}: object ${num} refers to ${bad.num} ${bad.gen} R, which the table has at generation ${bad.want} (readers disagree on it)`,
        );
    }
    const trailerDups = duplicateKeysIn(rev.trailer);
    if (trailerDups.length > 0) f.problems.push(duplicateFinding(n, 'its trailer', trailerDups));
    const conflicts = [...new Set(rev.conflicts ?? [])];
    if (conflicts.length > 0)
      f.problems.push(
        `revision ${n}: its cross-reference section lists object${conflicts.length > 1 ? 's' : ''} ${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : ''} twice with different entries (readers may take either)`,
      );
    const hybrid = intOf(rev.trailer.v.get('XRefStm'));
    if (hybrid === undefined || !this.isTable(rev)) return;
    const stm = readXrefSection(this.pdf.bytes, hybrid, this.deadline);
    if (!stm) return; // an unreadable /XRefStm is the chain's problem (document.ts)
    const sd = duplicateKeysIn(stm.trailer);
    if (sd.length > 0) f.problems.push(duplicateFinding(n, 'its /XRefStm dictionary', sd));
    for (const k of HYBRID_KEYS)
      if (stm.trailer.v.has(k) && !sameObject(stm.trailer.v.get(k), rev.trailer.v.get(k)))
        f.problems.push(
          `revision ${n}: its trailer and its /XRefStm stream name different /${k} (readers of tables and of streams see other documents)`,
        );
    const a = intOf(rev.trailer.v.get('Size'));
    const b = intOf(stm.trailer.v.get('Size'));
    if (a !== undefined && b !== undefined && a !== b) {
      // real writers disagree on /Size; it matters only when one of them leaves out an object in use
      const low = Math.min(a, b);
      const cut = [...rev.table].find(([num, e]) => num >= low && e.type !== 0);
      if (cut)
        f.problems.push(
          `revision ${n}: its trailer's /Size ${a} and its /XRefStm's /Size ${b} disagree, and object ${cut[0]} lies between them`,
        );
      else f.warnings.push(`revision ${n}: its trailer's /Size ${a} and its /XRefStm's /Size ${b} disagree`);
    }
  }

  /** A reference inside `o` (not followed) whose generation differs from the table's in-use entry. */
  private wrongGeneration(
    rev: Revision,
    o: PdfObject,
  ): { num: number; gen: number; want: number } | undefined {
    const stack: PdfObject[] = [o];
    for (let k = 0; stack.length > 0 && k < 1_000_000; k++) {
      const x = stack.pop();
      if (x === null || x === undefined || typeof x !== 'object') continue;
      if (x.t === 'ref') {
        const e = rev.table.get(x.num);
        const want = e?.type === 1 ? e.gen : e?.type === 2 ? 0 : x.gen;
        if (want !== x.gen) return { num: x.num, gen: x.gen, want };
      } else if (x.t === 'arr') for (const y of x.v) stack.push(y);
      else if (x.t === 'dict') for (const y of x.v.values()) stack.push(y);
      else if (x.t === 'stream') stack.push(x.dict);
    }
    return undefined;
  }

  /** R3: walks the update's bytes object by object. */
  private updateBytes(rev: Revision, start: number, n: number, f: Findings, reported: Set<number>): void {
    const b = this.pdf.bytes;
    const stop = rev.startxrefPos;
    const out = f.problems;
    const hybrid = intOf(rev.trailer.v.get('XRefStm'));
    const table = this.isTable(rev);
    const section = this.sectionStart(rev);
    let pos = start;
    let sawSection = false;
    const failedBefore = out.length;
    for (let k = 0; k < MAX_OBJECTS_PER_UPDATE; k++) {
      if ((k & 0xff) === 0) this.deadline();
      const lx = new Lexer(b, pos, stop);
      lx.skipWs();
      pos = lx.pos;
      if (pos >= stop) break;
      if (table && pos === section) {
        sawSection = true;
        const end = rev.trailer.end;
        if (!(end > pos && end <= stop)) {
          out.push(`revision ${n}: its trailer cannot be delimited`);
          break;
        }
        pos = end;
        continue;
      }
      let io: IndirectObject | undefined;
      // a listed object is read through the file's cache (the change analysis reads it anyway)
      const head = new Lexer(b, pos, stop);
      const num = head.readInt();
      const listed = num !== null ? rev.own.get(num) : undefined;
      if (listed?.type === 1 && this.lands(listed.offset, pos)) io = this.pdf.entryObject(rev, num as number);
      if (!io || io.end <= pos)
        try {
          io = parseIndirectAt(b, pos, (ref) => {
            const v = this.pdf.resolve(rev, ref);
            return typeof v === 'number' ? v : undefined;
          });
        } catch {
          io = undefined;
        }
      if (!io || io.end <= pos || io.end > stop) {
        const next = this.garbage(pos, stop, table ? section : -1);
        if (next < 0) {
          const what =
            indexOf(b, 'trailer', pos, pos + 7) === pos ? 'a second trailer' : 'bytes that are not an object';
          out.push(`revision ${n}: ${what} at offset ${pos}, outside its cross-reference section`);
          break;
        }
        f.warnings.push(
          `revision ${n}: ${next - pos} bytes at offset ${pos} are neither an object nor cross-reference data (readers skip them)`,
        );
        pos = next;
        continue;
      }
      if (io.duplicateKeys && !reported.has(io.num)) {
        reported.add(io.num);
        out.push(duplicateFinding(n, `object ${io.num}`, io.duplicateKeys));
      }
      if (pos === section) sawSection = true;
      else if (pos !== hybrid) {
        if (isStream(io.obj) && isName(io.obj.dict.v.get('Type'), 'XRef'))
          out.push(
            `revision ${n}: a cross-reference stream (object ${io.num}) at offset ${pos} besides its cross-reference section (readers may take either)`,
          );
        else {
          const e = rev.own.get(io.num);
          if (!(e && e.type === 1 && this.lands(e.offset, pos)))
            this.unlisted(rev, io.num, io.obj, pos, start, n, f);
        }
        if (isStream(io.obj) && isName(io.obj.dict.v.get('Type'), 'ObjStm'))
          this.objStmMembers(rev, io, start, n, f);
      }
      pos = io.end;
    }
    if (!sawSection && out.length === failedBefore)
      out.push(`revision ${n}: its cross-reference section lies outside its own bytes`);
  }

  /** An offset from a cross-reference entry names the object at `pos` (white space before it allowed). */
  private lands(offset: number, pos: number): boolean {
    if (offset === pos) return true;
    if (offset > pos || offset < 0) return false;
    const lx = new Lexer(this.pdf.bytes, offset, pos + 1);
    lx.skipWs();
    return lx.pos === pos;
  }

  /**
   * Bytes at `pos` that are not an object: where they end (the next object header or the section), when
   * nothing in them is anything a scanning reader would take (an object header, `trailer`, `xref`,
   * `startxref`); else -1.
   */
  private garbage(pos: number, stop: number, section: number): number {
    const b = this.pdf.bytes;
    if (/^\d+\s+\d+\s+obj/.test(latinHead(b, pos))) return -1; // a broken object a scanning reader takes
    let next = findObjectHeader(b, pos + 1);
    if (next < 0 || next > stop) next = stop;
    if (section > pos && section < next) next = section;
    for (const word of ['trailer', 'xref', 'obj']) if (indexOf(b, word, pos, next) >= 0) return -1;
    return next;
  }

  /**
   * An object written in the update that its cross-reference section does not list at that offset (real
   * writers leave such objects). Disallowed only when a scanning reader (viewers repairing the file) would
   * read something else than the section says: the object differs from what the table resolves for its
   * number, or the table has no such object and the revision refers to the number. Otherwise a warning.
   */
  private unlisted(
    rev: Revision,
    num: number,
    obj: PdfObject,
    pos: number,
    start: number,
    n: number,
    f: Findings,
  ) {
    const e = rev.table.get(num);
    const where = `object ${num} written at offset ${pos} is not in its cross-reference section`;
    if (e && e.type !== 0) {
      const listed = this.pdf.entryObject(rev, num);
      if (e.type === 1 && listed?.start === pos) {
        f.warnings.push(
          `revision ${n}: the cross-reference entry of object ${num} gives offset ${e.offset}, the object starts at ${pos} (readers find it there)`,
        );
        return;
      }
      if (listed && sameObject(listed.obj, obj)) {
        f.warnings.push(`revision ${n}: ${where}; it is a copy of the object the section lists`);
        return;
      }
      const twice = e.type === 1 && e.offset >= start && listed;
      if (twice && listed.start > pos) {
        // a writer that wrote the object, then its final version: the section lists the later one, which
        // is also what readers that scan the file take (the last definition wins)
        f.warnings.push(
          `revision ${n}: object ${num} is written twice in its bytes (offsets ${pos} and ${listed.start}); the section lists the later one, as readers that scan the file take it`,
        );
        return;
      }
      f.problems.push(
        twice
          ? `revision ${n}: object ${num} is defined twice in its bytes (offsets ${e.offset} and ${pos}) with different content (a scanning reader may take either)`
          : `revision ${n}: ${where}, and differs from the object the section lists (a scanning reader would take it)`,
      );
      return;
    }
    if (this.referencedIn(rev, false).has(num))
      f.problems.push(
        `revision ${n}: ${where}, and the document refers to object ${num}, which the section leaves out (a scanning reader would take it)`,
      );
    else if (this.referencedIn(rev, true).has(num))
      f.warnings.push(
        `revision ${n}: ${where}; only the validation data (/DSS) refers to it, which this reader then lacks`,
      );
    else f.warnings.push(`revision ${n}: ${where}; nothing refers to it`);
  }

  /**
   * An object stream written in the update: a number its header lists twice at different offsets, an
   * entry of the section whose index names another number (poppler and pdf.js read members by index,
   * checking the number), and members the section does not place in it (judged as unlisted objects).
   */
  private objStmMembers(rev: Revision, io: IndirectObject, start: number, n: number, f: Findings): void {
    if (!isStream(io.obj)) return;
    const data = this.pdf.streamData(io.obj);
    if (!data) return;
    const d = io.obj.dict;
    const first = intOf(d.v.get('First')) ?? 0;
    const header = objStmHeader(data, intOf(d.v.get('N')) ?? 0, first);
    const offsets = objStmOffsets(header);
    for (const [num, rel] of header)
      if (offsets.get(num) !== rel) {
        f.problems.push(
          `revision ${n}: object stream ${io.num} lists object ${num} twice at different places (readers may take either)`,
        );
        offsets.delete(num);
      }
    for (const [num, e] of rev.own)
      if (e.type === 2 && e.objStm === io.num && header[e.index]?.[0] !== num)
        f.problems.push(
          `revision ${n}: the entry of object ${num} names place ${e.index} of object stream ${io.num}, which holds ${header[e.index] ? `object ${header[e.index][0]}` : 'nothing'} (poppler reads null)`,
        );
    for (const [num, rel] of offsets) {
      const e = rev.table.get(num);
      if (e?.type === 2 && e.objStm === io.num) continue;
      let obj: PdfObject;
      try {
        obj = new Lexer(data, first + rel).parseObject();
      } catch {
        continue;
      }
      this.unlisted(rev, num, obj, io.start, start, n, f);
    }
  }

  /**
   * Object numbers the revision refers to, from its trailer through every object it reaches; with
   * `dss` false the catalog's /DSS (validation data, nothing a viewer shows) is not followed.
   */
  private referencedIn(rev: Revision, dss: boolean): Set<number> {
    const key = dss ? -1 - rev.index : rev.index;
    const cached = this.referenced.get(key);
    if (cached) return cached;
    const seen = new Set<number>();
    const stack: PdfObject[] = [];
    for (const [k, v] of rev.trailer.v) if (k !== 'Root') stack.push(v);
    const root = rev.trailer.v.get('Root');
    if (isRef(root)) seen.add(root.num);
    const catalog = this.pdf.catalog(rev);
    if (catalog) for (const [k, v] of catalog.v) if (dss || k !== 'DSS') stack.push(v);
    for (let k = 0; stack.length > 0 && k < 2_000_000; k++) {
      if ((k & 0xfff) === 0) this.deadline();
      const o = stack.pop();
      if (o === null || typeof o !== 'object' || o === undefined) continue;
      if (o.t === 'ref') {
        if (seen.has(o.num)) continue;
        seen.add(o.num);
        const io = this.pdf.entryObject(rev, o.num);
        if (io) stack.push(io.obj);
      } else if (o.t === 'arr') for (const y of o.v) stack.push(y);
      else if (o.t === 'dict') for (const y of o.v.values()) stack.push(y);
      else if (o.t === 'stream') stack.push(o.dict);
    }
    this.referenced.set(key, seen);
    return seen;
  }

  /** R4: what follows the last complete revision, when it is more than white space. */
  tail(): { start: number; length: number } | null {
    const b = this.pdf.bytes;
    const last = this.pdf.latest;
    if (last.reconstructed) return null;
    for (let p = last.end; p < b.length; p++)
      if (!isWs(b[p])) return { start: last.end, length: b.length - last.end };
    return null;
  }

  /**
   * Signature dictionaries (or what is left of them) in the bytes after the last complete revision,
   * with the field name when a signature field there names them.
   */
  tailSignatures(): { field: string; sig: PdfDict | null; at: number }[] {
    const t = this.tail();
    if (!t) return [];
    const b = this.pdf.bytes;
    const out: { field: string; sig: PdfDict | null; at: number }[] = [];
    const names = new Map<number, string>();
    const sigs = new Map<number, { dict: PdfDict; at: number }>();
    // objects that still parse
    let from = t.start;
    for (let k = 0; k < 10_000; k++) {
      const m = findObjectHeader(b, from);
      if (m < 0) break;
      from = m + 3;
      let io: IndirectObject | undefined;
      try {
        io = parseIndirectAt(b, m, () => undefined);
      } catch {
        continue;
      }
      const d = isDict(io.obj) ? io.obj : isStream(io.obj) ? io.obj.dict : undefined;
      if (!d) continue;
      const v = d.v.get('V');
      const t2 = d.v.get('T');
      const name = textOf(t2);
      if (isRef(v) && name !== undefined) names.set(v.num, name);
      if (d.v.has('ByteRange')) sigs.set(io.num, { dict: d, at: m });
    }
    for (const [num, s] of sigs)
      out.push({ field: names.get(num) ?? `(object ${num})`, sig: s.dict, at: s.at });
    // /ByteRange markers whose dictionary was cut
    let p = t.start;
    for (let k = 0; k < 10_000; k++) {
      const i = indexOf(b, '/ByteRange', p);
      if (i < 0) break;
      p = i + 10;
      if ([...sigs.values()].some((s) => s.dict.start <= i && i < s.dict.end)) continue;
      out.push({
        field: [...names.values()].find((x) => !out.some((o) => o.field === x)) ?? '(cut short)',
        sig: null,
        at: i,
      });
    }
    return out;
  }
}

function duplicateFinding(n: number, what: string, keys: readonly string[]): string {
  const list = [...new Set(keys)].map((k) => `/${k}`).join(', ');
  return `revision ${n}: ${what} has a duplicate key ${list} (viewers read the last value, a strict reader may read the first)`;
}

const latinHead = (b: Uint8Array, pos: number) => latin1(b, pos, pos + 40);

/** Offset of the next `N G obj` header at or after `from`, or -1. */
function findObjectHeader(b: Uint8Array, from: number): number {
  let p = from;
  for (;;) {
    const o = indexOf(b, ' obj', p);
    if (o < 0) return -1;
    p = o + 4;
    let q = o - 1;
    while (q >= 0 && b[q] >= 0x30 && b[q] <= 0x39) q--;
    if (q === o - 1 || b[q] !== 0x20) continue;
    let r = q - 1;
    while (r >= 0 && b[r] >= 0x30 && b[r] <= 0x39) r--;
    if (r === q - 1) continue;
    if (r + 1 < from) continue;
    return r + 1;
  }
}
