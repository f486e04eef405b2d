/**
 * One party's signature: exactly one incremental update appended to the input, holding a visible
 * signature widget whose appearance is the seal, the signature dictionary and a PAdES B-T CMS; optionally
 * the strips of a cross-page seal. The input bytes are never changed: the output starts with them.
 */
import { isArray, type PdfObject, type PdfRef } from '../parse/objects.ts';
import { type Appearance, appearanceFromPdf, appearanceFromPng, placeSeal } from './appearance.ts';
import { buildCadesSignature, type Signer, type TimestampFn } from './cms.ts';
import { SignError, SignErrorCode } from './errors.ts';
import { parsedForSigning } from './repair.ts';
import { addAnnots, addToAcroForm, type FieldInfo, freeFieldName, listFields, pdfDate } from './form.ts';
import { type FieldFillInput, lockOf, planFills, writeFills } from './form-fields.ts';
import type { PageInfo, PdfBase } from './pdf-base.ts';
import { arr, dict, finishSigned, IncrementalUpdate, name, textString, withEntries } from './pdf-writer.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';
/** Widget flags Print (4) + Locked (128): printed, and the widget cannot be moved or deleted in viewers. */
const WIDGET_FLAGS = 132;

/** Where the widget goes: a rectangle in PDF user space (points, origin bottom-left), or in mm from the top-left corner. */
type Placement =
  | { pageIndex: number; rect: readonly [number, number, number, number] }
  | { pageIndex: number; mm: { left: number; top: number; width: number; height: number } };

/** The seal to show: prepared once (appearanceFromPdf/Png) or raw bytes. */
export type AppearanceInput =
  | Appearance
  | { pdf: Uint8Array }
  | { png: Uint8Array; width?: number; height?: number };

type CrossPageSealOptions = {
  /** The seal to split; defaults to the signature's own appearance. */
  appearance?: AppearanceInput;
  /** 0-based pages that get a strip, in order; default every page. */
  pageIndexes?: readonly number[];
  /** Size of the whole seal in mm; default the seal's natural size. */
  widthMm?: number;
  heightMm?: number;
  /** Distance of the seal's top from the page top in mm; default the seal is vertically centred. */
  topMm?: number;
};

export type SignPdfOptions = {
  signer: Signer;
  /** RFC 3161 token over a SHA-256 imprint (the platform TSA): makes the signature PAdES B-T. */
  timestamp?: TimestampFn;
  /** Signature field name: an existing empty signature field is used (its widget keeps its place); default a new unique name. */
  fieldName?: string;
  /** Required for a new field; ignored for an existing field, whose widget stays where it is. */
  placement?: Placement;
  appearance: AppearanceInput;
  /** Goes in /M (PAdES forbids the CMS signing-time attribute); default now. */
  signingTime?: Date;
  /** /Name, /Reason, /Location, /ContactInfo of the signature dictionary. */
  name?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** Cross-page (riding) seal in the same update: more widgets of this signature field, one strip per page. */
  crossPageSeal?: CrossPageSealOptions;
  /** Bytes reserved for the CMS; default enough for the chain and a time-stamp token. */
  contentsReserve?: number;
  /**
   * Form fields (made empty by addFormFields) this party fills, written in the signature's own update: their
   * values, appearances drawing them, ReadOnly, and a /Lock on the signature field naming them.
   */
  fill?: readonly FieldFillInput[];
};

function toAppearance(a: AppearanceInput): Appearance {
  if ('embed' in a) return a;
  if ('pdf' in a) return appearanceFromPdf(a.pdf);
  return appearanceFromPng(a.png, a.width && a.height ? { width: a.width, height: a.height } : undefined);
}

function rectOf(p: Placement, page: PageInfo): [number, number, number, number] {
  const [llx, , , ury] = page.mediaBox;
  let r: number[];
  if ('rect' in p) r = [...p.rect];
  else {
    const { left, top, width, height } = p.mm;
    const x = llx + left * PT_PER_MM;
    const yTop = ury - top * PT_PER_MM;
    r = [x, yTop - height * PT_PER_MM, x + width * PT_PER_MM, yTop];
  }
  if (r.length !== 4 || !r.every(Number.isFinite))
    throw new SignError(SignErrorCode.BadOptions, 'the rectangle is not four numbers');
  const [x1, y1, x2, y2] = [
    Math.min(r[0], r[2]),
    Math.min(r[1], r[3]),
    Math.max(r[0], r[2]),
    Math.max(r[1], r[3]),
  ];
  if (x2 - x1 < 1 || y2 - y1 < 1) throw new SignError(SignErrorCode.BadOptions, 'the rectangle is empty');
  return [x1, y1, x2, y2];
}

