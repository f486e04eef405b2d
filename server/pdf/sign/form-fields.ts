/**
 * Fields a signer fills (issue 28). At launch, `addFormFields` appends one incremental update (no
 * signature) holding EMPTY AcroForm fields, one widget each. When a party signs, `signPdf` (sign-pdf.ts,
 * option `fill`) writes that party's values with `planFills`/`writeFills` into the SAME update as the
 * signature: each field's /V, its widget's appearance drawing the value, the ReadOnly flag; and the new
 * signature field locks them (/Lock, SigFieldLock). Earlier signatures see form filling only (ISO 32000-2
 * 12.8.2.2), and the signature covers the values it filled.
 */
import type { FieldKind } from '#contract/rules/fields.ts';
import { FIELD_KINDS } from '#contract/rules/fields.ts';
import { isArray, isString, type PdfDict, type PdfObject, type PdfRef, textOf } from '../parse/objects.ts';
import { renderValueBoxes } from '../compose/field-appearance.ts';
import { embedPdfPages } from './appearance.ts';
import { SignError, SignErrorCode } from './errors.ts';
import { addAnnots, addToAcroForm, type FieldInfo, listFields } from './form.ts';
import type { PageInfo, PdfBase } from './pdf-base.ts';
import { parsedForSigning } from './repair.ts';
import { arr, dict, IncrementalUpdate, name, num, textString, withEntries } from './pdf-writer.ts';

export type NewFormField = {
  /** the field's /T: unique in the document, no period (a period separates the parts of a qualified name) */
  name: string;
  kind: FieldKind;
  /** 0-based */
  pageIndex: number;
  /** the widget in PDF points of the unrotated page, origin bottom-left */
  rect: readonly [number, number, number, number];
  /** the choices of a radio or select field (shown as a drop-down list) */
  options?: readonly string[];
  /** what a person calls the field (its /TU): viewers show it, the verifier reports it with the value */
  label?: string;
};

/** A value written when a party signs: text (radio/select: one of the options), or a checkbox's tick. */
export type FieldFillInput = { name: string; value: string | boolean };

/** Field flags (ISO 32000-2 12.7.4): ReadOnly; Tx Multiline; Ch Combo; Btn Radio and Pushbutton. */
const FF_READ_ONLY = 1;
const FF_MULTILINE = 1 << 12;
const FF_RADIO = 1 << 15;
const FF_PUSHBUTTON = 1 << 16;
const FF_COMBO = 1 << 17;
/** Widget flag Print: an empty field's box is printed too (where to write on a printed copy). */
const WIDGET_PRINT = 4;

/** The light box an empty field shows (background, border), as /MK and in its appearance. */
const BG = [0.93, 0.95, 1] as const;
const BORDER = [0.62, 0.7, 0.86] as const;
/** The ink of a tick (the colour of drawn values, see compose/field-appearance.ts). */
const INK = [0.05, 0.05, 0.2] as const;

const bad = (detail: string) => new SignError(SignErrorCode.BadOptions, detail);
const rgbOps = (c: readonly number[]) => c.map((x) => num(x)).join(' ');

function boxOps(w: number, h: number): string {
  return `q ${rgbOps(BG)} rg ${rgbOps(BORDER)} RG 0.75 w 0.375 0.375 ${num(w - 0.75)} ${num(h - 0.75)} re B Q`;
}

function tickOps(w: number, h: number): string {
  const side = Math.min(w, h);
  const x = (w - side) / 2;
  const y = (h - side) / 2;
  const p = (fx: number, fy: number) => `${num(x + side * fx)} ${num(y + side * fy)}`;
  const t = Math.max(0.8, side * 0.12);
  return `q ${rgbOps(INK)} RG ${num(t)} w 1 J 1 j ${p(0.18, 0.52)} m ${p(0.42, 0.24)} l ${p(0.84, 0.82)} l S Q`;
}

function formStream(update: IncrementalUpdate, w: number, h: number, ops: string): PdfRef {
  const r = update.alloc();
  update.stream(
    r,
    dict({ Type: name('XObject'), Subtype: name('Form'), BBox: arr(0, 0, w, h), Resources: dict({}) }),
    new TextEncoder().encode(ops),
    true,
  );
  return r;
}

