/**
 * Visual comparison: what each page SHOWS in the signed revision against the final file.
 *
 * Object-level rules (diff.ts) judge a change by where the changed object was used; an attack that goes
 * through an allowed place (a form field's appearance, an annotation) or through a route nobody listed
 * yet changes what a viewer shows while each object-level change looks permitted. So, where a revision
 * after a signature changes anything a page uses (`pagesToCompare`), both revisions are drawn by pdf.js
 * (an independent reader: the viewers' own) and compared pixel by pixel, as DSS does:
 *
 * - the page content alone (no annotations): any difference is a disallowed change (nothing a later
 *   signer may do changes page content);
 * - the page with its annotations: annotations the signed revision did not show (a later signature's
 *   widget, an added annotation: judged by the object rules) and signature fields signed since are left
 *   out of the comparison. Inside a form field that existed at signing a difference is a form fill,
 *   allowed, unless it covers what the page content showed there when signed (text, lines, images): a
 *   field over blank space may be filled, a field over the contract's words may not replace them (the
 *   "replace via overlay" shadow attack, Mainka et al., NDSS 2021). Any other difference is disallowed.
 *
 * Each finding names the page and the region (PDF points, origin bottom-left).
 */
import type { PdfFile, Revision } from '../parse/document.ts';
import { isArray, isDict, isName, isRef, isStream, type PdfDict, type PdfObject } from '../parse/objects.ts';
import { sameContent } from './diff.ts';
import { loadPdfjs, openPdf, type PdfjsDocument, type PdfjsPage } from '../pdfjs.ts';

/** Pixels per PDF point of the drawings compared (108 dpi): small print and one digit stay visible. */
const SCALE = 1.5;
/** The largest side of a drawing, in pixels: a poster-sized page is drawn smaller. */
const MAX_SIDE = 2400;
/** A channel that differs by more than this is a different pixel (anti-aliasing of one drawing is stable). */
const PIXEL_DIFF = 40;
/** Differing pixels outside form fields that make a finding (a few stray pixels are not content). */
const MIN_PIXELS = 4;
/** Pixels of signed page content a filled field must cover before it counts as hiding it. */
const MIN_COVERED = 24;
/** How far from its background a pixel must be to be content (ink) under a field. */
const INK = 64;
/** Pages compared per signature at most (DSS compares documents of up to 10 pages). */
export const MAX_PAGES = 10;

export type VisualFinding = {
  page: number;
  /** x0, y0, x1, y1 in PDF points of the page, origin bottom-left */
  region: [number, number, number, number];
  what: 'content' | 'covered' | 'annotations' | 'size';
};

export type VisualOutcome = {
  findings: VisualFinding[];
  /** pages that could not be compared, and why */
  notes: string[];
};

type Box = [number, number, number, number];

// ---------------------------------------------------------------------------------------------------------
// Which pages: those whose drawing could differ (read with the one reader, before anything is drawn)

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];
const WALK_SKIP = new Set([
  'Parent',
  'P',
  'Popup',
  'IRT',
  'Dest',
  'A',
  'AA',
  'Next',
  'Prev',
  'First',
  'Last',
]);
const MAX_WALK = 20_000;

/** The page objects of `rev` in order (iterative and bounded, as every walk of an untrusted tree here). */
export function pageRefs(pdf: PdfFile, rev: Revision, limit = 10_000): number[] {
  const out: number[] = [];
  const root = pdf.catalog(rev)?.v.get('Pages');
  const stack: PdfObject[] = root ? [root] : [];
  const seen = new Set<number>();
  while (stack.length > 0 && out.length < limit) {
    const o = stack.pop();
    if (!isRef(o) || seen.has(o.num)) continue;
    seen.add(o.num);
    const d = pdf.resolve(rev, o);
    if (!isDict(d)) continue;
    const kids = pdf.resolve(rev, d.v.get('Kids'));
    if (isArray(kids) && !isName(d.v.get('Type'), 'Page')) {
      for (let i = kids.v.length - 1; i >= 0; i--) stack.push(kids.v[i]);
    } else out.push(o.num);
  }
  return out;
}

/**
 * Pages (0-based) whose drawing a later revision may have changed: the page dictionary changed in
 * anything but new annotations, an annotation it had is gone, or an object it draws with changed (its
 * content, resources, fonts, XObjects, the inherited attributes of its ancestors, the annotations it had
 * and their appearances and fields). A revision that only adds signatures (new fields, new widgets) or
 * validation data touches no page.
 */
