// PDF work of the documents module before and around signing: inspecting an upload, the verification
// footer written at launch (an ordinary rewrite: no signature exists yet), keyword positions, and the
// composite appearance of a party that applies more than one thing (seal + legal-person seal, date).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
// pdf-lib (with culori, which it loads) and qrcode are imported where a PDF is made, not at the top: loading it costs
// about half a second of CPU, which the server's start does not need.
import type { Color, PDFDocument, PDFFont, PDFPage } from '@cantoo/pdf-lib';
import type { PageSize } from '#contract/calls/document.ts';
import { SignError, SignErrorCode } from '../sign/errors.ts';
import type { PdfBase } from '../sign/pdf-base.ts';
import { parsedForSigning, prepareForSigning } from '../sign/repair.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';

const require = createRequire(import.meta.url);

export type PdfProblem = 'notPdf' | 'encrypted' | 'passwordRequired' | 'notPermitted' | 'broken' | 'empty';

export class PdfRejected extends Error {
  readonly problem: PdfProblem;
  constructor(problem: PdfProblem, detail?: string) {
    super(detail ? `${problem}: ${detail}` : problem);
    this.problem = problem;
  }
}

/** Page sizes of a loaded document (MediaBox, unrotated). */
function pageSizesOf(doc: PDFDocument): PageSize[] {
  return doc.getPages().map((p) => {
    const box = p.getMediaBox();
    const rotate = ((p.getRotation().angle % 360) + 360) % 360;
    return { widthPt: box.width, heightPt: box.height, rotate };
  });
}

const hasPdfHeader = (bytes: Uint8Array) => {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
};

/** A trailer (or xref stream) naming an /Encrypt dictionary: the file is encrypted, whatever a parser makes of it. */
export function hasEncryptEntry(bytes: Uint8Array): boolean {
  return /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(Buffer.from(bytes).toString('latin1'));
}

/**
 * Keys a page object has (ISO 32000-2 Table 31). A "page tree" none of whose leaves carries any of them (a
 * /Pages entry naming a JavaScript action, say) has no page: the file is refused as empty, not signed on a
 * page invented for it.
 */
const PAGE_KEYS = ['Type', 'Parent', 'Contents', 'MediaBox', 'Resources'];

/** Page sizes as the signer reads them (its own parser, decryption and repair), for what pdf-lib cannot open. */
function coreSizes(bytes: Uint8Array): PageSize[] {
  let base: PdfBase;
  try {
    base = parsedForSigning(prepareForSigning(bytes).bytes);
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    if (err.code === SignErrorCode.PasswordRequired) throw new PdfRejected('passwordRequired');
    if (err.code === SignErrorCode.SigningNotPermitted) throw new PdfRejected('notPermitted');
    if (err.code === SignErrorCode.Encrypted) throw new PdfRejected('encrypted', err.message);
    if (err.code === SignErrorCode.NotPdf) throw new PdfRejected('notPdf');
    throw new PdfRejected('broken', err.message.slice(0, 200));
  }
  try {
    const leaves = base.leaves(base.pageCount());
    if (!leaves.some((p) => PAGE_KEYS.some((k) => p.dict.v.has(k)))) return [];
    return leaves.map((p) => {
      const [x1, y1, x2, y2] = p.mediaBox;
      const rotate = ((p.rotate % 360) + 360) % 360;
      return { widthPt: Math.abs(x2 - x1), heightPt: Math.abs(y2 - y1), rotate };
    });
  } catch (err) {
    if (err instanceof SignError) throw new PdfRejected('broken', err.message.slice(0, 200));
    throw err;
  }
}