function normRect(r: readonly number[], what: string): [number, number, number, number] {
  if (r.length !== 4 || !r.every(Number.isFinite))
    throw bad(`field ${what}: the rectangle is not four numbers`);
  const [x1, y1, x2, y2] = [
    Math.min(r[0], r[2]),
    Math.min(r[1], r[3]),
    Math.max(r[0], r[2]),
    Math.max(r[1], r[3]),
  ];
  if (x2 - x1 < 1 || y2 - y1 < 1) throw bad(`field ${what}: the rectangle is empty`);
  return [x1, y1, x2, y2];
}

/** The font a text field's /DA names, given to a form without default resources. */
const HELV = dict({
  Font: dict({
    Helv: dict({
      Type: name('Font'),
      Subtype: name('Type1'),
      BaseFont: name('Helvetica'),
      Encoding: name('WinAnsiEncoding'),
    }),
  }),
});

/**
 * Appends one incremental update (no signature) adding an EMPTY AcroForm field with one widget for each
 * of `fields`: text-like kinds (text, multiline, number, date, signDate, idNumber, phone, attachment) are
 * /Tx, a checkbox /Btn with /Off and /Yes appearances, radio and select a /Ch drop-down with /Opt. The
 * input is read as the signer reads it: give it what `prepareForSigning` returned (the launch repairs a
 * damaged file first and records it; a damaged file given as it is is refused BROKEN_XREF). Throws
 * SignError: BadOptions naming the field (a name already used or given twice, a name with a period, an
 * unknown kind, a choice without options, an empty rectangle), BadOptions for a document that already
 * carries a signature (new fields would break it), PageOutOfRange, and every refusal of the signer
 * (encryption, damage).
 */
export function addFormFields(input: Uint8Array, fields: readonly NewFormField[]): Uint8Array {
  const base = parsedForSigning(input);
  const existing = listFields(base);
  // new fields after a signature are annotation-level changes, which break it (ISO 32000-2 12.8.2.2)
  const signed = existing.find((f) => f.ft === 'Sig' && f.hasValue);
  if (signed)
    throw bad(`the document is already signed (${signed.name}): fields are added before the first signature`);
  const taken = new Set(existing.map((f) => f.name));
  for (const f of fields) {
    if (typeof f.name !== 'string' || f.name === '') throw bad('a field needs a name');
    if (f.name.includes('.')) throw bad(`field ${f.name}: a name must not contain a period`);
    if (taken.has(f.name)) throw bad(`field ${f.name}: the document already has a field of that name`);
    taken.add(f.name);
    if (!FIELD_KINDS.includes(f.kind)) throw bad(`field ${f.name}: unknown kind ${String(f.kind)}`);
    if ((f.kind === 'radio' || f.kind === 'select') && !(f.options && f.options.length > 0))
      throw bad(`field ${f.name}: a ${f.kind} field needs options`);
  }
  if (fields.length === 0) return input;
  const update = new IncrementalUpdate(base);
  const byPage = new Map<number, { page: PageInfo; widgets: PdfRef[] }>();
  const refs: PdfRef[] = [];
  for (const f of fields) {
    const page = base.page(f.pageIndex);
    const [x1, y1, x2, y2] = normRect(f.rect, f.name);
    const w = x2 - x1;
    const h = y2 - y1;
    const r = update.alloc();
    const common = {
      Type: name('Annot'),
      Subtype: name('Widget'),
      Rect: arr(x1, y1, x2, y2),
      P: page.ref,
      F: WIDGET_PRINT,
      T: textString(f.name),
      TU: f.label ? textString(f.label) : undefined,
      MK: dict({ BG: arr(...BG), BC: arr(...BORDER) }),
    };
    let entries: Record<string, PdfObject | undefined>;
    if (f.kind === 'checkbox') {
      const off = formStream(update, w, h, boxOps(w, h));
      const yes = formStream(update, w, h, `${boxOps(w, h)} ${tickOps(w, h)}`);
      entries = {
        ...common,
        FT: name('Btn'),
        AS: name('Off'),
        AP: dict({ N: dict({ Yes: yes, Off: off }) }),
      };
    } else {
      const empty = formStream(update, w, h, boxOps(w, h));
      const choice = f.kind === 'radio' || f.kind === 'select';
      entries = {
        ...common,
        FT: name(choice ? 'Ch' : 'Tx'),
        Ff: choice ? FF_COMBO : f.kind === 'multiline' ? FF_MULTILINE : undefined,
        Opt: choice ? arr(...(f.options ?? []).map(textString)) : undefined,
        DA: textString('/Helv 0 Tf 0 g'),
        AP: dict({ N: empty }),
      };
    }
    update.put(r, dict(entries));
    refs.push(r);
    const entry = byPage.get(page.index) ?? { page, widgets: [] };
    entry.widgets.push(r);
    byPage.set(page.index, entry);
  }
  addToAcroForm(update, base, refs, { sigFlags: false, dr: HELV });
  for (const { page, widgets } of byPage.values()) addAnnots(update, base, page, widgets);
  return update.finish().bytes;
}

