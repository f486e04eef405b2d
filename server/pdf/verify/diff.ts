/**
 * Object-level difference analysis between consecutive revisions.
 *
 * Every object a later revision writes, frees or newly defines is compared with the object the signed
 * revision had under that number. Whether a change is allowed depends on where the object was used in
 * the earlier revision (its "roles", found by walking from the catalog): an object reachable both from
 * an allowed place (a form field's appearance) and from anywhere else (page content, an arbitrary
 * catalog key) may not change — that is how overwritten shared objects and shadow attacks are caught.
 */
import type { Deadline, PdfFile, Revision, XrefEntry } from '../parse/document.ts';
import {
  isArray,
  isDict,
  isName,
  isRef,
  isStream,
  type PdfDict,
  type PdfObject,
  sameObject,
  textOf,
} from '../parse/objects.ts';

type Role =
  | 'catalog'
  | 'acroform'
  | 'fields'
  | 'field'
  | 'sigValue'
  | 'fieldValue'
  | 'apDict'
  | 'appearance'
  | 'formRes'
  | 'dss'
  | 'metadata'
  | 'struct'
  | 'extensions'
  | 'perms'
  | 'pages'
  | 'page'
  | 'annots'
  | 'widget'
  | 'annot'
  | 'content'
  | 'trailerKey'
  | 'sigAppearance'
  | 'other';

/** Ordered change levels: DocMDP P=1 permits dss/timestamp, P=2 adds form, P=3 adds annot. */
export const Level = { none: 0, dss: 1, timestamp: 2, form: 3, annot: 4, other: 5 } as const;
export type LevelValue = (typeof Level)[keyof typeof Level];

type RevisionDiff = {
  level: LevelValue;
  changes: string[];
  disallowedReasons: string[];
  /**
   * False when the revision changed nothing a page draws with: it only added signatures made in it (their
   * fields and widgets) and validation data. Then no page needs drawing for the visual comparison.
   */
  touchesPages: boolean;
};

/** Roles whose change no page draws (a page's /Annots growing by signatures is judged on its own). */
const UNDRAWN: ReadonlySet<Role> = new Set<Role>([
  'catalog',
  'acroform',
  'fields',
  'dss',
  'metadata',
  'struct',
  'extensions',
  'perms',
  'trailerKey',
]);

const SKIP_KEYS = new Set([
  'Parent',
  'P',
  'Pg',
  'Obj',
  'Data',
  'IRT',
  'Popup',
  'Dest',
  'Prev',
  'Next',
  'First',
  'Last',
]);

/** Trailer keys of the file's structure (and /Info, whose changes are not judged): not places of use. */
const TRAILER_KEYS = new Set([
  'Root',
  'Info',
  'Size',
  'Prev',
  'XRefStm',
  'ID',
  'Encrypt',
  'Type',
  'W',
  'Index',
  'Filter',
  'DecodeParms',
  'Length',
]);

/**
 * The one reader's `sameObject`, with a stream's /Length left out: the same bytes are the same stream
 * whether their length is written directly or in an object of its own.
 */
export function sameContent(a: PdfObject | undefined, b: PdfObject | undefined): boolean {
  if (!isStream(a) || !isStream(b)) return sameObject(a, b);
  const withoutLength = (d: PdfDict): PdfDict => {
    const v = new Map(d.v);
    v.delete('Length');
    return { t: 'dict', v, start: d.start, end: d.end };
  };
  return Buffer.from(a.raw).equals(b.raw) && sameObject(withoutLength(a.dict), withoutLength(b.dict));
}

function entryEq(a: XrefEntry | undefined, b: XrefEntry | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === 1 && b.type === 1) return a.offset === b.offset;
  if (a.type === 2 && b.type === 2) return a.objStm === b.objStm && a.index === b.index;
  return true;
}

/**
 * Form writers (pdf-lib among them) rewrite a field they fill: its name re-encoded (PDFDocEncoding as
 * UTF-16), its flags written out as 0. The same text, or flags that differ only in ReadOnly (locking a
 * filled field), are no change of the field.
 */
