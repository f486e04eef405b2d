// The drawn values of form fields a signer fills (issue 28): one page per field, the size of its widget,
// with the value set in the CJK font the template fill and the footer use (a subset holding only the
// characters drawn, with a ToUnicode map so the text can be extracted). sign/form-fields.ts turns each
// page into the widget's appearance (a Form XObject) inside the signature's own update.
// pdf-lib is imported here, where the pages are made, not at the top: the server's start does not load it.
import type { PDFFont } from '@cantoo/pdf-lib';
import { embedCjkFont } from './pdf-tools.ts';

export type ValueBox = {
  width: number;
  height: number;
  text: string;
  /** wrap the text over several lines (a notes box); else one line, shrunk to fit the width */
  multiline?: boolean;
};

/** The ink of filled values, as fill-pdf.ts draws template values. */
const INK_RGB = [0.05, 0.05, 0.2] as const;
const PAD = 2;
const MIN_SIZE = 3;

/** One line's font size: from the box height (6 to 14 points), shrunk until the text fits the width. */
function lineSize(font: PDFFont, text: string, width: number, height: number): number {
  let size = Math.min(14, Math.max(6, height * 0.68), Math.max(MIN_SIZE, height - 2 * PAD));
  const textWidth = font.widthOfTextAtSize(text, size);
  const room = Math.max(1, width - 2 * PAD);
  if (textWidth > room) size = Math.max(MIN_SIZE, (size * room) / textWidth);
  return size;
}

/** Punctuation that may not begin a line (Chinese line breaking rules, and their Latin counterparts). */
const NO_LINE_START = /^[，。、；：！？）》」』”’,.;:!?)\]}%]$/u;

/** Breaks `text` into lines no wider than `room` at `size`: at spaces where it can, else between characters. */
function wrap(font: PDFFont, text: string, size: number, room: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    // CJK text has no spaces: every character is a place to break; Latin words are kept whole when they fit
    const tokens = para.match(/[\x21-\x7e]+|\s|./gu) ?? [];
    for (const tok of tokens) {
      const next = line + tok;
      if (line === '' || font.widthOfTextAtSize(next, size) <= room) {
        line = next;
        continue;
      }
      if (NO_LINE_START.test(tok) && [...line].length > 1) {
        // a comma or a closing bracket never starts a line: the character before it moves down with it
        const chars = [...line];
        const last = chars.pop() ?? '';
        out.push(chars.join('').trimEnd());
        line = last + tok;
        continue;
      }
      out.push(line.trimEnd());
      line = tok.trim() === '' ? '' : tok;
      // a word longer than the line is split between characters
      while (font.widthOfTextAtSize(line, size) > room && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > room) cut--;
        out.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

/** The largest size (10 points down to 3) at which the wrapped text fits the box's height. */
function multilineLayout(font: PDFFont, text: string, width: number, height: number) {
  const room = Math.max(1, width - 2 * PAD);
  for (let size = Math.min(10, Math.max(MIN_SIZE, height - 2 * PAD)); ; size -= 0.5) {
    const lines = wrap(font, text, size, room);
    if (lines.length * size * 1.2 <= height - 2 * PAD || size <= MIN_SIZE) return { size, lines };
  }
}

/**
 * A PDF with one page per box, each drawing its text (pages in the order of `boxes`). Boxes are in points.
 * Lines a multiline box cannot hold at the smallest size are cut off at the bottom of the box.
 */
export async function renderValueBoxes(boxes: readonly ValueBox[]): Promise<Uint8Array> {
  const { PDFDocument, rgb } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ink = rgb(...INK_RGB);
  const font = boxes.some((b) => b.text !== '') ? await embedCjkFont(doc) : null;
  for (const b of boxes) {
    const page = doc.addPage([Math.max(1, b.width), Math.max(1, b.height)]);
    if (!font || b.text === '') continue;
    if (b.multiline) {
      const { size, lines } = multilineLayout(font, b.text, b.width, b.height);
      let y = b.height - PAD - size;
      for (const line of lines) {
        if (y < -size * 0.2) break;
        if (line !== '') page.drawText(line, { x: PAD, y: y + size * 0.16, size, font, color: ink });
        y -= size * 1.2;
      }
    } else {
      const text = b.text.replace(/\s+/g, ' ');
      const size = lineSize(font, text, b.width, b.height);
      const y = (b.height - size) / 2 + size * 0.16;
      page.drawText(text, { x: PAD, y, size, font, color: ink });
    }
  }
  return doc.save({ useObjectStreams: false });
}
