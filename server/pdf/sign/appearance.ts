/**
 * Seal appearances. A seal arrives as its one-page PDF (from server/seal renderSealPdf, made once per
 * seal) or as a PNG (drawn or uploaded signatures); either becomes one Form XObject drawing the seal in
 * its own box, which widget appearances place, scale and, for a cross-page seal, clip into strips.
 */
import { deflateSync } from 'node:zlib';
import { decodeStreamData } from '../parse/filters.ts';
import { isArray, isDict, isRef, isStream, type PdfObject, type PdfRef } from '../parse/objects.ts';
import { SignError, SignErrorCode } from './errors.ts';
import { PdfBase } from './pdf-base.ts';
import { arr, dict, type IncrementalUpdate, name, num } from './pdf-writer.ts';
import { decodePng } from './png.ts';

/** A seal ready to embed: its natural size in points, and how to write it into an update. */
export type Appearance = {
  readonly width: number;
  readonly height: number;
  /** Writes the objects of the seal into `update`; returns a Form XObject with BBox [0 0 width height]. */
  embed(update: IncrementalUpdate): PdfRef;
};

const bad = (detail: string) => new SignError(SignErrorCode.BadAppearance, detail);

type PagePart = {
  box: number[];
  content: { data: Uint8Array; filter: PdfObject | undefined; parms: PdfObject | undefined };
  resources: PdfObject | undefined;
};

/** Page `index` of `src`: its box (CropBox, else MediaBox), its content as one stream, its resources. */
function pagePart(src: PdfBase, index: number): PagePart {
  const page = src.page(index);
  const crop = src.resolve(page.dict.v.get('CropBox'));
  const box =
    isArray(crop) && crop.v.length === 4 && crop.v.every((x) => typeof x === 'number')
      ? (crop.v as number[])
      : page.mediaBox;
  const contents = src.resolve(page.dict.v.get('Contents'));
  const streams = isArray(contents)
    ? contents.v.map((c) => src.streamOf(c))
    : [src.streamOf(page.dict.v.get('Contents'))];
  let content: PagePart['content'];
  if (streams.length === 1 && streams[0]) {
    const s = streams[0];
    content = {
      data: s.raw,
      filter: src.resolve(s.dict.v.get('Filter')),
      parms: src.resolve(s.dict.v.get('DecodeParms')),
    };
  } else {
    const parts: Uint8Array[] = [];
    for (const s of streams) {
      if (!s) continue;
      const d = decodeStreamData(s.dict, s.raw);
      if (!d.decoded) throw bad('seal PDF content uses an unsupported filter');
      parts.push(d.data, new Uint8Array([0x0a]));
    }
    content = { data: deflateSync(Buffer.concat(parts)), filter: name('FlateDecode'), parms: undefined };
  }
  // Inherited resources live on the page tree; a seal page from renderSealPdf carries its own.
  return { box, content, resources: page.dict.v.get('Resources') };
}

/** Copies objects of `src` into `update` (renumbered), each once however often it is reached. */
function copier(src: PdfBase, update: IncrementalUpdate): (o: PdfObject | undefined) => PdfObject {
  const copied = new Map<number, PdfRef>();
  const copy = (o: PdfObject | undefined, depth = 0): PdfObject => {
    if (depth > 64 || o === undefined) return null;
    if (isRef(o)) {
      const have = copied.get(o.num);
      if (have) return have;
      const r = update.alloc();
      copied.set(o.num, r);
      const v = src.resolve(o);
      if (isStream(v)) {
        const d = copy(v.dict, depth + 1);
        update.stream(r, isDict(d) ? d : dict({}), v.raw);
      } else update.put(r, copy(v, depth + 1));
      return r;
    }
    if (o === null || typeof o !== 'object') return o;
    if (o.t === 'arr') return arr(...o.v.map((x) => copy(x, depth + 1)));
    if (o.t === 'dict') {
      const m = new Map<string, PdfObject>();
      for (const [k, v] of o.v) if (k !== 'Parent' && k !== 'Length') m.set(k, copy(v, depth + 1));
      return dict(m);
    }
    if (o.t === 'stream') return null;
    return o;
  };
  return (o) => copy(o);
}

/** Writes a page part as a Form XObject with BBox [0 0 width height]. */
function embedPart(update: IncrementalUpdate, part: PagePart, copy: (o: PdfObject | undefined) => PdfObject) {
  const [llx, lly, urx, ury] = part.box;
  const form = update.alloc();
  update.stream(
    form,
    dict({
      Type: name('XObject'),
      Subtype: name('Form'),
      BBox: arr(0, 0, urx - llx, ury - lly),
      Matrix: arr(1, 0, 0, 1, -llx, -lly),
      Resources: copy(part.resources) ?? dict({}),
      Filter: part.content.filter ?? undefined,
      DecodeParms: part.content.parms ?? undefined,
    }),
    part.content.data,
  );
  return form;
}