// Size of the last time-stamp token seen: the TSA's tokens hardly vary, so the next reserve can be tight.
// A token that grows anyway costs one more layout (finishSigned), never a broken signature.
let observedTokenBytes = 0;

/** Default /Contents room: the certificates, a signature, a time-stamp token (with two certificates) and slack. */
function defaultReserve(signer: Signer, withTimestamp: boolean): number {
  let certs = 0;
  for (const c of signer.certificateChain) certs += c.length;
  const token = withTimestamp ? (observedTokenBytes > 0 ? observedTokenBytes + 512 : 7168) : 0;
  return certs + 2048 + token;
}

function sigDictEntries(
  subFilter: string,
  opts: { time: Date; name?: string; reason?: string; location?: string; contactInfo?: string },
) {
  return dict({
    Type: name('Sig'),
    Filter: name('Adobe.PPKLite'),
    SubFilter: name(subFilter),
    M: textString(pdfDate(opts.time)),
    Name: opts.name ? textString(opts.name) : undefined,
    Reason: opts.reason ? textString(opts.reason) : undefined,
    Location: opts.location ? textString(opts.location) : undefined,
    ContactInfo: opts.contactInfo ? textString(opts.contactInfo) : undefined,
  });
}

/** The strips of a cross-page seal: one widget per page, the kids of `field`. Returns widgets per page. */
function crossPageStrips(
  update: IncrementalUpdate,
  base: PdfBase,
  seal: { form: PdfRef; width: number; height: number },
  o: CrossPageSealOptions,
): Map<number, { page: PageInfo; widgets: PdfRef[] }> {
  const pages = o.pageIndexes ?? [...Array(base.pageCount()).keys()];
  if (pages.length === 0) throw new SignError(SignErrorCode.BadOptions, 'a cross-page seal needs pages');
  const width = o.widthMm !== undefined ? o.widthMm * PT_PER_MM : seal.width;
  const height = o.heightMm !== undefined ? o.heightMm * PT_PER_MM : seal.height;
  const stripW = width / pages.length;
  const out = new Map<number, { page: PageInfo; widgets: PdfRef[] }>();
  pages.forEach((pi, i) => {
    const page = base.page(pi);
    const [, lly, urx, ury] = page.mediaBox;
    const top = o.topMm !== undefined ? ury - o.topMm * PT_PER_MM : (lly + ury + height) / 2;
    const ap = placeSeal(update, seal, stripW, height, { index: i, count: pages.length });
    const w = update.alloc();
    update.put(
      w,
      dict({
        Type: name('Annot'),
        Subtype: name('Widget'),
        P: page.ref,
        Rect: arr(urx - stripW, top - height, urx, top),
        F: WIDGET_FLAGS,
        AP: dict({ N: ap }),
      }),
    );
    const entry = out.get(pi) ?? { page, widgets: [] };
    entry.widgets.push(w);
    out.set(pi, entry);
  });
  return out;
}

/**
 * Signs `input` with one incremental update (PAdES B-T with `timestamp`, else B-B) and returns the new
 * file, which starts with `input` byte for byte. Refuses (SignError): a non-PDF, an encrypted file, a
 * file whose cross-reference data cannot be followed, a page out of range, a field name that is already
 * signed or not a signature field, a cross-page seal on an existing field, an unusable appearance, a
 * fill the document's fields do not take (BadOptions naming the field, see planFills).
 */
