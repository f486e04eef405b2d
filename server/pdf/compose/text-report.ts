// A report as lines of text on A4 pages ("render this report"): the audit report and the verification
// report give their lines (texts, sizes, colours: their business), this draws them with the CJK face (it
// covers Latin text too) or Courier, wraps long lines at the page width and starts a new page when full.
// pdf-lib (with culori, which it loads) is imported where a PDF is made, not at the top: loading it costs
// about half a second of CPU, which the server's start does not need.
import type { PDFDocument, PDFFont, PDFPage, rgb as Rgb } from '@cantoo/pdf-lib';
import { embedCjkFont } from './pdf-tools.ts';

/** A4 in points and the report's margin. */
export const REPORT_PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;

type ReportLineStyle = {
  size?: number;
  /** 'cjk' (default) or 'mono' (Courier, for hashes and ids). */
  font?: 'cjk' | 'mono';
  color?: [number, number, number];
  indent?: number;
};

/**
 * How long lines break. `words`: the longest part that fits, cut after its last space when it has one (a
 * hash is always shown whole); a new page when less than two lines' height is left. `chars`: the longest
 * part that fits, whitespace runs read as one space; a new page when less than one line is left.
 */
type ReportWrap = 'words' | 'chars';

/** Splits a text into lines no wider than `max`, breaking after a space where the line has one. */
export function wrap(text: string, width: (t: string) => number, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    let n = 1;
    while (n < rest.length && width(rest.slice(0, n + 1)) <= max) n++;
    if (n < rest.length) {
      const space = rest.lastIndexOf(' ', n);
      if (space > 0) n = space + 1;
    }
    out.push(rest.slice(0, n).trimEnd());
    rest = rest.slice(n);
  }
  return out;
}

export class TextReport {
  readonly #doc: PDFDocument;
  readonly #fonts: Record<'cjk' | 'mono', PDFFont>;
  readonly #wrap: ReportWrap;
  readonly #rgb: typeof Rgb;
  #page: PDFPage;
  #y: number;

  private constructor(
    doc: PDFDocument,
    fonts: Record<'cjk' | 'mono', PDFFont>,
    wrapMode: ReportWrap,
    rgb: typeof Rgb,
  ) {
    this.#doc = doc;
    this.#rgb = rgb;
    this.#fonts = fonts;
    this.#wrap = wrapMode;
    this.#page = doc.addPage([REPORT_PAGE.width, REPORT_PAGE.height]);
    this.#y = REPORT_PAGE.height - REPORT_PAGE.margin;
  }

  static async create(options: { wrap: ReportWrap; title?: string }): Promise<TextReport> {
    const { PDFDocument, StandardFonts, rgb } = await import('@cantoo/pdf-lib');
    const doc = await PDFDocument.create({ updateMetadata: false });
    if (options.title) doc.setTitle(options.title);
    const cjk = await embedCjkFont(doc);
    const mono = await doc.embedFont(StandardFonts.Courier);
    return new TextReport(doc, { cjk, mono }, options.wrap, rgb);
  }