export function pagesToCompare(
  pdf: PdfFile,
  signed: Revision,
  final: Revision,
  signedNow: Set<number>,
): number[] {
  // the objects of the signed revision that are not the same in the final one
  const changedSet = new Set<number>();
  for (const [num, a] of signed.table) {
    const b = final.table.get(num);
    if (a && b && a.type === 1 && b.type === 1 && a.offset === b.offset) continue;
    if (!sameContent(pdf.entryObject(signed, num)?.obj, pdf.entryObject(final, num)?.obj))
      changedSet.add(num);
  }
  if (changedSet.size === 0 && signed.table.size <= final.table.size) return [];
  const before = pageRefs(pdf, signed);
  const after = pageRefs(pdf, final);
  // Signing and validation data change only pages (new widgets), the catalog and the form dictionary: when
  // nothing else changed, no page needs its objects walked (a page, catalog or form dictionary used as
  // something else as well is the object rules' "used elsewhere", disallowed there).
  const expected = new Set(before);
  const root = signed.trailer.v.get('Root');
  if (isRef(root)) expected.add(root.num);
  const acro = pdf.catalog(signed)?.v.get('AcroForm');
  if (isRef(acro)) expected.add(acro.num);
  const walk = [...changedSet].some((n) => !expected.has(n));
  const out: number[] = [];
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    if (before[i] !== after[i]) {
      out.push(i);
      continue;
    }
    const num = before[i];
    const ref = { t: 'ref', num, gen: 0 } as PdfObject;
    const a = pdf.resolve(signed, ref);
    const b = pdf.resolve(final, ref);
    if (!isDict(a) || !isDict(b)) out.push(i);
    else if (changedSet.has(num) && pageChanged(pdf, signed, a, final, b, signedNow)) out.push(i);
    else if (walk && usesChanged(pdf, signed, a, (n) => changedSet.has(n))) out.push(i);
  }
  return out;
}

function annotRefs(pdf: PdfFile, rev: Revision, page: PdfDict): string[] {
  const arr = pdf.resolve(rev, page.v.get('Annots'));
  return isArray(arr) ? arr.v.map((x) => (isRef(x) ? `${x.num} ${x.gen}` : 'direct')) : [];
}

function pageChanged(
  pdf: PdfFile,
  ra: Revision,
  a: PdfDict,
  rb: Revision,
  b: PdfDict,
  signedNow: Set<number>,
): boolean {
  const keys = new Set([...a.v.keys(), ...b.v.keys()]);
  keys.delete('Annots');
  for (const k of keys) if (!sameContent(a.v.get(k), b.v.get(k))) return true;
  const before = annotRefs(pdf, ra, a);
  const had = new Set(before);
  // a direct annotation cannot be told apart from its neighbours: its page is compared
  if (before.some((x) => x === 'direct')) return true;
  const after = annotRefs(pdf, rb, b);
  const now = new Set(after);
  if (before.some((x) => !now.has(x))) return true;
  // new annotations other than the widgets of signatures made since are drawn (an empty signature
  // field's widget, a stamp): the object rules judge whether they may be there, the drawing what they cover
  return after.some((x) => !had.has(x) && (x === 'direct' || !signedNow.has(Number(x.split(' ')[0]))));
}

