/**
 * The form-level edits every update of this engine makes: find fields by name, add a field to the
 * AcroForm (creating it when missing), add widgets to a page's /Annots. Each object is rewritten at most
 * once per update and only the objects that must change are touched, so earlier signatures see form-level
 * changes only (ISO 32000-2 12.8.2.2: allowed after an approval signature).
 */
import {
  isArray,
  isDict,
  isName,
  isRef,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  textOf,
} from '../parse/objects.ts';
import type { PdfBase } from './pdf-base.ts';
import { arr, dict, type IncrementalUpdate, ref, withEntries } from './pdf-writer.ts';

export type FieldInfo = {
  /** fully qualified name (parent.kid) */
  name: string;
  ref: PdfRef;
  dict: PdfDict;
  /** field type, inherited from parents */
  ft: string | undefined;
  /** the field has a value: for a signature field, it is signed */
  hasValue: boolean;
};

/** Every terminal field of the AcroForm with its qualified name. */
export function listFields(base: PdfBase): FieldInfo[] {
  const out: FieldInfo[] = [];
  const acro = base.dictOf(base.catalog().v.get('AcroForm'));
  const fields = base.resolve(acro?.v.get('Fields'));
  if (!isArray(fields)) return out;
  const seen = new Set<number>();
  const walk = (o: PdfObject, parent: string, ft: string | undefined, depth: number) => {
    if (!isRef(o) || depth > 32 || seen.has(o.num)) return;
    seen.add(o.num);
    const d = base.dictOf(o);
    if (!d) return;
    const t = textOf(d.v.get('T'));
    const full = t === undefined ? parent : parent ? `${parent}.${t}` : t;
    const myFt = isName(d.v.get('FT')) ? (d.v.get('FT') as { v: string }).v : ft;
    const kids = base.resolve(d.v.get('Kids'));
    // Kids without /T are widgets of this field, not fields of their own.
    const fieldKids = isArray(kids) ? kids.v.filter((k) => base.dictOf(k)?.v.has('T')) : [];
    if (fieldKids.length > 0) {
      for (const k of fieldKids) walk(k, full, myFt, depth + 1);
      return;
    }
    if (t !== undefined || parent)
      out.push({
        name: full,
        ref: o,
        dict: d,
        ft: myFt,
        hasValue: d.v.get('V') !== undefined && d.v.get('V') !== null,
      });
  };
  for (const f of fields.v) walk(f, '', undefined, 0);
  return out;
}

/**
 * Adds `fields` to /AcroForm /Fields and sets /SigFlags 3 (signatures exist, append only). Rewrites the
 * AcroForm object when it is indirect, the catalog otherwise; an indirect /Fields array is rewritten in place.
 * `opts.sigFlags: false` (form fields added before any signature) leaves /SigFlags alone; `opts.dr` is a
 * default-resources dictionary given to a form that has none (the font the fields' /DA names).
 */
export function addToAcroForm(
  update: IncrementalUpdate,
  base: PdfBase,
  fields: PdfRef[],
  opts: { sigFlags?: boolean; dr?: PdfDict } = {},
): void {
  const catalog = base.catalog();
  const acroRaw = catalog.v.get('AcroForm');
  const acro = base.dictOf(acroRaw) ?? dict({});
  const fieldsRaw = acro.v.get('Fields');
  const existing = base.resolve(fieldsRaw);
  const list = [...(isArray(existing) ? existing.v : []), ...fields];
  let newAcro = acro;
  if (isRef(fieldsRaw) && isArray(existing)) {
    if (fields.length > 0) update.put(fieldsRaw, arr(...list));
  } else newAcro = withEntries(newAcro, { Fields: arr(...list) });
  if (opts.dr && !acro.v.has('DR')) newAcro = withEntries(newAcro, { DR: opts.dr });
  const flags = base.resolve(acro.v.get('SigFlags'));
  if (opts.sigFlags !== false && (typeof flags !== 'number' || (flags & 3) !== 3))
    newAcro = withEntries(newAcro, { SigFlags: (typeof flags === 'number' ? flags : 0) | 3 });
  if (newAcro === acro) return;
  if (isRef(acroRaw) && isDict(base.resolve(acroRaw))) update.put(acroRaw, newAcro);
  else {
    const r = update.alloc();
    update.put(r, newAcro);
    update.put(base.rootRef(), withEntries(catalog, { AcroForm: r }));
  }
}

/** Appends widget annotations to a page's /Annots (the array object when indirect, else the page). */
export function addAnnots(
  update: IncrementalUpdate,
  base: PdfBase,
  page: { ref: PdfRef; dict: PdfDict },
  annots: PdfRef[],
): void {
  const raw = page.dict.v.get('Annots');
  const existing = base.resolve(raw);
  const list = arr(...(isArray(existing) ? existing.v : []), ...annots);
  if (isRef(raw) && isArray(existing)) update.put(raw, list);
  else update.put(ref(page.ref.num, page.ref.gen), withEntries(page.dict, { Annots: list }));
}

/** A field name not yet used, `${prefix}${n}`. */
export function freeFieldName(existing: FieldInfo[], prefix = 'Signature'): string {
  const names = new Set(existing.map((f) => f.name));
  for (let n = existing.length + 1; ; n++) if (!names.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** PDF date string in UTC, e.g. D:20260101120000+00'00'. */
export function pdfDate(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `D:${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+00'00'`;
}