function sameText(a: PdfObject | undefined, b: PdfObject | undefined): boolean {
  const x = textOf(a);
  return x !== undefined && x === textOf(b);
}

function onlyReadOnly(a: PdfObject | undefined, b: PdfObject | undefined): boolean {
  const x = a === undefined ? 0 : a;
  const y = b === undefined ? 0 : b;
  return typeof x === 'number' && typeof y === 'number' && ((x ^ y) & ~1) === 0;
}

export class DiffAnalyzer {
  private readonly pdf: PdfFile;
  private readonly deadline: Deadline;
  private readonly roleCache = new Map<number, Map<number, Set<Role>>>();
  private readonly diffCache = new Map<number, RevisionDiff>();

  constructor(pdf: PdfFile, deadline: Deadline) {
    this.pdf = pdf;
    this.deadline = deadline;
  }

  /** Where each object number is used in `rev`, by role. */
  roles(rev: Revision): Map<number, Set<Role>> {
    const cached = this.roleCache.get(rev.index);
    if (cached) return cached;
    const pdf = this.pdf;
    const map = new Map<number, Set<Role>>();
    let steps = 0;
    const stack: { o: PdfObject | undefined; role: Role; depth: number }[] = [
      { o: rev.trailer.v.get('Root'), role: 'catalog', depth: 0 },
    ];
    // anything else the trailer points at is a place an object is used too: an appearance shared with a
    // trailer key may not be rewritten as a form fill (pyHanko's reference tracker does the same)
    for (const [k, v] of rev.trailer.v)
      if (!TRAILER_KEYS.has(k)) stack.push({ o: v, role: 'trailerKey', depth: 0 });
    // visited (object, role) pairs, as one number each: the walk runs once per revision
    const visited = new Set<number>();
    const roleIds = new Map<Role, number>();
    while (stack.length > 0) {
      if (++steps > 500_000) break;
      if ((steps & 0x3ff) === 0) this.deadline();
      const { o, role, depth } = stack.pop()!;
      if (depth > 200) continue;
      let val: PdfObject | undefined = o;
      if (isRef(o)) {
        let id = roleIds.get(role);
        if (id === undefined) {
          id = roleIds.size;
          roleIds.set(role, id);
        }
        const key = o.num * 64 + id;
        if (visited.has(key)) continue;
        visited.add(key);
        val = pdf.resolve(rev, o);
        const d = isDict(val) ? val : isStream(val) ? val.dict : undefined;
        // a page named outside the page tree (/OpenAction, outline and link destinations, /Names) is
        // only pointed at: the page is judged by its place in the page tree, not as content
        if (
          d &&
          role !== 'page' &&
          role !== 'pages' &&
          role !== 'catalog' &&
          (isName(d.v.get('Type'), 'Page') || isName(d.v.get('Type'), 'Pages'))
        )
          continue;
        const set = map.get(o.num) ?? new Set<Role>();
        map.set(o.num, set);
        set.add(role);
      }
      if (val === undefined || val === null || typeof val !== 'object') continue;
      const dict = isStream(val) ? val.dict : isDict(val) ? val : undefined;
      if (isArray(val)) {
        for (const el of val.v)
          stack.push({ o: el, role: this.elementRole(rev, role, el), depth: depth + 1 });
        continue;
      }
      if (!dict) continue;
      for (const [k, v] of dict.v) {
        if (SKIP_KEYS.has(k) && role !== 'catalog') continue;
        if (role === 'sigValue' || role === 'perms') {
          if (k === 'Data') continue;
        }
        let child = this.childRole(rev, role, k, v);
        // the appearance of a signature already made is the signer's visible mark: it never changes
        if (child === 'apDict' && isRef(o) && this.signedSigNodes(rev).has(o.num)) child = 'sigAppearance';
        if (child) stack.push({ o: v, role: child, depth: depth + 1 });
      }
    }
    this.roleCache.set(rev.index, map);
    return map;
  }

  private typeOf(rev: Revision, o: PdfObject | undefined): PdfDict | undefined {
    const v = this.pdf.resolve(rev, o);
    return isDict(v) ? v : isStream(v) ? v.dict : undefined;
  }

