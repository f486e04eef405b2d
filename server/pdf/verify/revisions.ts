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
  type IndirectObject,
  indexOf,
  isDict,
  isRef,
  isStream,
  Lexer,
  type PdfDict,
  parseIndirectAt,
  textOf,
} from '../parse/objects.ts';

const MAX_OBJECTS_PER_UPDATE = 200_000;

function intOf(o: unknown): number | undefined {
  return typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

export class RevisionRules {
  private readonly pdf: PdfFile;
  private readonly deadline: Deadline;
  private readonly cache = new Map<number, string[]>();

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
    const cached = this.cache.get(i);
    if (cached) return cached;
    const out: string[] = [];
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
      out.push(...this.updateBytes(rev, before.end, n));
    }
    this.cache.set(i, out);
    return out;
  }

  /** R3: walks the update's bytes object by object. */
  private updateBytes(rev: Revision, start: number, n: number): string[] {
    const b = this.pdf.bytes;
    const stop = rev.startxrefPos;
    const out: string[] = [];
    const hybrid = intOf(rev.trailer.v.get('XRefStm'));
    const table = this.isTable(rev);
    const section = this.sectionStart(rev);
    let pos = start;
    let sawSection = false;
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
      if (listed?.type === 1 && listed.offset === pos) io = this.pdf.entryObject(rev, num as number);
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
        const what =
          indexOf(b, 'trailer', pos, pos + 7) === pos ? 'a second trailer' : 'bytes that are not an object';
        out.push(`revision ${n}: ${what} at offset ${pos}, outside its cross-reference section`);
        break;
      }
      if (pos === section) sawSection = true;
      else if (pos !== hybrid) {
        const e = rev.own.get(io.num);
        if (!(e && e.type === 1 && e.offset === pos))
          out.push(
            `revision ${n}: object ${io.num} written at offset ${pos} is not in its cross-reference section`,
          );
      }
      pos = io.end;
    }
    if (!sawSection && out.length === 0)
      out.push(`revision ${n}: its cross-reference section lies outside its own bytes`);
    return out;
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
