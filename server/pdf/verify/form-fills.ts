/**
 * Form filling across revisions (issue 28): which fields each revision filled (their /V set or changed),
 * and which fields a signature vouches for: those holding a value in the revision it signed (an unticked
 * checkbox holds none), and those its field's /Lock names (ISO 32000-2 12.7.5.5, SigFieldLock). A later
 * revision that changes such a field's value is a disallowed change for that signature, although changing
 * /V is form filling otherwise.
 * Fields are found as viewers find them: /AcroForm /Fields and /Kids of each revision, by qualified name.
 */
import type { Deadline, PdfFile, Revision } from '../parse/document.ts';
import { isArray, isDict, isName, isRef, isStream, type PdfObject, textOf } from '../parse/objects.ts';
import type { FormFill } from './types.ts';

/** A field's value ('' for none), the label a person reads (its /TU, else its name), and whether it is a checkbox. */
type FieldValue = { value: string; label: string; checkbox: boolean };
/** Fields of a revision by qualified name: terminal fields that are not signature fields. */
type Values = Map<string, FieldValue>;

/** Fields walked per revision at most (a form of thousands of fields is still read whole). */
const MAX_STEPS = 50_000;

function valueText(pdf: PdfFile, rev: Revision, v: PdfObject | undefined): string {
  const o = pdf.resolve(rev, v);
  if (o === undefined || o === null) return '';
  if (isName(o)) return o.v;
  if (isArray(o))
    return o.v
      .map((x) => textOf(pdf.resolve(rev, x)) ?? '')
      .filter((x) => x !== '')
      .join(', ');
  return textOf(o) ?? (typeof o === 'number' || typeof o === 'boolean' ? String(o) : '');
}

/** The terminal fields of `rev` and their values (a value inherited from a parent field counts). */
export function fieldValues(pdf: PdfFile, rev: Revision): Values {
  const out: Values = new Map();
  const acro = pdf.getDict(rev, pdf.catalog(rev), 'AcroForm');
  const fields = pdf.resolve(rev, acro?.v.get('Fields'));
  if (!isArray(fields)) return out;
  const seen = new Set<number>();
  let steps = 0;
  const walk = (
    o: PdfObject,
    parent: string,
    ft: string | undefined,
    v: PdfObject | undefined,
    tu: string | undefined,
    depth: number,
  ) => {
    if (depth > 32 || steps++ > MAX_STEPS) return;
    if (isRef(o)) {
      if (seen.has(o.num)) return;
      seen.add(o.num);
    }
    const r = pdf.resolve(rev, o);
    const d = isDict(r) ? r : isStream(r) ? r.dict : undefined;
    if (!d) return;
    const t = textOf(d.v.get('T'));
    const full = t === undefined ? parent : parent ? `${parent}.${t}` : t;
    const f = d.v.get('FT');
    const myFt = isName(f) ? f.v : ft;
    const myV = d.v.has('V') ? d.v.get('V') : v;
    const myTu = textOf(pdf.resolve(rev, d.v.get('TU'))) ?? tu;
    const kids = pdf.resolve(rev, d.v.get('Kids'));
    const fieldKids = isArray(kids)
      ? kids.v.filter((k) => {
          const kd = pdf.resolve(rev, k);
          return isDict(kd) && kd.v.has('T');
        })
      : [];
    if (fieldKids.length > 0) {
      for (const k of fieldKids) walk(k, full, myFt, myV, myTu, depth + 1);
      return;
    }
    if (full === '' || myFt === 'Sig') return;
    const ff = pdf.resolve(rev, d.v.get('Ff'));
    // a check box: /Btn neither radio button (bit 16) nor push button (bit 17)
    const checkbox = myFt === 'Btn' && (typeof ff === 'number' ? (ff & (3 << 15)) === 0 : true);
    out.set(full, { value: valueText(pdf, rev, myV), label: myTu?.trim() || full, checkbox });
  };
  for (const f of fields.v) walk(f, '', undefined, undefined, undefined, 0);
  return out;
}

/** Reads the fields of every revision once and compares each with the one before it. */
export class FormFills {
  private readonly pdf: PdfFile;
  private readonly deadline: Deadline;
  private readonly values = new Map<number, Values>();

  constructor(pdf: PdfFile, deadline: Deadline) {
    this.pdf = pdf;
    this.deadline = deadline;
  }

  valuesAt(i: number): Values {
    let v = this.values.get(i);
    if (!v) {
      this.deadline();
      v = fieldValues(this.pdf, this.pdf.revisions[i]);
      this.values.set(i, v);
    }
    return v;
  }

  /** Fields whose value revision `i` (0-based, > 0) set, changed or removed, with the value it left. */
  changedIn(i: number): FormFill['fields'] {
    const before = this.valuesAt(i - 1);
    const after = this.valuesAt(i);
    const out: FormFill['fields'] = [];
    for (const [name, f] of after) if ((before.get(name)?.value ?? '') !== f.value) out.push({ name, ...f });
    for (const [name, f] of before)
      if (f.value !== '' && !after.has(name)) out.push({ name, ...f, value: '' });
    return out;
  }

  /** What each revision after the first filled (revisions numbered from 1, as in the report's changes). */
  all(): FormFill[] {
    const out: FormFill[] = [];
    for (let i = 1; i < this.pdf.revisions.length; i++) {
      const fields = this.changedIn(i);
      if (fields.length > 0) out.push({ revision: i + 1, fields });
    }
    return out;
  }

  /**
   * The fields a signature signed in revision `i` (0-based) vouches for: those with a value then, and those
   * the /Lock of its field names (all of them for /Action /All, all others for /Exclude).
   */
  covered(i: number, fieldObjNum: number | null): (name: string) => boolean {
    const rev = this.pdf.revisions[i];
    const vals = this.valuesAt(i);
    // an unticked checkbox (/Off) holds no value: it may be ticked later, as any empty field may be filled
    const withValue = new Set(
      [...vals].filter(([, v]) => v.value !== '' && !(v.checkbox && v.value === 'Off')).map(([n]) => n),
    );
    let locked: (name: string) => boolean = () => false;
    if (fieldObjNum !== null) {
      const field = this.pdf.entryObject(rev, fieldObjNum)?.obj;
      const lock = isDict(field) ? this.pdf.resolve(rev, field.v.get('Lock')) : undefined;
      if (isDict(lock)) {
        const action = lock.v.get('Action');
        const list = this.pdf.resolve(rev, lock.v.get('Fields'));
        const names = new Set(
          isArray(list) ? list.v.map((x) => textOf(this.pdf.resolve(rev, x)) ?? '').filter(Boolean) : [],
        );
        // a name in /Fields may be a partial name: it locks the fields below it too
        const listed = (n: string) => [...names].some((x) => n === x || n.startsWith(`${x}.`));
        if (isName(action, 'All')) locked = () => true;
        else if (isName(action, 'Exclude')) locked = (n) => !listed(n);
        else if (isName(action, 'Include')) locked = listed;
      }
    }
    return (name) => withValue.has(name) || locked(name);
  }
}