  private elementRole(rev: Revision, role: Role, el: PdfObject): Role {
    if (role === 'fields') return 'field';
    if (role === 'annots') {
      const d = this.typeOf(rev, el);
      return d && isName(d.v.get('Subtype'), 'Widget') ? 'widget' : 'annot';
    }
    if (role === 'pages') {
      // a node without /Type (viewers accept it) is a page when it has no /Kids, as readers decide
      const d = this.typeOf(rev, el);
      if (!d) return 'pages';
      if (isName(d.v.get('Type'), 'Page')) return 'page';
      if (isName(d.v.get('Type'), 'Pages')) return 'pages';
      return isArray(this.pdf.resolve(rev, d.v.get('Kids'))) ? 'pages' : 'page';
    }
    if (role === 'apDict') {
      const v = this.pdf.resolve(rev, el);
      return isStream(v) ? 'appearance' : 'apDict';
    }
    return role;
  }

  private childRole(rev: Revision, role: Role, key: string, v: PdfObject): Role | null {
    switch (role) {
      case 'catalog': {
        const m: Record<string, Role> = {
          AcroForm: 'acroform',
          DSS: 'dss',
          Metadata: 'metadata',
          StructTreeRoot: 'struct',
          Pages: 'pages',
          Extensions: 'extensions',
          Perms: 'perms',
        };
        // a /Pages that is itself a page (a damaged tree viewers accept) is judged as that page
        if (key === 'Pages' && isName(this.typeOf(rev, v)?.v.get('Type'), 'Page')) return 'page';
        return m[key] ?? 'other';
      }
      case 'acroform':
        if (key === 'Fields') return 'fields';
        if (key === 'DR' || key === 'DA' || key === 'SigFlags' || key === 'NeedAppearances' || key === 'CO')
          return 'formRes';
        return 'other';
      case 'field':
      case 'widget': {
        if (key === 'Kids') return 'fields';
        if (key === 'AP') return 'apDict';
        if (key === 'V') {
          const d = this.typeOf(rev, v);
          const isSig =
            d &&
            (isName(d.v.get('Type'), 'Sig') ||
              isName(d.v.get('Type'), 'DocTimeStamp') ||
              d.v.has('ByteRange'));
          return isSig ? 'sigValue' : 'fieldValue';
        }
        return 'formRes';
      }
      case 'apDict':
        return this.elementRole(rev, 'apDict', v);
      case 'appearance':
        return 'formRes';
      case 'pages':
        if (key === 'Kids') return 'pages';
        return 'content';
      case 'page':
        if (key === 'Annots') return 'annots';
        return 'content';
      case 'annots':
        return this.elementRole(rev, 'annots', v);
      default:
        return role;
    }
  }

  private refList(rev: Revision, v: PdfObject | undefined): string[] {
    const r = this.pdf.resolve(rev, v);
    if (!isArray(r)) return [];
    return r.v.map((x) => (isRef(x) ? `${x.num} ${x.gen}` : JSON.stringify(x)));
  }

  private readonly sigNodeCache = new Map<number, { all: Set<number>; signed: Set<number> }>();
  /**
   * Signature fields and their widgets in `rev`, walking /Fields and /Kids as readers find them (the widgets
   * of a cross-page seal carry no /Parent): all of them, and those under a field whose /V is a signature.
   */
  private sigFields(rev: Revision): { all: Set<number>; signed: Set<number> } {
    const cached = this.sigNodeCache.get(rev.index);
    if (cached) return cached;
    const out = { all: new Set<number>(), signed: new Set<number>() };
    const acro = this.pdf.getDict(rev, this.pdf.catalog(rev), 'AcroForm');
    const seen = new Set<number>();
    let steps = 0;
    const walk = (o: PdfObject | undefined, ft: string | undefined, signedAbove: boolean, depth: number) => {
      if (!isRef(o) || depth > 32 || seen.has(o.num) || steps++ > 100_000) return;
      seen.add(o.num);
      const d = this.typeOf(rev, o);
      if (!d) return;
      const f = d.v.get('FT');
      const myFt = isName(f) ? f.v : ft;
      const v = this.typeOf(rev, d.v.get('V'));
      const signed =
        signedAbove ||
        (!!v &&
          (v.v.has('ByteRange') ||
            isName(v.v.get('Type'), 'Sig') ||
            isName(v.v.get('Type'), 'DocTimeStamp')));
      if (myFt === 'Sig') {
        out.all.add(o.num);
        if (signed) out.signed.add(o.num);
      }
      const kids = this.pdf.resolve(rev, d.v.get('Kids'));
      if (isArray(kids)) for (const k of kids.v) walk(k, myFt, signed, depth + 1);
    };
    const fields = this.pdf.resolve(rev, acro?.v.get('Fields'));
    if (isArray(fields)) for (const f of fields.v) walk(f, undefined, false, 0);
    this.sigNodeCache.set(rev.index, out);
    return out;
  }