/** One fill checked against the document, ready to write. */
export type FillPlan = {
  field: FieldInfo;
  /** the widgets to draw on: the field itself when merged with its widget, else its widget kids */
  widgets: { ref: PdfRef; dict: PdfDict; width: number; height: number }[];
} & (
  | { kind: 'text'; text: string; multiline: boolean }
  | { kind: 'choice'; text: string; export: string }
  | { kind: 'checkbox'; ticked: boolean }
);

const intOf = (o: PdfObject | undefined): number => (typeof o === 'number' ? o : 0);

/** The field's flags, inherited from its parents when it has none of its own. */
function flagsOf(base: PdfBase, f: FieldInfo): number {
  let d: PdfDict | undefined = f.dict;
  for (let i = 0; d && i < 32; i++) {
    if (d.v.has('Ff')) return intOf(base.resolve(d.v.get('Ff')));
    d = base.dictOf(d.v.get('Parent'));
  }
  return 0;
}

function widgetsOf(base: PdfBase, f: FieldInfo): FillPlan['widgets'] {
  const kids = base.resolve(f.dict.v.get('Kids'));
  const list: { ref: PdfRef; dict: PdfDict }[] = [];
  if (isArray(kids)) {
    for (const k of kids.v) {
      const d = base.dictOf(k);
      if (d && k && typeof k === 'object' && 't' in k && k.t === 'ref') list.push({ ref: k, dict: d });
    }
  } else list.push({ ref: f.ref, dict: f.dict });
  return list.map((x) => {
    const rect = base.resolve(x.dict.v.get('Rect'));
    const n = isArray(rect) ? rect.v.map((y) => base.resolve(y)) : [];
    if (n.length !== 4 || !n.every((y) => typeof y === 'number'))
      throw bad(`field ${f.name}: its widget has no rectangle`);
    const [x1, y1, x2, y2] = n as number[];
    return { ...x, width: Math.max(1, Math.abs(x2 - x1)), height: Math.max(1, Math.abs(y2 - y1)) };
  });
}

/** The options of a choice field as [export value, shown text]. */
function optionsOf(base: PdfBase, d: PdfDict): [string, string][] {
  const opt = base.resolve(d.v.get('Opt'));
  if (!isArray(opt)) return [];
  const out: [string, string][] = [];
  for (const o of opt.v) {
    const v = base.resolve(o);
    if (isString(v)) {
      const t = textOf(v) ?? '';
      out.push([t, t]);
    } else if (isArray(v) && v.v.length === 2) {
      const e = textOf(base.resolve(v.v[0]));
      const s = textOf(base.resolve(v.v[1]));
      if (e !== undefined) out.push([e, s ?? e]);
    }
  }
  return out;
}

/**
 * Checks every fill against the document before anything is written. Throws BadOptions naming the field:
 * no field of that name, a field named twice, a signature field or a push button or radio button, a value
 * of the wrong kind (a checkbox takes true/false, the others text), a choice that is not one of the
 * field's options, or a field already filled (it has a value or is read-only: filled when an earlier
 * party signed).
 */