/**
 * Parses an upload: refuses a file that is not a PDF, cannot be parsed (even after repair), has no page,
 * needs a password or whose permissions forbid signing. Returns the page count and sizes. pdf-lib reads
 * what it can; encrypted files and damaged files it cannot read are measured by the PDF core, which is
 * what signs them.
 */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pages: number; pageSizes: PageSize[] }> {
  if (bytes.length === 0) throw new PdfRejected('empty');
  let sizes: PageSize[];
  // without a %PDF header (which viewers do not insist on), encrypted: the PDF core reads it or refuses it
  if (!hasPdfHeader(bytes) || hasEncryptEntry(bytes)) sizes = coreSizes(bytes);
  else {
    try {
      const { PDFDocument, PDFName } = await import('@cantoo/pdf-lib');
      const doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false });
      const pages = doc.getPages();
      sizes = pages.some((p) => PAGE_KEYS.some((k) => p.node.has(PDFName.of(k)))) ? pageSizesOf(doc) : [];
    } catch {
      // Expected: pdf-lib cannot read this file (whatever it throws); the PDF core measures or refuses it.
      sizes = coreSizes(bytes);
    }
  }
  if (sizes.length === 0) throw new PdfRejected('empty');
  if (!sizes.every((s) => Number.isFinite(s.widthPt) && s.widthPt > 0 && s.heightPt > 0))
    throw new PdfRejected('broken', 'a page has no usable MediaBox');
  return { pages: sizes.length, pageSizes: sizes };
}

/** The launch writes no footer on an encrypted file: the pdf-lib rewrite would drop its encryption. */
export const footerWouldDecrypt = hasEncryptEntry;

let fontBytes: Uint8Array | undefined;
function cjkFontBytes(): Uint8Array {
  fontBytes ??= new Uint8Array(
    readFileSync(require.resolve('@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf')),
  );
  return fontBytes;
}

/** A font with CJK glyphs for footers and reports (subset: only the characters used are embedded). */
export async function embedCjkFont(doc: PDFDocument): Promise<PDFFont> {
  doc.registerFontkit(require('fontkit'));
  return doc.embedFont(cjkFontBytes(), { subset: true });
}

/** The QR code of `text` drawn as vector squares on a one-page PDF of `sizePt` (quiet zone included). */
async function qrPagePdf(text: string, sizePt: number): Promise<Uint8Array> {
  const [{ PDFDocument, rgb }, { default: QRCode }] = await Promise.all([
    import('@cantoo/pdf-lib'),
    import('qrcode'),
  ]);
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = sizePt / (n + quiet * 2);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([sizePt, sizePt]);
  page.drawRectangle({ x: 0, y: 0, width: sizePt, height: sizePt, color: rgb(1, 1, 1) });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      page.drawRectangle({
        x: (c + quiet) * cell,
        y: sizePt - (r + quiet + 1) * cell,
        width: cell + 0.01,
        height: cell + 0.01,
        color: rgb(0, 0, 0),
      });
    }
  }
  return doc.save({ useObjectStreams: false });
}

/** The public verification address a footer's QR opens. */
export const verifyUrl = (publicUrl: string, code: string) =>
  `${publicUrl}/#/verify/${encodeURIComponent(code)}`;

const FOOTER_FONT_SIZE = 6;
const FOOTER_LABELS = ['验证码 Verification code: ', '扫码或访问验证 Scan or visit to verify: '];
let labelPdf: Promise<Uint8Array> | undefined;

/**
 * The bilingual labels of the footer, typeset once per process with the CJK font (one page per label):
 * embedding a subset of the 15 MB font costs about half a second, drawing a ready page costs nothing.
 */
function footerLabels(): Promise<Uint8Array> {
  labelPdf ??= (async () => {
    const { PDFDocument, rgb } = await import('@cantoo/pdf-lib');
    const doc = await PDFDocument.create({ updateMetadata: false });
    const font = await embedCjkFont(doc);
    for (const label of FOOTER_LABELS) {
      const width = font.widthOfTextAtSize(label, FOOTER_FONT_SIZE);
      const page = doc.addPage([width, FOOTER_FONT_SIZE * 1.4]);
      page.drawText(label, {
        x: 0,
        y: FOOTER_FONT_SIZE * 0.3,
        size: FOOTER_FONT_SIZE,
        font,
        color: rgb(0.35, 0.35, 0.35),
      });
    }
    return doc.save({ useObjectStreams: false });
  })();
  // A failed build is not kept (the next call builds again); the caller still gets the failure.
  labelPdf.catch(() => {
    labelPdf = undefined;
  });
  return labelPdf;
}