  /** Writes one text, wrapped at the page width less its indent. */
  line(text: string, style: ReportLineStyle = {}): void {
    const size = style.size ?? 9;
    const font = this.#fonts[style.font ?? 'cjk'];
    const indent = style.indent ?? 0;
    const max = REPORT_PAGE.width - 2 * REPORT_PAGE.margin - indent;
    const parts =
      this.#wrap === 'words'
        ? wrap(text, (t) => font.widthOfTextAtSize(t, size), max)
        : byChars(text.replace(/[\r\n\t]+/g, ' '), (t) => font.widthOfTextAtSize(t, size), max);
    const reserve = this.#wrap === 'words' ? size * 2 : size;
    for (const part of parts) {
      if (this.#y < REPORT_PAGE.margin + reserve) {
        this.#page = this.#doc.addPage([REPORT_PAGE.width, REPORT_PAGE.height]);
        this.#y = REPORT_PAGE.height - REPORT_PAGE.margin;
      }
      this.#page.drawText(part, {
        x: REPORT_PAGE.margin + indent,
        y: this.#y,
        size,
        font,
        color: this.#rgb(...(style.color ?? [0, 0, 0])),
      });
      this.#y -= size * 1.5;
    }
  }

  /**
   * Draws one-page PDFs (seal images) side by side at the current place, each scaled to fit `size` points
   * square, with a caption under each; a new page first when they do not fit.
   */
  async pdfRow(items: { pdf: Uint8Array; caption: string }[], size: number): Promise<void> {
    if (items.length === 0) return;
    const box = this.box(size + 14);
    const font = this.#fonts.cjk;
    let x = REPORT_PAGE.margin;
    for (const item of items) {
      const [embedded] = await this.#doc.embedPdf(item.pdf, [0]);
      const scale = Math.min(size / embedded.width, size / embedded.height);
      const w = embedded.width * scale;
      const h = embedded.height * scale;
      this.#page.drawPage(embedded, {
        x: x + (size - w) / 2,
        y: box.rect[1] + 14 + (size - h) / 2,
        width: w,
        height: h,
      });
      this.#page.drawText(item.caption.slice(0, 24), { x, y: box.rect[1] + 2, size: 7, font });
      x += size + 16;
      if (x + size > REPORT_PAGE.width - REPORT_PAGE.margin) break;
    }
    // The next line's letters rise above its baseline: clear of the captions.
    this.#y -= 12;
  }

  /**
   * Takes `height` points of the page's width at the current place (a new page first when they do not fit):
   * its page index and rectangle [x1, y1, x2, y2], e.g. where a signature will go.
   */
  box(height: number): { pageIndex: number; rect: [number, number, number, number] } {
    if (this.#y - height < REPORT_PAGE.margin) {
      this.#page = this.#doc.addPage([REPORT_PAGE.width, REPORT_PAGE.height]);
      this.#y = REPORT_PAGE.height - REPORT_PAGE.margin;
    }
    const top = this.#y;
    this.#y -= height + 6;
    return {
      pageIndex: this.#doc.getPageCount() - 1,
      rect: [REPORT_PAGE.margin, top - height, REPORT_PAGE.width - REPORT_PAGE.margin, top],
    };
  }

  /** Leaves `points` of space before the next line. */
  gap(points = 6): void {
    this.#y -= points;
  }

  get pageCount(): number {
    return this.#doc.getPageCount();
  }

  /** The whole file (classic xref table, no object streams: a signature is appended as an update). */
  save(): Promise<Uint8Array> {
    return this.#doc.save({ useObjectStreams: false });
  }
}

/** The longest prefixes that fit, one after the other. */
function byChars(text: string, width: (t: string) => number, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    let n = rest.length;
    while (n > 1 && width(rest.slice(0, n)) > max) n--;
    out.push(rest.slice(0, n));
    rest = rest.slice(n);
  }
  return out;
}

/**
 * A framed two-line stamp (Helvetica Bold) as a one-page PDF of 170 x 40 points: the visible appearance of
 * a platform signature.
 */
export async function framedStampPdf(
  title: string,
  subtitle: string,
  color: [number, number, number],
): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('@cantoo/pdf-lib');
  const stamp = await PDFDocument.create({ updateMetadata: false });
  const font = await stamp.embedFont(StandardFonts.HelveticaBold);
  const page = stamp.addPage([170, 40]);
  const ink = rgb(...color);
  page.drawRectangle({ x: 1, y: 1, width: 168, height: 38, borderColor: ink, borderWidth: 1.5 });
  page.drawText(title, { x: 12, y: 22, size: 12, font, color: ink });
  page.drawText(subtitle, { x: 12, y: 9, size: 8, font, color: ink });
  return stamp.save();
}