/** True when an object the page draws with, in the signed revision, is not the same in the final one. */
function usesChanged(pdf: PdfFile, rev: Revision, page: PdfDict, changed: (num: number) => boolean): boolean {
  const stack: PdfObject[] = [];
  for (const [k, v] of page.v) if (k !== 'Parent') stack.push(v);
  // inherited attributes come from the ancestors: their objects count, not their other keys
  let parent = page.v.get('Parent');
  for (let depth = 0; isRef(parent) && depth < 64; depth++) {
    if (changed(parent.num)) {
      const d = pdf.resolve(rev, parent);
      if (isDict(d)) for (const k of INHERITED) if (d.v.has(k)) return true;
    }
    const d = pdf.resolve(rev, parent);
    if (!isDict(d)) break;
    for (const k of INHERITED) if (d.v.has(k)) stack.push(d.v.get(k) as PdfObject);
    parent = d.v.get('Parent');
  }
  const seen = new Set<number>();
  let steps = 0;
  while (stack.length > 0) {
    if (++steps > MAX_WALK) return true; // too large to tell: compare it
    const o = stack.pop();
    if (o === undefined || o === null || typeof o !== 'object') continue;
    if (isRef(o)) {
      if (seen.has(o.num)) continue;
      seen.add(o.num);
      if (changed(o.num)) return true;
      const v = pdf.resolve(rev, o);
      if (v !== undefined) stack.push(v);
      continue;
    }
    if (isArray(o)) {
      for (const x of o.v) stack.push(x);
      continue;
    }
    const d = isDict(o) ? o : isStream(o) ? o.dict : undefined;
    if (!d) continue;
    for (const [k, v] of d.v) {
      if (WALK_SKIP.has(k)) {
        // a widget's field (its value, default appearance) is part of what the widget shows
        if (k === 'Parent' && isRef(v) && (d.v.has('FT') || isName(d.v.get('Subtype'), 'Widget'))) {
          if (changed(v.num)) return true;
        }
        continue;
      }
      stack.push(v);
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Drawing and comparing

type Drawing = {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  toPdf: (x: number, y: number) => number[];
};
type AnnotInfo = { id: string; rect: Box; sig: boolean };

/** The page at the drawings' scale (a poster-sized page drawn smaller). */
function viewportOf(page: PdfjsPage) {
  const base = page.getViewport({ scale: 1 });
  return page.getViewport({ scale: Math.min(SCALE, MAX_SIDE / Math.max(base.width, base.height, 1)) });
}

async function draw(page: PdfjsPage, withAnnotations: boolean): Promise<Drawing> {
  const lib = await loadPdfjs();
  const { createCanvas } = await import('@napi-rs/canvas');
  const viewport = viewportOf(page);
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  await page.render({
    // @napi-rs/canvas is the canvas pdf.js itself uses on Node
    canvasContext: ctx as unknown as CanvasRenderingContext2D,
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
    annotationMode: withAnnotations ? lib.AnnotationMode.ENABLE : lib.AnnotationMode.DISABLE,
    background: '#ffffff',
  }).promise;
  const data = ctx.getImageData(0, 0, width, height).data as unknown as Uint8ClampedArray;
  return { width, height, data, toPdf: (x, y) => viewport.convertToPdfPoint(x, y) };
}

/** A rectangle of PDF points as pixels of the drawing, grown by `pad` pixels. */
function toPixels(d: Drawing, page: PdfjsPage, rect: Box, pad: number): Box {
  const v = viewportOf(page);
  const [x0, y0] = v.convertToViewportPoint(rect[0], rect[1]);
  const [x1, y1] = v.convertToViewportPoint(rect[2], rect[3]);
  return [
    Math.max(0, Math.floor(Math.min(x0, x1)) - pad),
    Math.max(0, Math.floor(Math.min(y0, y1)) - pad),
    Math.min(d.width, Math.ceil(Math.max(x0, x1)) + pad),
    Math.min(d.height, Math.ceil(Math.max(y0, y1)) + pad),
  ];
}

const inBox = (b: Box, x: number, y: number) => x >= b[0] && x < b[2] && y >= b[1] && y < b[3];

function differs(a: Uint8ClampedArray, b: Uint8ClampedArray, i: number): boolean {
  return (
    Math.abs(a[i] - b[i]) > PIXEL_DIFF ||
    Math.abs(a[i + 1] - b[i + 1]) > PIXEL_DIFF ||
    Math.abs(a[i + 2] - b[i + 2]) > PIXEL_DIFF
  );
}

/** Bounding box of pixels, turned into PDF points. */
class Bounds {
  x0 = Infinity;
  y0 = Infinity;
  x1 = -Infinity;
  y1 = -Infinity;
  count = 0;
  add(x: number, y: number) {
    this.count++;
    if (x < this.x0) this.x0 = x;
    if (y < this.y0) this.y0 = y;
    if (x > this.x1) this.x1 = x;
    if (y > this.y1) this.y1 = y;
  }
  region(d: Drawing): Box {
    const [ax, ay] = d.toPdf(this.x0, this.y1 + 1);
    const [bx, by] = d.toPdf(this.x1 + 1, this.y0);
    const r = (n: number) => Math.round(n);
    return [r(Math.min(ax, bx)), r(Math.min(ay, by)), r(Math.max(ax, bx)), r(Math.max(ay, by))];
  }
}

/** The most frequent colour inside a box (the field's background on the page), 4 bits per channel. */
function backgroundIn(d: Drawing, b: Box): [number, number, number] {
  const counts = new Map<number, number>();
  let best = 0xfff;
  let bestN = 0;
  for (let y = b[1]; y < b[3]; y++)
    for (let x = b[0]; x < b[2]; x++) {
      const i = (y * d.width + x) * 4;
      const key = ((d.data[i] >> 4) << 8) | ((d.data[i + 1] >> 4) << 4) | (d.data[i + 2] >> 4);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      if (n > bestN) {
        bestN = n;
        best = key;
      }
    }
  return [((best >> 8) << 4) | 8, (((best >> 4) & 15) << 4) | 8, ((best & 15) << 4) | 8];
}

async function annotationsOf(page: PdfjsPage): Promise<AnnotInfo[]> {
  const list = await page.getAnnotations({ intent: 'display' });
  return list
    .filter((a) => Array.isArray(a.rect) && a.rect.length === 4)
    .map((a) => ({
      id: String(a.id ?? ''),
      rect: a.rect as Box,
      sig: a.fieldType === 'Sig',
    }));
}

/** pdf.js names an annotation `12R` (generation 0) or `12R3`: its object number. */
const objectNum = (id: string): number | null => {
  const m = /^(\d+)R/.exec(id);
  return m ? Number(m[1]) : null;
};

export type Comparison = {
  /** 0-based pages */
  pages: number[];
  /** object numbers of signature fields and widgets that carried a signature value in the signed revision */
  signedWidgets: Set<number>;
  /** the same in the final file */
  signedNow: Set<number>;
};

/** Cache of open documents and drawings, shared by the comparisons of one file. */
export class VisualComparer {
  private readonly bytes: Uint8Array;
  private readonly docs = new Map<number, Promise<PdfjsDocument>>();
  private readonly drawings = new Map<string, Promise<Drawing>>();

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  private doc(end: number): Promise<PdfjsDocument> {
    let d = this.docs.get(end);
    if (!d) {
      d = openPdf(this.bytes.subarray(0, end), true);
      d.catch(() => undefined);
      this.docs.set(end, d);
    }
    return d;
  }

  private drawing(end: number, page: PdfjsPage, p: number, withAnnotations: boolean): Promise<Drawing> {
    const key = `${end}:${p}:${withAnnotations}`;
    let d = this.drawings.get(key);
    if (!d) {
      d = draw(page, withAnnotations);
      this.drawings.set(key, d);
    }
    return d;
  }

  /** Compares the revision ending at `signedEnd` with the whole file on the given pages. */
  async compare(signedEnd: number, c: Comparison, due: number): Promise<VisualOutcome> {
    return (await this.compareMany([{ signedEnd, comparison: c }], due))[0];
  }

  /**
   * Compares several signed revisions with the whole file, page by page: the final file's drawings of a
   * page serve every signature, and only one page's drawings are held at a time (a drawing is a few MB).
   */
  async compareMany(
    tasks: { signedEnd: number; comparison: Comparison }[],
    due: number,
  ): Promise<VisualOutcome[]> {
    const out: VisualOutcome[] = tasks.map(() => ({ findings: [], notes: [] }));
    const open = await Promise.all(
      tasks.map(async (t, k) => {
        try {
          return await Promise.all([this.doc(t.signedEnd), this.doc(this.bytes.length)]);
        } catch (err) {
          out[k].notes.push(
            `the pages could not be drawn for a visual comparison (${(err as Error).message})`,
          );
          return null;
        }
      }),
    );
    tasks.forEach((t, k) => {
      if (t.comparison.pages.length > MAX_PAGES)
        out[k].notes.push(
          `pages after the first ${MAX_PAGES} that changed were not compared visually (${t.comparison.pages.length} changed)`,
        );
    });
    const pages = [...new Set(tasks.flatMap((t) => t.comparison.pages.slice(0, MAX_PAGES)))].sort(
      (a, b) => a - b,
    );
    for (const p of pages) {
      this.drawings.clear();
      for (const [k, t] of tasks.entries()) {
        const docs = open[k];
        if (!docs || !t.comparison.pages.slice(0, MAX_PAGES).includes(p)) continue;
        const [before, after] = docs;
        if (p >= before.numPages || p >= after.numPages) continue;
        if (performance.now() > due) {
          out[k].notes.push(`page ${p + 1} was not compared visually: out of time`);
          continue;
        }
        try {
          out[k].findings.push(...(await this.comparePage(t.signedEnd, before, after, p, t.comparison)));
        } catch (err) {
          out[k].notes.push(
            `page ${p + 1} could not be drawn for a visual comparison (${(err as Error).message})`,
          );
        }
      }
    }
    this.drawings.clear();
    return out;
  }

  private async comparePage(
    signedEnd: number,
    before: PdfjsDocument,
    after: PdfjsDocument,
    p: number,
    c: Comparison,
  ): Promise<VisualFinding[]> {
    const end = this.bytes.length;
    const [pa, pb] = await Promise.all([before.getPage(p + 1), after.getPage(p + 1)]);
    const [ca, cb] = await Promise.all([
      this.drawing(signedEnd, pa, p, false),
      this.drawing(end, pb, p, false),
    ]);
    if (ca.width !== cb.width || ca.height !== cb.height) {
      const v = pb.getViewport({ scale: 1 });
      return [{ page: p + 1, region: [0, 0, Math.round(v.width), Math.round(v.height)], what: 'size' }];
    }
    const content = new Bounds();
    for (let y = 0; y < ca.height; y++)
      for (let x = 0; x < ca.width; x++)
        if (differs(ca.data, cb.data, (y * ca.width + x) * 4)) content.add(x, y);
    if (content.count >= MIN_PIXELS) return [{ page: p + 1, region: content.region(ca), what: 'content' }];

    // the page with its annotations
    const [la, lb] = await Promise.all([annotationsOf(pa), annotationsOf(pb)]);
    const had = new Map(la.map((a) => [a.id, a]));
    const skipped: Box[] = [];
    const fields: { box: Box; bg: [number, number, number] }[] = [];
    for (const a of lb) {
      const old = had.get(a.id);
      const num = objectNum(a.id);
      const signedThen = num !== null && c.signedWidgets.has(num);
      const signedNow = num !== null && c.signedNow.has(num);
      // a signature made since (C1) and an added annotation (C5, annotation level) are judged by the
      // object rules and left out, as DSS does; a signature's appearance never changes after it is made
      if ((a.sig && signedNow && !signedThen) || (!old && !a.sig)) {
        skipped.push(toPixels(cb, pb, a.rect, 2));
        continue;
      }
      if (signedThen) continue;
      // a form field (or an empty signature field) as it was and as it is: a moved one is judged over
      // both places; it may be filled, not cover what the page showed
      for (const r of old ? [old.rect, a.rect] : [a.rect]) {
        const outer = toPixels(cb, pb, r, 2);
        fields.push({ box: outer, bg: backgroundIn(ca, toPixels(cb, pb, r, 0)) });
      }
    }
    const [fa, fb] = await Promise.all([
      this.drawing(signedEnd, pa, p, true),
      this.drawing(end, pb, p, true),
    ]);
    const elsewhere = new Bounds();
    const covered = new Bounds();
    for (let y = 0; y < fa.height; y++)
      for (let x = 0; x < fa.width; x++) {
        const i = (y * fa.width + x) * 4;
        if (!differs(fa.data, fb.data, i)) continue;
        if (skipped.some((b) => inBox(b, x, y))) continue;
        const field = fields.find((f) => inBox(f.box, x, y));
        if (!field) {
          elsewhere.add(x, y);
          continue;
        }
        // content the signer saw: ink of the page content that the field did not already cover then
        const ink =
          Math.abs(ca.data[i] - field.bg[0]) > INK ||
          Math.abs(ca.data[i + 1] - field.bg[1]) > INK ||
          Math.abs(ca.data[i + 2] - field.bg[2]) > INK;
        if (ink && !differs(ca.data, fa.data, i)) covered.add(x, y);
      }
    const out: VisualFinding[] = [];
    if (covered.count >= MIN_COVERED) out.push({ page: p + 1, region: covered.region(fa), what: 'covered' });
    if (elsewhere.count >= MIN_PIXELS)
      out.push({ page: p + 1, region: elsewhere.region(fa), what: 'annotations' });
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.docs.values()].map((d) => d.then((doc) => doc.loadingTask.destroy()).catch(() => undefined)),
    );
  }
}

/** The sentence a finding adds to a signature's problems. */
export function describe(f: VisualFinding): string {
  const at = `x ${f.region[0]}–${f.region[2]}, y ${f.region[1]}–${f.region[3]} pt`;
  switch (f.what) {
    case 'size':
      return `page ${f.page} changed its size or orientation after signing`;
    case 'content':
      return `page ${f.page} shows other content than when it was signed (region ${at})`;
    case 'covered':
      return `a form field on page ${f.page} now covers content the page showed when it was signed (region ${at})`;
    case 'annotations':
      return `page ${f.page} shows other annotations or form fields than when it was signed (region ${at})`;
  }
}