/**
 * Writes on every page, before any signature, a small footer with the verification code and a QR code to
 * `${publicUrl}/#/verify/<code>`. A full rewrite (classic xref table, no object streams), which is
 * allowed because nothing is signed yet; every later change is an incremental update. Throws PdfRejected
 * ('broken') for a file pdf-lib cannot read or draw on (the launch then goes on without the footer).
 */
export async function stampFooter(bytes: Uint8Array, code: string, publicUrl: string): Promise<Uint8Array> {
  const url = verifyUrl(publicUrl, code);
  const qrSize = 12 * PT_PER_MM;
  const qrPdf = await qrPagePdf(url, qrSize);
  const labelsPdf = await footerLabels();
  const { PDFDocument, StandardFonts, rgb } = await import('@cantoo/pdf-lib');
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const [qr] = await doc.embedPdf(qrPdf);
    const labels = await doc.embedPdf(labelsPdf, [0, 1]);
    const lines = [
      { label: labels[0], value: code },
      { label: labels[1], value: url },
    ];
    const grey = rgb(0.35, 0.35, 0.35);
    for (const page of doc.getPages()) drawFooter(page, font, grey, qr, qrSize, lines);
    return doc.save({ useObjectStreams: false });
  } catch (err) {
    // a damaged file pdf-lib misreads (a page tree or content it cannot follow) that the PDF core signs
    throw new PdfRejected('broken', (err as Error).message?.slice(0, 200));
  }
}

type Embedded = Parameters<PDFPage['drawPage']>[0];

