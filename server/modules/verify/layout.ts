// Where each signature shows on the page: the verifier's report names fields, not places, so the page can
// only outline a seal and link it to its card with the widget's page and rectangle, read here from the
// parser the way a viewer reads them (the latest revision's AcroForm, the pages' /Annots).
import type { PdfFile, Revision } from '../../pdf/parse/document.ts';
import {
  isArray,
  isDict,
  isName,
  isRef,
  type PdfDict,
  type PdfObject,
  textOf,
} from '../../pdf/parse/objects.ts';

type PageLayout = { widthPt: number; heightPt: number; rotate: number };
type WidgetPlace = { page: number; rect: [number, number, number, number] };
export type DocumentLayout = {
  pages: PageLayout[];
  /** Visible widgets of each signature field, by the field's full name. */
  widgets: Record<string, WidgetPlace[]>;
};

const MAX_PAGES = 10_000;
const MAX_STEPS = 200_000;

type Box = [number, number, number, number];

function boxOf(pdf: PdfFile, rev: Revision, o: PdfObject | undefined): Box | undefined {
  const a = pdf.resolve(rev, o);
  if (!isArray(a) || a.v.length !== 4) return undefined;
  const n = a.v.map((x) => pdf.resolve(rev, x));
  if (!n.every((x) => typeof x === 'number' && Number.isFinite(x))) return undefined;
  const [x1, y1, x2, y2] = n as number[];
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

type PageEntry = { num: number | null; dict: PdfDict; box: Box; rotate: number };

/** The pages in order with their visible box (CropBox within MediaBox, inherited) and rotation. */
function pagesOf(pdf: PdfFile, rev: Revision): PageEntry[] {
  const out: PageEntry[] = [];
  const seen = new Set<number>();
  let steps = 0;
  const walk = (
    ref: PdfObject | undefined,
    inherited: { media?: Box; crop?: Box; rotate?: number },
    depth: number,
  ) => {
    if (depth > 64 || steps++ > MAX_STEPS || out.length >= MAX_PAGES) return;
    const num = isRef(ref) ? ref.num : null;
    if (num !== null) {
      if (seen.has(num)) return;
      seen.add(num);
    }
    const d = pdf.resolve(rev, ref);
    if (!isDict(d)) return;
    const media = boxOf(pdf, rev, d.v.get('MediaBox')) ?? inherited.media;
    const crop = boxOf(pdf, rev, d.v.get('CropBox')) ?? inherited.crop;
    const r = pdf.resolve(rev, d.v.get('Rotate'));
    const rotate = typeof r === 'number' && Number.isInteger(r) ? r : inherited.rotate;
    const type = d.v.get('Type');
    const kids = pdf.resolve(rev, d.v.get('Kids'));
    if (isArray(kids) && !isName(type, 'Page')) {
      for (const k of kids.v) walk(k, { media, crop, rotate }, depth + 1);
      return;
    }
    const m = media ?? [0, 0, 612, 792];
    const c = crop ?? m;
    // pdf.js shows the crop box clipped to the media box.
    const box: Box = [Math.max(m[0], c[0]), Math.max(m[1], c[1]), Math.min(m[2], c[2]), Math.min(m[3], c[3])];
    out.push({ num, dict: d, box: box[2] > box[0] && box[3] > box[1] ? box : m, rotate: rotate ?? 0 });
  };
  walk(pdf.catalog(rev)?.v.get('Pages'), {}, 0);
  return out;
}

/**
 * Page boxes and signature widget places of a PDF. Never throws for a damaged file: what cannot be read
 * is left out (a card without an outline), because the verification itself does not depend on it.
 */
export function documentLayout(pdf: PdfFile): DocumentLayout {
  const rev = pdf.latest;
  const pages = pagesOf(pdf, rev);
  const pageByNum = new Map<number, number>();
  pages.forEach((p, i) => {
    if (p.num !== null) pageByNum.set(p.num, i);
  });
  // Widgets are listed by their pages' /Annots; /P is optional and may lie, so /Annots decides.
  const annotPage = new Map<number, number>();
  pages.forEach((p, i) => {
    const annots = pdf.resolve(rev, p.dict.v.get('Annots'));
    if (isArray(annots))
      for (const a of annots.v) if (isRef(a) && !annotPage.has(a.num)) annotPage.set(a.num, i);
  });

  const widgets: Record<string, WidgetPlace[]> = {};
  const place = (fieldName: string, ref: PdfObject | undefined, d: PdfDict) => {
    const rect = boxOf(pdf, rev, d.v.get('Rect'));
    if (!rect || rect[2] - rect[0] < 0.5 || rect[3] - rect[1] < 0.5) return; // an invisible signature
    let pageIndex = isRef(ref) ? annotPage.get(ref.num) : undefined;
    if (pageIndex === undefined) {
      const p = d.v.get('P');
      if (isRef(p)) pageIndex = pageByNum.get(p.num);
    }
    if (pageIndex === undefined) return;
    const [x0, y0] = pages[pageIndex].box;
    widgets[fieldName] ??= [];
    widgets[fieldName].push({
      page: pageIndex + 1,
      rect: [rect[0] - x0, rect[1] - y0, rect[2] - x0, rect[3] - y0],
    });
  };

  const acro = pdf.getDict(rev, pdf.catalog(rev), 'AcroForm');
  const fields = pdf.get(rev, acro, 'Fields');
  const seen = new Set<number>();
  let steps = 0;
  const walk = (
    ref: PdfObject | undefined,
    parentName: string,
    inheritedFt: string | undefined,
    depth: number,
  ) => {
    if (depth > 32 || steps++ > MAX_STEPS) return;
    if (isRef(ref)) {
      if (seen.has(ref.num)) return;
      seen.add(ref.num);
    }
    const d = pdf.resolve(rev, ref);
    if (!isDict(d)) return;
    const t = textOf(d.v.get('T'));
    const name = t === undefined ? parentName : parentName ? `${parentName}.${t}` : t;
    const ftObj = d.v.get('FT');
    const ft = isName(ftObj) ? ftObj.v : inheritedFt;
    const kids = pdf.resolve(rev, d.v.get('Kids'));
    if (ft === 'Sig') {
      // A field merged with its widget carries /Rect itself; otherwise its kids without /T are its widgets.
      if (d.v.has('Rect')) place(name, ref, d);
      if (isArray(kids))
        for (const k of kids.v) {
          const kd = pdf.resolve(rev, k);
          if (isDict(kd) && !kd.v.has('T')) place(name, k, kd);
          else walk(k, name, ft, depth + 1);
        }
      return;
    }
    if (isArray(kids)) for (const k of kids.v) walk(k, name, ft, depth + 1);
  };
  if (isArray(fields)) for (const f of fields.v) walk(f, '', undefined, 0);

  return {
    pages: pages.map((p) => ({
      widthPt: p.box[2] - p.box[0],
      heightPt: p.box[3] - p.box[1],
      rotate: p.rotate,
    })),
    widgets,
  };
}