export function planFills(base: PdfBase, fields: FieldInfo[], fills: readonly FieldFillInput[]): FillPlan[] {
  const seen = new Set<string>();
  return fills.map((fill) => {
    const f = fields.find((x) => x.name === fill.name);
    if (!f) throw bad(`field ${fill.name}: the document has no field of that name`);
    if (seen.has(f.name)) throw bad(`field ${f.name}: filled twice`);
    seen.add(f.name);
    const ff = flagsOf(base, f);
    if (f.hasValue || ff & FF_READ_ONLY) throw bad(`field ${f.name}: already filled and signed`);
    const widgets = widgetsOf(base, f);
    if (f.ft === 'Btn') {
      if (ff & (FF_RADIO | FF_PUSHBUTTON)) throw bad(`field ${f.name}: not a checkbox`);
      if (typeof fill.value !== 'boolean') throw bad(`field ${f.name}: a checkbox takes true or false`);
      return { field: f, widgets, kind: 'checkbox', ticked: fill.value };
    }
    if (typeof fill.value !== 'string') throw bad(`field ${f.name}: the value must be text`);
    if (f.ft === 'Tx')
      return { field: f, widgets, kind: 'text', text: fill.value, multiline: !!(ff & FF_MULTILINE) };
    if (f.ft === 'Ch') {
      const v = fill.value;
      const hit = optionsOf(base, f.dict).find(([e, s]) => e === v || s === v);
      if (!hit) throw bad(`field ${f.name}: "${v}" is not one of its options`);
      return { field: f, widgets, kind: 'choice', text: hit[1], export: hit[0] };
    }
    throw bad(`field ${f.name}: a ${f.ft ?? 'typeless'} field cannot be filled`);
  });
}

/** The name of a checkbox widget's "on" appearance state (Yes unless the widget names another). */
function onState(base: PdfBase, widget: PdfDict): string | undefined {
  const n = base.dictOf(base.dictOf(widget.v.get('AP'))?.v.get('N'));
  if (!n) return undefined;
  for (const k of n.v.keys()) if (k !== 'Off') return k;
  return undefined;
}

/**
 * Writes the planned fills into `update` (the signature's update): /V, ReadOnly, and each widget's
 * appearance drawing the value (text in the CJK font, rendered once for all fields), a checkbox's /AS.
 * Returns the names filled, for the signature field's /Lock.
 */
export async function writeFills(update: IncrementalUpdate, plans: readonly FillPlan[]): Promise<string[]> {
  const base = update.base;
  const drawn = plans.flatMap((p) =>
    p.kind === 'checkbox' || p.text === ''
      ? []
      : p.widgets.map((w) => ({
          width: w.width,
          height: w.height,
          text: p.text,
          multiline: p.kind === 'text' && p.multiline,
        })),
  );
  const forms = drawn.length > 0 ? embedPdfPages(update, await renderValueBoxes(drawn)) : [];
  let next = 0;
  for (const p of plans) {
    let value: PdfObject;
    if (p.kind === 'checkbox') {
      const on = p.widgets.map((w) => onState(base, w.dict)).find((s) => s !== undefined) ?? 'Yes';
      value = name(p.ticked ? on : 'Off');
    } else value = textString(p.kind === 'choice' ? p.export : p.text);
    const changes = (w: FillPlan['widgets'][number]): Record<string, PdfObject | undefined> => {
      if (p.kind === 'checkbox') {
        const state = p.ticked ? (onState(base, w.dict) ?? 'Yes') : 'Off';
        const ap = onState(base, w.dict)
          ? undefined
          : dict({
              N: dict({
                Yes: formStream(
                  update,
                  w.width,
                  w.height,
                  `${boxOps(w.width, w.height)} ${tickOps(w.width, w.height)}`,
                ),
                Off: formStream(update, w.width, w.height, boxOps(w.width, w.height)),
              }),
            });
        return { AS: name(state), AP: ap };
      }
      if (p.text === '') return {};
      return { AP: dict({ N: forms[next++] }) };
    };
    const ff = flagsOf(base, p.field) | FF_READ_ONLY;
    const merged = p.widgets.length === 1 && p.widgets[0].ref.num === p.field.ref.num;
    if (merged) {
      const c = changes(p.widgets[0]);
      update.put(
        p.field.ref,
        withEntries(p.field.dict, { ...c, AP: c.AP ?? p.field.dict.v.get('AP'), V: value, Ff: ff }),
      );
    } else {
      update.put(p.field.ref, withEntries(p.field.dict, { V: value, Ff: ff }));
      for (const w of p.widgets) {
        const c = changes(w);
        if (Object.keys(c).length > 0)
          update.put(w.ref, withEntries(w.dict, { ...c, AP: c.AP ?? w.dict.v.get('AP') }));
      }
    }
  }
  return plans.map((p) => p.field.name);
}

/** The /Lock of the signature field that filled `names`: those fields never change after signing. */
export function lockOf(names: readonly string[]): PdfDict {
  return dict({
    Type: name('SigFieldLock'),
    Action: name('Include'),
    Fields: arr(...names.map(textString)),
  });
}