  /** Object numbers of signature fields and their widgets in `rev`. */
  private sigNodes(rev: Revision): Set<number> {
    return this.sigFields(rev).all;
  }

  /** Signature fields of `rev` that carry a signature value, and their widgets. */
  signedSigNodes(rev: Revision): Set<number> {
    return this.sigFields(rev).signed;
  }

  /** Level of adding these array elements (fields or annotations): signature widgets are form level. */
  private additionsLevel(
    prev: Revision,
    cur: Revision,
    oldV: PdfObject | undefined,
    newV: PdfObject | undefined,
  ): LevelValue {
    const oldL = this.refList(prev, oldV);
    const newL = this.refList(cur, newV);
    const arr = this.pdf.resolve(cur, newV);
    if (!oldL.every((x) => newL.includes(x))) return Level.other;
    let level: LevelValue = Level.form;
    if (!isArray(arr)) return Level.other;
    for (const el of arr.v) {
      const id = isRef(el) ? `${el.num} ${el.gen}` : JSON.stringify(el);
      if (oldL.includes(id)) continue;
      if (!(isRef(el) && this.sigNodes(cur).has(el.num))) level = Level.annot;
    }
    return level;
  }

  private judge(
    prev: Revision,
    cur: Revision,
    role: Role,
    oldO: PdfObject | undefined,
    newO: PdfObject | undefined,
    notes: { fill: boolean },
    num: number,
  ): LevelValue {
    const oldD = isDict(oldO) ? oldO : isStream(oldO) ? oldO.dict : undefined;
    const newD = isDict(newO) ? newO : isStream(newO) ? newO.dict : undefined;
    const changedKeys = (): string[] => {
      const keys = new Set([...(oldD?.v.keys() ?? []), ...(newD?.v.keys() ?? [])]);
      return [...keys].filter((k) => !sameContent(oldD?.v.get(k), newD?.v.get(k)));
    };
    switch (role) {
      case 'dss':
      case 'extensions':
        return Level.dss;
      case 'metadata':
      case 'struct':
      case 'formRes':
      case 'fieldValue':
      case 'apDict':
      case 'appearance':
        return newO === undefined ? Level.other : Level.form;
      case 'annot':
        return Level.annot;
      case 'sigAppearance':
        return Level.other;
      case 'trailerKey':
        // a number the trailer named but the file never defined (a writer reusing it) is not a change
        return oldO === undefined ? Level.none : Level.other;
      case 'catalog': {
        if (!oldD || !newD) return Level.other;
        let lv: LevelValue = Level.none;
        for (const k of changedKeys()) {
          if (k === 'DSS' || k === 'Extensions') lv = Math.max(lv, Level.dss) as LevelValue;
          else if (
            k === 'AcroForm' ||
            k === 'Metadata' ||
            k === 'StructTreeRoot' ||
            k === 'MarkInfo' ||
            k === 'Version'
          )
            lv = Math.max(lv, Level.form) as LevelValue;
          else return Level.other;
        }
        return lv;
      }
      case 'acroform': {
        if (!oldD || !newD) return Level.other;
        let lv: LevelValue = Level.none;
        for (const k of changedKeys()) {
          if (k === 'Fields')
            lv = Math.max(lv, this.additionsLevel(prev, cur, oldD.v.get(k), newD.v.get(k))) as LevelValue;
          else if (['DR', 'DA', 'SigFlags', 'NeedAppearances'].includes(k))
            lv = Math.max(lv, Level.form) as LevelValue;
          else return Level.other;
        }
        return lv;
      }
      case 'fields':
      case 'annots':
        return this.additionsLevel(prev, cur, oldO ?? undefined, newO ?? undefined);
      case 'field':
      case 'widget': {
        if (!oldD || !newD) return Level.other;
        let lv: LevelValue = Level.none;
        for (const k of changedKeys()) {
          if (k === 'V') {
            const oldV = this.typeOf(prev, oldD.v.get('V'));
            if (oldV && (oldV.v.has('ByteRange') || isName(oldV.v.get('Type'), 'Sig'))) return Level.other;
            const newV = this.typeOf(cur, newD.v.get('V'));
            if (!(newV && (newV.v.has('ByteRange') || isName(newV.v.get('Type'), 'Sig')))) notes.fill = true;
            lv = Math.max(lv, Level.form) as LevelValue;
          } else if (k === 'Kids')
            lv = Math.max(lv, this.additionsLevel(prev, cur, oldD.v.get(k), newD.v.get(k))) as LevelValue;
          else if ((k === 'AP' || k === 'AS' || k === 'MK') && this.signedSigNodes(prev).has(num))
            return Level.other; // a signature's appearance never changes after it is made
          else if (['AP', 'AS', 'MK', 'DA', 'P', 'Lock', 'SV', 'DV'].includes(k))
            lv = Math.max(lv, Level.form) as LevelValue;
          else if (k === 'F' && this.onlyLockBits(oldD.v.get('F'), newD.v.get('F')))
            lv = Math.max(lv, Level.form) as LevelValue;
          else if (k === 'Ff' && onlyReadOnly(oldD.v.get('Ff'), newD.v.get('Ff')))
            lv = Math.max(lv, Level.form) as LevelValue;
          else if (['T', 'TU', 'TM'].includes(k) && sameText(oldD.v.get(k), newD.v.get(k))) continue;
          else return Level.other;
        }
        return lv;
      }
      case 'page': {
        if (!oldD || !newD) return Level.other;
        let lv: LevelValue = Level.none;
        for (const k of changedKeys()) {
          if (k === 'Annots')
            lv = Math.max(lv, this.additionsLevel(prev, cur, oldD.v.get(k), newD.v.get(k))) as LevelValue;
          else return Level.other;
        }
        return lv;
      }
      default:
        return Level.other;
    }
  }