export async function signPdf(input: Uint8Array, opts: SignPdfOptions): Promise<Uint8Array> {
  const base = parsedForSigning(input);
  const fields = listFields(base);
  const existing: FieldInfo | undefined = opts.fieldName
    ? fields.find((f) => f.name === opts.fieldName)
    : undefined;
  if (existing) {
    if (existing.ft !== 'Sig') throw new SignError(SignErrorCode.FieldNotSignature, existing.name);
    if (existing.hasValue) throw new SignError(SignErrorCode.FieldAlreadySigned, existing.name);
    if (opts.crossPageSeal)
      throw new SignError(SignErrorCode.BadOptions, 'a cross-page seal needs a new signature field');
  } else if (!opts.placement)
    throw new SignError(SignErrorCode.BadOptions, 'a new signature field needs a placement');

  // every fill is checked before anything is written: a refusal leaves no partial update
  const fills = opts.fill && opts.fill.length > 0 ? planFills(base, fields, opts.fill) : [];
  const update = new IncrementalUpdate(base);
  const filled = fills.length > 0 ? await writeFills(update, fills) : [];
  const lock = filled.length > 0 ? lockOf(filled) : undefined;
  // an author's own /Lock on an existing empty field is kept unless this party fills fields
  const lockEntry = lock ? { Lock: lock } : {};
  const appearance = toAppearance(opts.appearance);
  const sealForm = appearance.embed(update);
  const seal = { form: sealForm, width: appearance.width, height: appearance.height };
  const sigRef = update.alloc();
  const byPage = new Map<number, { page: PageInfo; widgets: PdfRef[] }>();

  if (existing) {
    // The empty field keeps its widget where the document's author put it.
    const kids = base.resolve(existing.dict.v.get('Kids'));
    const widgetRef = isArray(kids) && kids.v.length > 0 ? kids.v[0] : existing.ref;
    const widget = base.dictOf(widgetRef);
    const rect = base.resolve(widget?.v.get('Rect'));
    const nums = isArray(rect) ? rect.v.map((x) => base.resolve(x)) : [];
    if (!widget || nums.length !== 4 || !nums.every((x) => typeof x === 'number'))
      throw new SignError(SignErrorCode.BadOptions, `field ${existing.name} has no widget rectangle`);
    const [x1, y1, x2, y2] = nums as number[];
    const w = Math.max(1, Math.abs(x2 - x1));
    const h = Math.max(1, Math.abs(y2 - y1));
    const ap = placeSeal(update, seal, w, h);
    const widgetChanges: Record<string, PdfObject> = { AP: dict({ N: ap }) };
    if (widgetRef === existing.ref)
      update.put(existing.ref, withEntries(existing.dict, { ...widgetChanges, V: sigRef, ...lockEntry }));
    else {
      update.put(existing.ref, withEntries(existing.dict, { V: sigRef, ...lockEntry }));
      update.put(widgetRef as PdfRef, withEntries(widget, widgetChanges));
    }
    addToAcroForm(update, base, []);
  } else {
    const placement = opts.placement!;
    const page = base.page(placement.pageIndex);
    const [x1, y1, x2, y2] = rectOf(placement, page);
    const ap = placeSeal(update, seal, x2 - x1, y2 - y1);
    const fieldRef = update.alloc();
    const fieldName = opts.fieldName ?? freeFieldName(fields);
    const widget = {
      Type: name('Annot'),
      Subtype: name('Widget'),
      Rect: arr(x1, y1, x2, y2),
      P: page.ref,
      F: WIDGET_FLAGS,
      AP: dict({ N: ap }),
    };
    if (opts.crossPageSeal) {
      // A field with several widgets: the seal on its page plus one strip per page. Widgets of a signature
      // field are form-level changes for earlier signatures; plain annotations or page content would not be.
      // The widgets carry no /Parent: poppler before 23.x takes a kid with /Parent for a child field, reads
      // /V from it alone and reports the signature as unsigned. Readers find them through the field's /Kids.
      const cp = opts.crossPageSeal;
      let stripSeal = seal;
      if (cp.appearance) {
        const a = toAppearance(cp.appearance);
        stripSeal = { form: a.embed(update), width: a.width, height: a.height };
      }
      const mainWidget = update.alloc();
      update.put(mainWidget, dict(widget));
      byPage.set(page.index, { page, widgets: [mainWidget] });
      const strips = crossPageStrips(update, base, stripSeal, cp);
      const kids = [mainWidget];
      for (const [pi, s] of strips) {
        kids.push(...s.widgets);
        const entry = byPage.get(pi) ?? { page: s.page, widgets: [] };
        entry.widgets.push(...s.widgets);
        byPage.set(pi, entry);
      }
      update.put(
        fieldRef,
        dict({ FT: name('Sig'), T: textString(fieldName), V: sigRef, Lock: lock, Kids: arr(...kids) }),
      );
    } else {
      update.put(
        fieldRef,
        dict({ FT: name('Sig'), T: textString(fieldName), V: sigRef, Lock: lock, ...widget }),
      );
      byPage.set(page.index, { page, widgets: [fieldRef] });
    }
    addToAcroForm(update, base, [fieldRef]);
  }
  for (const { page, widgets } of byPage.values()) addAnnots(update, base, page, widgets);

  update.signature(
    sigRef,
    sigDictEntries('ETSI.CAdES.detached', { ...opts, time: opts.signingTime ?? new Date() }),
    opts.contentsReserve ?? defaultReserve(opts.signer, !!opts.timestamp),
  );
  const timestamp = opts.timestamp;
  const observed: TimestampFn | undefined =
    timestamp &&
    (async (imprint) => {
      const token = await timestamp(imprint);
      observedTokenBytes = token.length;
      return token;
    });
  return finishSigned(update, (digest) =>
    buildCadesSignature({ digest, signer: opts.signer, timestamp: observed }),
  );
}
