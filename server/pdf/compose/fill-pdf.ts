// Writing a template's field values into its PDF before a contract is launched: flattened page content (no
// form fields a signer could change afterwards). Text is set with the CJK font of the footer (Noto Serif SC,
// embedded as a subset holding only the characters used, with a ToUnicode map so that the text can be
// extracted and searched); a ticked checkbox is a drawn tick. A full rewrite, allowed because nothing is
// signed yet; the verification footer and every signature come after it.
// pdf-lib (with culori, which it loads) is imported where a PDF is made, not at the top: loading it costs
// about half a second of CPU, which the server's start does not need.
import type { Color, PDFFont, PDFPage } from '@cantoo/pdf-lib';
import type { FieldType } from '#contract/calls/template.ts';
import { PdfRejected, embedCjkFont, nestingProblem, pageTreeProblem } from './pdf-tools.ts';

export type FieldFill = {
  type: FieldType;
  /** 1-based. */
  page: number;
  rect: [number, number, number, number];
  /**
   * Text of a field (text, number, date, radio, select, ID number, phone: one line; multiline: lines wrapped in
   * the box); a checkbox: true when ticked.
   */
  value: string | boolean;
  fontSize?: number;
};

/** The ink of filled values (pdf-lib's rgb(0.05, 0.05, 0.2), made where pdf-lib is loaded). */
const INK_RGB = [0.05, 0.05, 0.2] as const;
const PAD = 2;

/** The font size that fits `text` into the box: the requested or height-derived size, shrunk to the width. */
function fittedSize(font: PDFFont, text: string, width: number, height: number, wanted?: number): number {
  let size = wanted ?? Math.min(14, Math.max(6, height * 0.68));
  const textWidth = font.widthOfTextAtSize(text, size);
  const room = Math.max(1, width - 2 * PAD);
  if (textWidth > room) size = Math.max(3, (size * room) / textWidth);
  return size;
}

function drawText(page: PDFPage, font: PDFFont, ink: Color, fill: FieldFill, text: string): void {
  const [x1, y1, x2, y2] = fill.rect;
  const size = fittedSize(font, text, x2 - x1, y2 - y1, fill.fontSize);
  // Vertically centred on the box: the baseline sits a little above the middle of the line's em box.
  const y = y1 + (y2 - y1 - size) / 2 + size * 0.16;
  page.drawText(text, { x: x1 + PAD, y, size, font, color: ink });
}

/** Lines of `text` that fit `width` at `size`: its own line breaks kept, long lines broken by width. */
function wrapLines(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const ch of paragraph) {
      const next = line + ch;
      if (line !== '' && font.widthOfTextAtSize(next, size) > width) {
        // break at the last space when there is one (Latin words), anywhere otherwise (CJK)
        const cut = line.lastIndexOf(' ');
        if (cut > 0 && ch !== ' ') {
          lines.push(line.slice(0, cut));
          line = line.slice(cut + 1) + ch;
        } else {
          lines.push(line);
          line = ch === ' ' ? '' : ch;
        }
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

/** A multiline value: wrapped within the box from its top, the size shrunk until every line fits. */
function drawMultiline(page: PDFPage, font: PDFFont, ink: Color, fill: FieldFill, text: string): void {
  const [x1, y1, x2, y2] = fill.rect;
  const width = Math.max(1, x2 - x1 - 2 * PAD);
  const height = Math.max(1, y2 - y1 - 2 * PAD);
  let size = fill.fontSize ?? 10;
  let lines = wrapLines(font, text, size, width);
  while (size > 4 && lines.length * size * 1.25 > height) {
    size = Math.max(4, size - 0.5);
    lines = wrapLines(font, text, size, width);
  }
  const lead = size * 1.25;
  lines.forEach((line, i) => {
    const y = y2 - PAD - size - i * lead + size * 0.16;
    if (y < y1 - size) return;
    if (line) page.drawText(line, { x: x1 + PAD, y, size, font, color: ink });
  });
}

function drawTick(page: PDFPage, ink: Color, rect: FieldFill['rect']): void {
  const [x1, y1, x2, y2] = rect;
  const side = Math.min(x2 - x1, y2 - y1);
  const x = x1 + (x2 - x1 - side) / 2;
  const y = y1 + (y2 - y1 - side) / 2;
  const thickness = Math.max(0.8, side * 0.12);
  const a = { x: x + side * 0.18, y: y + side * 0.52 };
  const b = { x: x + side * 0.42, y: y + side * 0.24 };
  const c = { x: x + side * 0.84, y: y + side * 0.82 };
  page.drawLine({ start: a, end: b, thickness, color: ink });
  page.drawLine({ start: b, end: c, thickness, color: ink });
}

/**
 * Draws every value into its box and returns the new file (classic xref table, no object streams, like the
 * footer). Empty texts and unticked checkboxes draw nothing. Boxes are in PDF points of the unrotated page.
 * Throws PdfRejected('broken') for a file pdf-lib cannot rewrite safely (cycles in its page tree or
 * resources, found up front as for the footer; a stack overflow of pdf-lib's recursion all the same).
 */
export async function fillPdf(bytes: Uint8Array, fills: FieldFill[]): Promise<Uint8Array> {
  try {
    return await drawFills(bytes, fills);
  } catch (err) {
    if (err instanceof RangeError) throw new PdfRejected('broken', err.message.slice(0, 200));
    throw err;
  }
}

async function drawFills(bytes: Uint8Array, fills: FieldFill[]): Promise<Uint8Array> {
  const lib = await import('@cantoo/pdf-lib');
  const { PDFDocument, rgb } = lib;
  const ink = rgb(...INK_RGB);
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const treeProblem = pageTreeProblem(lib, doc);
  if (treeProblem) throw new PdfRejected('broken', treeProblem);
  const texts = fills.filter((f) => f.type !== 'checkbox' && typeof f.value === 'string' && f.value !== '');
  const font = texts.length > 0 ? await embedCjkFont(doc) : null;
  const pages = doc.getPages();
  for (const fill of fills) {
    const page = pages[fill.page - 1];
    if (!page) throw new Error(`field on page ${fill.page} of a ${pages.length}-page document`);
    if (fill.type === 'checkbox') {
      if (fill.value === true) drawTick(page, ink, fill.rect);
    } else if (typeof fill.value === 'string' && fill.value !== '' && font) {
      if (fill.type === 'multiline') drawMultiline(page, font, ink, fill, fill.value);
      else drawText(page, font, ink, fill, fill.value.replace(/\s*\n\s*/g, ' '));
    }
  }
  const nesting = nestingProblem(lib, doc);
  if (nesting) throw new PdfRejected('broken', nesting);
  return doc.save({ useObjectStreams: false });
}