  /** Annotation flag changes that only lock or unlock (ReadOnly, Locked, LockedContents) or set Print. */
  private onlyLockBits(a: PdfObject | undefined, b: PdfObject | undefined): boolean {
    const x = typeof a === 'number' ? a : 0;
    const y = typeof b === 'number' ? b : 0;
    return ((x ^ y) & ~(4 | 64 | 128 | 512)) === 0;
  }

  /** Changes made by revision `i` relative to revision `i - 1`. */
  diff(i: number): RevisionDiff {
    const cached = this.diffCache.get(i);
    if (cached) return cached;
    const pdf = this.pdf;
    const prev = pdf.revisions[i - 1];
    const cur = pdf.revisions[i];
    const roles = this.roles(prev);
    const changes: string[] = [];
    const disallowedReasons: string[] = [];
    const notes = { fill: false };
    let level: LevelValue = Level.none;
    // the trailer decides what is shown: another catalog (or encryption) is another document
    for (const key of ['Root', 'Encrypt']) {
      if (!sameContent(prev.trailer.v.get(key), cur.trailer.v.get(key))) {
        const what = `the trailer's /${key} changed`;
        changes.push(what);
        disallowedReasons.push(what);
        level = Level.other;
      }
    }
    // a key of its own in the trailer points readers at objects no rule judges (old Acrobat's /DocChecksum aside)
    for (const key of new Set([...prev.trailer.v.keys(), ...cur.trailer.v.keys()])) {
      if (TRAILER_KEYS.has(key) || key === 'DocChecksum') continue;
      // writers drop keys they do not know: only a key given a new value points readers somewhere new
      const now = cur.trailer.v.get(key);
      if (now !== undefined && !sameContent(prev.trailer.v.get(key), now)) {
        const what = `the trailer's /${key} changed`;
        changes.push(what);
        disallowedReasons.push(what);
        level = Level.other;
      }
    }
    let touchesPages = level === Level.other; // the trailer pointed elsewhere: everything may differ
    const nums = new Set<number>([...cur.table.keys(), ...prev.table.keys()]);
    let n = 0;
    for (const num of nums) {
      if ((++n & 0xff) === 0) this.deadline();
      const a = prev.table.get(num);
      const b = cur.table.get(num);
      // an object in an object stream is unchanged only when the stream itself is (a rewritten stream
      // changes its objects without touching their entries)
      if (entryEq(a, b) && (a?.type !== 2 || entryEq(prev.table.get(a.objStm), cur.table.get(a.objStm))))
        continue;
      const r = roles.get(num);
      if (!r || r.size === 0) continue; // not used by the earlier revision: only reachable through changed objects
      const oldO = pdf.entryObject(prev, num)?.obj;
      const newO = pdf.entryObject(cur, num)?.obj;
      if (oldO !== undefined && newO !== undefined && sameContent(oldO, newO)) continue;
      let lv: LevelValue = Level.none;
      for (const role of r)
        lv = Math.max(lv, this.judge(prev, cur, role, oldO, newO, notes, num)) as LevelValue;
      if (!touchesPages) touchesPages = [...r].some((role) => this.drawnChange(prev, cur, role, oldO, newO));
      const what = `object ${num} (${[...r].join(', ')}) ${newO === undefined ? 'removed' : oldO === undefined ? 'defined' : 'changed'}`;
      changes.push(what);
      if (lv === Level.other) disallowedReasons.push(what);
      level = Math.max(level, lv) as LevelValue;
    }
    const result = { level, changes, disallowedReasons, fill: notes.fill, touchesPages };
    this.diffCache.set(i, result);
    return result;
  }