function drawFooter(
  page: PDFPage,
  font: PDFFont,
  color: Color,
  qr: Embedded,
  qrSize: number,
  lines: { label: Embedded; value: string }[],
): void {
  const box = page.getMediaBox();
  const margin = 4 * PT_PER_MM;
  // Small pages (receipts, cards) get a smaller footer.
  const scale = Math.min(1, box.width / 420);
  const size = qrSize * scale;
  const x = box.x + box.width - margin * scale - size;
  const y = box.y + margin * scale * 0.5;
  page.drawPage(qr, { x, y, width: size, height: size });
  const textRight = x - 2 * scale;
  const maxWidth = textRight - (box.x + margin * scale);
  for (const [i, line] of lines.entries()) {
    const valueWidth = font.widthOfTextAtSize(line.value, FOOTER_FONT_SIZE);
    const total = line.label.width + valueWidth;
    const s = Math.min(scale, maxWidth / total);
    const baseY = y + size * 0.55 - i * (FOOTER_FONT_SIZE + 2) * scale;
    const left = textRight - total * s;
    page.drawPage(line.label, {
      x: left,
      y: baseY - FOOTER_FONT_SIZE * 0.3 * s,
      width: line.label.width * s,
      height: line.label.height * s,
    });
    page.drawText(line.value, {
      x: left + line.label.width * s,
      y: baseY,
      size: FOOTER_FONT_SIZE * s,
      font,
      color,
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Keywords

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfjsModule> | undefined;
function loadPdfjs(): Promise<PdfjsModule> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((m) => {
    m.GlobalWorkerOptions.workerSrc = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return m;
  });
  return pdfjs;
}

export type KeywordHit = { page: number; rect: [number, number, number, number] };

/**
 * Every occurrence of `keyword` in the text of the document, in page order, with a box in PDF points
 * (origin bottom-left). A hit inside one text item gets a box proportional to its place in the item;
 * text split across items is matched by joining the items of a page. Both sides are NFKC-normalised first:
 * PDFs printed by Chrome carry compatibility code points in their text (Kangxi radicals such as U+2F45 ⽅
 * for 方 and U+2F04 ⼄ for 乙, full-width letters), which a typed keyword never matches as they are.
 */
export async function findKeyword(bytes: Uint8Array, keyword: string): Promise<KeywordHit[]> {
  const lib = await loadPdfjs();
  const task = lib.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  const hits: KeywordHit[] = [];
  const needle = keyword.normalize('NFKC').replace(/\s+/g, '');
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      // One string per page without spaces, with a map from each character to its item.
      let joined = '';
      const owners: { item: number; index: number }[] = [];
      const items = content.items.filter((i): i is Extract<typeof i, { str: string }> => 'str' in i);
      items.forEach((it, k) => {
        [...it.str].forEach((ch, idx) => {
          // One character may normalise to several (㈱ -> (株)): each keeps the original's place.
          for (const n of ch.normalize('NFKC')) {
            if (/\s/.test(n)) continue;
            joined += n;
            owners.push({ item: k, index: idx });
          }
        });
      });
      const chars = [...joined];
      const needleChars = [...needle];
      for (let i = 0; i + needleChars.length <= chars.length; i++) {
        if (chars.slice(i, i + needleChars.length).join('') !== needle) continue;
        const first = owners[i];
        const last = owners[i + needleChars.length - 1];
        const a = items[first.item];
        const b = items[last.item];
        const boxOf = (it: typeof a, from: number, to: number) => {
          const [, , , d, e, f] = it.transform as number[];
          const len = Math.max(1, [...it.str].length);
          const x1 = e + (it.width * from) / len;
          const x2 = e + (it.width * to) / len;
          const h = it.height || Math.abs(d) || 10;
          return [x1, f - h * 0.2, x2, f + h * 0.9] as const;
        };
        const ra = boxOf(a, first.index, first.item === last.item ? last.index + 1 : [...a.str].length);
        const rb = first.item === last.item ? ra : boxOf(b, 0, last.index + 1);
        hits.push({
          page: p,
          rect: [
            Math.min(ra[0], rb[0]),
            Math.min(ra[1], rb[1]),
            Math.max(ra[2], rb[2]),
            Math.max(ra[3], rb[3]),
          ],
        });
        i += needleChars.length - 1;
      }
      page.cleanup();
    }
  } finally {
    await task.destroy();
  }
  return hits;
}

// ---------------------------------------------------------------------------------------------------------
// Composite appearance

export type AppearancePart = { pdf: Uint8Array } | { png: Uint8Array; widthMm: number; heightMm: number };

/**
 * One page holding several seals side by side (company seal, legal-person seal, a person's signature)
 * and optionally a date line under them: the appearance of a party that applies more than one thing in
 * its one signature. Sizes are the seals' print sizes.
 */
export async function compositeAppearance(
  parts: AppearancePart[],
  dateText: string | null,
): Promise<Uint8Array> {
  const { PDFDocument, rgb } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.create({ updateMetadata: false });
  const gap = 2 * PT_PER_MM;
  type Placed = { draw: (page: PDFPage, x: number, y: number) => void; width: number; height: number };
  const placed: Placed[] = [];
  for (const part of parts) {
    if ('pdf' in part) {
      const [emb] = await doc.embedPdf(part.pdf);
      placed.push({ width: emb.width, height: emb.height, draw: (pg, x, y) => pg.drawPage(emb, { x, y }) });
    } else {
      const img = await doc.embedPng(part.png);
      const width = part.widthMm * PT_PER_MM;
      const height = part.heightMm * PT_PER_MM;
      placed.push({ width, height, draw: (pg, x, y) => pg.drawImage(img, { x, y, width, height }) });
    }
  }
  const dateSize = 9;
  const dateHeight = dateText ? dateSize * 1.6 : 0;
  const sealsWidth = placed.reduce((s, p) => s + p.width, 0) + gap * Math.max(0, placed.length - 1);
  const sealsHeight = Math.max(0, ...placed.map((p) => p.height));
  const font = dateText ? await doc.embedFont('Helvetica') : null;
  const dateWidth = font && dateText ? font.widthOfTextAtSize(dateText, dateSize) : 0;
  const width = Math.max(sealsWidth, dateWidth, 1);
  const height = Math.max(sealsHeight + dateHeight, 1);
  const page = doc.addPage([width, height]);
  let x = (width - sealsWidth) / 2;
  for (const p of placed) {
    p.draw(page, x, dateHeight + (sealsHeight - p.height) / 2);
    x += p.width + gap;
  }
  if (font && dateText)
    page.drawText(dateText, {
      x: (width - dateWidth) / 2,
      y: dateSize * 0.4,
      size: dateSize,
      font,
      color: rgb(0, 0, 0),
    });
  return doc.save({ useObjectStreams: false });
}