function parseAppearancePdf(pdf: Uint8Array): PdfBase {
  try {
    return new PdfBase(pdf);
  } catch (err) {
    throw bad(`seal PDF: ${(err as Error).message}`);
  }
}

/**
 * The first page of a seal PDF as an appearance: its content and resources copied (objects renumbered)
 * into a Form XObject whose box is the page's CropBox (else MediaBox). Parse once, embed many times.
 */
export function appearanceFromPdf(sealPdf: Uint8Array): Appearance {
  const src = parseAppearancePdf(sealPdf);
  const part = pagePart(src, 0);
  const [llx, lly, urx, ury] = part.box;
  return {
    width: urx - llx,
    height: ury - lly,
    embed: (update) => embedPart(update, part, copier(src, update)),
  };
}

/**
 * Every page of a PDF as a Form XObject, written into one update with their shared objects (a font
 * subset used by all pages) copied once: the appearances of the fields one signature fills.
 */
export function embedPdfPages(update: IncrementalUpdate, pdf: Uint8Array): PdfRef[] {
  const src = parseAppearancePdf(pdf);
  const copy = copier(src, update);
  const out: PdfRef[] = [];
  for (let i = 0; i < src.pageCount(); i++) out.push(embedPart(update, pagePart(src, i), copy));
  return out;
}

/**
 * A PNG as an appearance: an image XObject with an SMask (so the seal stays transparent ink) inside a
 * Form XObject. `widthPt`/`heightPt` default to the image at 300 dpi.
 */
export function appearanceFromPng(png: Uint8Array, size?: { width: number; height: number }): Appearance {
  const img = decodePng(png);
  const width = size?.width ?? (img.width / 300) * 72;
  const height = size?.height ?? (img.height / 300) * 72;
  const colour = deflateSync(img.colour);
  const alpha = img.alpha ? deflateSync(img.alpha) : null;
  const content = new TextEncoder().encode(`q ${num(width)} 0 0 ${num(height)} 0 0 cm /Im0 Do Q`);
  return {
    width,
    height,
    embed(update) {
      let smask: PdfRef | undefined;
      if (alpha) {
        smask = update.alloc();
        update.stream(
          smask,
          dict({
            Type: name('XObject'),
            Subtype: name('Image'),
            Width: img.width,
            Height: img.height,
            ColorSpace: name('DeviceGray'),
            BitsPerComponent: 8,
            Filter: name('FlateDecode'),
          }),
          alpha,
        );
      }
      const image = update.alloc();
      update.stream(
        image,
        dict({
          Type: name('XObject'),
          Subtype: name('Image'),
          Width: img.width,
          Height: img.height,
          ColorSpace: name(img.channels === 3 ? 'DeviceRGB' : 'DeviceGray'),
          BitsPerComponent: 8,
          Filter: name('FlateDecode'),
          SMask: smask,
        }),
        colour,
      );
      const form = update.alloc();
      update.stream(
        form,
        dict({
          Type: name('XObject'),
          Subtype: name('Form'),
          BBox: arr(0, 0, width, height),
          Resources: dict({ XObject: dict({ Im0: image }) }),
        }),
        content,
        true,
      );
      return form;
    },
  };
}

/**
 * A widget appearance of `w`×`h` points drawing the seal form scaled to fit (aspect kept, centred), or,
 * with `strip`, only the strip `index` of `count` equal vertical strips of it, each strip filling the box.
 */
export function placeSeal(
  update: IncrementalUpdate,
  seal: { form: PdfRef; width: number; height: number },
  w: number,
  h: number,
  strip?: { index: number; count: number },
): PdfRef {
  let ops: string;
  if (strip) {
    // The whole seal is scaled so that one strip is w wide and the seal h high, then shifted left.
    const sx = (w * strip.count) / seal.width;
    const sy = h / seal.height;
    ops = `q 0 0 ${num(w)} ${num(h)} re W n ${num(sx)} 0 0 ${num(sy)} ${num(-strip.index * w)} 0 cm /S Do Q`;
  } else {
    const s = Math.min(w / seal.width, h / seal.height);
    const tx = (w - seal.width * s) / 2;
    const ty = (h - seal.height * s) / 2;
    ops = `q ${num(s)} 0 0 ${num(s)} ${num(tx)} ${num(ty)} cm /S Do Q`;
  }
  const r = update.alloc();
  update.stream(
    r,
    dict({
      Type: name('XObject'),
      Subtype: name('Form'),
      BBox: arr(0, 0, w, h),
      Resources: dict({ XObject: dict({ S: seal.form }) }),
    }),
    new TextEncoder().encode(ops),
  );
  return r;
}