  /** Whether changing an object of this role may change what a page shows (see RevisionDiff.touchesPages). */
  private drawnChange(
    prev: Revision,
    cur: Revision,
    role: Role,
    oldO: PdfObject | undefined,
    newO: PdfObject | undefined,
  ): boolean {
    if (UNDRAWN.has(role)) return false;
    const signedNow = this.signedSigNodes(cur);
    const onlySignatures = (a: PdfObject | undefined, b: PdfObject | undefined): boolean => {
      const before = this.refList(prev, a);
      const after = this.refList(cur, b);
      const arr = this.pdf.resolve(cur, b);
      if (!before.every((x) => after.includes(x)) || !isArray(arr)) return false;
      return arr.v.every(
        (el) =>
          before.includes(isRef(el) ? `${el.num} ${el.gen}` : JSON.stringify(el)) ||
          (isRef(el) && signedNow.has(el.num)),
      );
    };
    if (role === 'annots') return !onlySignatures(oldO, newO);
    if (role === 'page') {
      const a = isDict(oldO) ? oldO : undefined;
      const b = isDict(newO) ? newO : undefined;
      if (!a || !b) return true;
      for (const k of new Set([...a.v.keys(), ...b.v.keys()])) {
        if (k === 'Annots') {
          if (!onlySignatures(a.v.get(k), b.v.get(k))) return true;
        } else if (!sameContent(a.v.get(k), b.v.get(k))) return true;
      }
      return false;
    }
    return true;
  }

  /** True when revision i adds only document time-stamps (and no form filling). */
  onlyTimestamps(i: number, sigsPerRevision: Map<number, string[]>): boolean {
    const kinds = sigsPerRevision.get(i) ?? [];
    const d = this.diff(i) as RevisionDiff & { fill?: boolean };
    return kinds.length > 0 && kinds.every((k) => k === 'doc_timestamp') && !d.fill;
  }
}
