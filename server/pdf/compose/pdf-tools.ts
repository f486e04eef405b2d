// PDF work of the documents module before and around signing: inspecting an upload, the verification
// footer written at launch (an ordinary rewrite: no signature exists yet), keyword positions, and the
// composite appearance of a party that applies more than one thing (seal + legal-person seal, date).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
// pdf-lib (with culori, which it loads) and qrcode are imported where a PDF is made, not at the top: loading it costs
// about half a second of CPU, which the server's start does not need.
import type { Color, PDFDocument, PDFFont, PDFObject, PDFPage } from '@cantoo/pdf-lib';
import type { PageSize } from '#contract/calls/document.ts';
import { SignError, SignErrorCode } from '../sign/errors.ts';
import type { PdfBase } from '../sign/pdf-base.ts';
import { parsedForSigning, prepareForSigning } from '../sign/repair.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';
import { loadPdfjs, type PdfjsModule } from '../pdfjs.ts';

const require = createRequire(import.meta.url);

type PdfProblem = 'notPdf' | 'encrypted' | 'passwordRequired' | 'notPermitted' | 'broken' | 'empty';

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
function hasEncryptEntry(bytes: Uint8Array): boolean {
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

// ---------------------------------------------------------------------------------------------------------
// What pdf-lib cannot rewrite safely
//
// pdf-lib walks a document's object graph by recursion in three places, none of which notices a cycle:
// the page tree (`PDFPageTree.traverse` down /Kids, for `getPages`), the inherited attributes
// (`PDFPageLeaf.ascend` up /Parent, for the MediaBox or Rotate of a page), and serialisation
// (`sizeInBytes`/`copyBytesInto` of every direct object, in `save`). The third is reached by drawing: a page
// drawn on is "normalised", which copies its (inherited) /Resources and the /Font, /XObject and /ExtGState
// dictionaries in it into their parents as DIRECT objects. A reference cycle among them (a page whose
// /Resources is the page itself, a /Resources whose /Font is the /Resources) thereby becomes an object
// that contains itself, and `save` recurses until the stack overflows. The walks below are iterative,
// visit each object once, and say why a file must not be rewritten before pdf-lib would recurse.

/** Deeper than any real page tree; the signer's own walk stops at the same depth (PdfBase.leaves). */
const MAX_PAGE_TREE_DEPTH = 64;
/** Direct objects nested deeper than this are not serialised by pdf-lib's recursion (real files: < 20). */
const MAX_NESTING = 256;

type PdfLib = typeof import('@cantoo/pdf-lib');

/**
 * Why pdf-lib's recursive page-tree walks would not end (a /Kids cycle, a node reached twice, a /Parent
 * loop, excessive depth), or null. Must run before `getPages`, `getMediaBox` or anything drawn.
 */
export function pageTreeProblem(lib: PdfLib, doc: PDFDocument): string | null {
  const { PDFArray, PDFDict, PDFName, PDFNull, PDFPageTree } = lib;
  const ctx = doc.context;
  const root = ctx.lookup(doc.catalog.get(PDFName.of('Pages')));
  if (!(root instanceof PDFPageTree)) return 'the catalog names no page tree';
  // /Parent chains known to end, so that each node is followed up once (bounded work)
  const ends = new Set<PDFObject>();
  const parentChain = (node: PDFObject): string | null => {
    const path = new Set<PDFObject>();
    let cur: PDFObject | undefined = node;
    while (cur !== undefined && !ends.has(cur)) {
      if (path.has(cur)) return 'a /Parent chain loops';
      if (path.size > MAX_PAGE_TREE_DEPTH) return 'a /Parent chain is too long';
      path.add(cur);
      const up: PDFObject | undefined = cur instanceof PDFDict ? cur.get(PDFName.of('Parent')) : undefined;
      cur = up === undefined ? undefined : ctx.lookup(up);
      if (cur === PDFNull) cur = undefined;
      if (cur !== undefined && !(cur instanceof PDFPageTree)) return 'a /Parent is not a page tree node';
    }
    for (const n of path) ends.add(n);
    return null;
  };
  const seen = new Set<PDFObject>([root]);
  const stack: [PDFObject, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const up = parentChain(node);
    if (up) return up;
    if (!(node instanceof PDFPageTree)) continue;
    if (depth >= MAX_PAGE_TREE_DEPTH) return 'the page tree is too deep';
    const kids = ctx.lookup(node.get(PDFName.of('Kids')));
    if (!(kids instanceof PDFArray)) return 'a page tree node has no /Kids array';
    for (const k of kids.asArray()) {
      const kid = ctx.lookup(k);
      if (kid === undefined) continue;
      if (seen.has(kid)) return 'a page tree node is reached twice (a /Kids cycle)';
      seen.add(kid);
      stack.push([kid, depth + 1]);
    }
  }
  return null;
}

/**
 * Why pdf-lib's serialisation would not end (a direct object that contains itself) or would overflow the
 * stack (direct objects nested deeper than MAX_NESTING), or null. Runs over every object about to be
 * written, after the drawing (which makes the direct copies): each container is visited once.
 */
export function nestingProblem(lib: PdfLib, doc: PDFDocument): string | null {
  const { PDFArray, PDFDict, PDFStream } = lib;
  const kidsOf = (o: PDFObject): PDFObject[] | null =>
    o instanceof PDFDict
      ? o.values()
      : o instanceof PDFArray
        ? o.asArray()
        : o instanceof PDFStream
          ? [o.dict]
          : null;
  // height of each container whose whole content was checked
  const height = new Map<PDFObject, number>();
  const onPath = new Set<PDFObject>();
  for (const [, top] of doc.context.enumerateIndirectObjects()) {
    const topKids = kidsOf(top);
    if (!topKids || height.has(top)) continue;
    const stack: { node: PDFObject; kids: PDFObject[]; i: number; h: number }[] = [
      { node: top, kids: topKids, i: 0, h: 0 },
    ];
    onPath.add(top);
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i < f.kids.length) {
        const k = f.kids[f.i++];
        const known = height.get(k);
        if (known !== undefined) {
          if (stack.length + known > MAX_NESTING) return 'objects are nested too deep';
          f.h = Math.max(f.h, known + 1);
          continue;
        }
        if (onPath.has(k)) return 'an object contains itself (a /Resources cycle)';
        const kids = kidsOf(k);
        if (!kids) continue;
        if (stack.length >= MAX_NESTING) return 'objects are nested too deep';
        onPath.add(k);
        stack.push({ node: k, kids, i: 0, h: 0 });
        continue;
      }
      stack.pop();
      onPath.delete(f.node);
      height.set(f.node, f.h);
      if (stack.length > 0) stack[stack.length - 1].h = Math.max(stack[stack.length - 1].h, f.h + 1);
    }
  }
  return null;
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
      const lib = await import('@cantoo/pdf-lib');
      const { PDFDocument, PDFName } = lib;
      const doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false });
      // a page tree pdf-lib would walk forever: the PDF core, whose walks are bounded, measures it
      const problem = pageTreeProblem(lib, doc);
      if (problem) throw new PdfRejected('broken', problem);
      const pages = doc.getPages();
      sizes = pages.some((p) => PAGE_KEYS.some((k) => p.node.has(PDFName.of(k)))) ? pageSizesOf(doc) : [];
    } catch {
      // Expected: pdf-lib cannot read this file (whatever it throws, a stack overflow of its recursion
      // included); the PDF core measures or refuses it.
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

type Fontkit = { create(data: Uint8Array, postscriptName?: string): unknown };
let cjkFontkit: Fontkit | undefined;
/**
 * fontkit for pdf-lib, parsing the CJK font once per process: pdf-lib asks fontkit to parse the font for
 * every document it embeds it in, and the first measure of text on a freshly parsed font reads its layout
 * tables (about 15 ms a field, a launch's whole fill). The parsed font is only read (a subset is made per
 * document), so one serves every document.
 */
function fontkitOnce(): Fontkit {
  if (cjkFontkit) return cjkFontkit;
  const fontkit = require('fontkit') as Fontkit;
  let parsed: unknown;
  cjkFontkit = {
    create: (data, postscriptName) => {
      if (data !== fontBytes) return fontkit.create(data, postscriptName);
      parsed ??= fontkit.create(data);
      return parsed;
    },
  };
  return cjkFontkit;
}

/** A font with CJK glyphs for footers and reports (subset: only the characters used are embedded). */
export async function embedCjkFont(doc: PDFDocument): Promise<PDFFont> {
  doc.registerFontkit(fontkitOnce() as Parameters<PDFDocument['registerFontkit']>[0]);
  return doc.embedFont(cjkFontBytes(), { subset: true });
}

/**
 * The QR code of `text` drawn as vector squares on a one-page PDF of `sizePt` (quiet zone included): one path
 * of one rectangle per run of dark modules in a row (drawn module by module it cost ~25 ms a launch).
 */
async function qrPagePdf(text: string, sizePt: number): Promise<Uint8Array> {
  const [
    { PDFDocument, rgb, rectangle, fill, setFillingRgbColor, pushGraphicsState, popGraphicsState },
    { default: QRCode },
  ] = await Promise.all([import('@cantoo/pdf-lib'), import('qrcode')]);
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = sizePt / (n + quiet * 2);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([sizePt, sizePt]);
  page.drawRectangle({ x: 0, y: 0, width: sizePt, height: sizePt, color: rgb(1, 1, 1) });
  const ops = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      let end = c;
      while (end + 1 < n && qr.modules.get(r, end + 1)) end++;
      // the 0.01 overlap keeps viewers from drawing hairline gaps between neighbouring modules
      ops.push(
        rectangle(
          (c + quiet) * cell,
          sizePt - (r + quiet + 1) * cell,
          (end - c + 1) * cell + 0.01,
          cell + 0.01,
        ),
      );
      c = end;
    }
  }
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
  return doc.save({ useObjectStreams: false });
}

/** The public verification address a footer's QR opens. */
const verifyUrl = (publicUrl: string, code: string) => `${publicUrl}/#/verify/${encodeURIComponent(code)}`;

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
 * ('broken') for a file pdf-lib cannot read, draw on or write back safely (cycles in the page tree or the
 * resources, see pageTreeProblem and nestingProblem): the launch then goes on without the footer.
 */
export async function stampFooter(bytes: Uint8Array, code: string, publicUrl: string): Promise<Uint8Array> {
  const url = verifyUrl(publicUrl, code);
  const qrSize = 12 * PT_PER_MM;
  const qrPdf = await qrPagePdf(url, qrSize);
  const labelsPdf = await footerLabels();
  const lib = await import('@cantoo/pdf-lib');
  const { PDFDocument, StandardFonts, rgb } = lib;
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const treeProblem = pageTreeProblem(lib, doc);
    if (treeProblem) throw new PdfRejected('broken', treeProblem);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const [qr] = await doc.embedPdf(qrPdf);
    const labels = await doc.embedPdf(labelsPdf, [0, 1]);
    const lines = [
      { label: labels[0], value: code },
      { label: labels[1], value: url },
    ];
    const grey = rgb(0.35, 0.35, 0.35);
    for (const page of doc.getPages()) drawFooter(page, font, grey, qr, qrSize, lines);
    const nesting = nestingProblem(lib, doc);
    if (nesting) throw new PdfRejected('broken', nesting);
    // awaited HERE, so that a failure of the writing (pdf-lib's recursion included) is caught below
    return await doc.save({ useObjectStreams: false });
  } catch (err) {
    // a damaged file pdf-lib misreads (a page tree or content it cannot follow) that the PDF core signs;
    // whatever pdf-lib threw (a RangeError of a recursion too) means the same: no rewrite
    if (err instanceof PdfRejected) throw err;
    throw new PdfRejected('broken', String((err as Error)?.message ?? err).slice(0, 200));
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

/** Characters of text kept on each side of a hit: enough to tell the launcher which match it is. */
const CONTEXT_CHARS = 16;

type KeywordHit = {
  page: number;
  rect: [number, number, number, number];
  /** The text before and after the hit on its line (at most CONTEXT_CHARS each, NFKC, spaces collapsed). */
  before: string;
  after: string;
};

/**
 * Every occurrence of `keyword` in the text of the document, in page order, with a box in PDF points
 * (origin bottom-left). A hit inside one text item gets a box proportional to its place in the item;
 * text split across items is matched by joining the items of a page. Both sides are NFKC-normalised first:
 * PDFs printed by Chrome carry compatibility code points in their text (Kangxi radicals such as U+2F45 ⽅
 * for 方 and U+2F04 ⼄ for 乙, full-width letters), which a typed keyword never matches as they are.
 */
export async function findKeyword(bytes: Uint8Array, keyword: string): Promise<KeywordHit[]> {
  // loaded outside the try: a pdf.js that does not load is the server's failure, not the file's
  const lib = await loadPdfjs();
  try {
    return await keywordHitsIn(lib, bytes, keyword);
  } catch {
    // Expected: pdf.js cannot open this file (a structure it does not reconstruct, which upload let through
    // because the PDF core reads or repairs it). No text pdf.js reads holds the keyword: the launch
    // refuses such a position by name, as for any keyword not found.
    return [];
  }
}

/** The hits of `keyword` as pdf.js reads the text; throws when pdf.js cannot open the file at all. */
async function keywordHitsIn(lib: PdfjsModule, bytes: Uint8Array, keyword: string): Promise<KeywordHit[]> {
  const task = lib.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const hits: KeywordHit[] = [];
  const needle = keyword.normalize('NFKC').replace(/\s+/g, '');
  try {
    const doc = await task.promise;
    for (let p = 1; p <= doc.numPages; p++) {
      let page: Awaited<ReturnType<typeof doc.getPage>>;
      let content: Awaited<ReturnType<typeof page.getTextContent>>;
      try {
        page = await doc.getPage(p);
        content = await page.getTextContent();
      } catch {
        // Expected: a page pdf.js cannot read (a broken page tree entry or content stream) has no text.
        continue;
      }
      // One string per page without spaces, with a map from each character to its item; and the page's
      // text as read (lines kept), with where each character of the first sits in it, for the context.
      let joined = '';
      let lines = '';
      const owners: { item: number; index: number; at: number }[] = [];
      const items = content.items.filter((i): i is Extract<typeof i, { str: string }> => 'str' in i);
      items.forEach((it, k) => {
        [...it.str].forEach((ch, idx) => {
          // One character may normalise to several (㈱ -> (株)): each keeps the original's place.
          for (const n of ch.normalize('NFKC')) {
            if (!/\s/.test(n)) {
              joined += n;
              owners.push({ item: k, index: idx, at: lines.length });
            }
            lines += n;
          }
        });
        lines += it.hasEOL ? '\n' : ' ';
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
          ...contextOf(lines, first.at, last.at + 1),
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

/** The text of the hit's line before `from` and after `to` in the page text `lines`. */
function contextOf(lines: string, from: number, to: number): { before: string; after: string } {
  const tidy = (s: string) => s.replace(/\s+/g, ' ');
  const start = lines.lastIndexOf('\n', from - 1) + 1;
  const endAt = lines.indexOf('\n', to);
  const before = tidy(lines.slice(start, from)).trimStart();
  const after = tidy(lines.slice(to, endAt < 0 ? undefined : endAt)).trimEnd();
  return {
    before: [...before].slice(-CONTEXT_CHARS).join(''),
    after: [...after].slice(0, CONTEXT_CHARS).join(''),
  };
}

/** Wording that says a party seals or signs here, right after the keyword: 甲方（盖章）, Party A (Seal). */
const SIGN_AFTER =
  /^[\s:：(（[【<《"“'‘]*(签章|盖章|签字|签名|签署|印章|公章|seal|signature|sign|stamp|chop)/i;
/** Or right before it: 签字人：甲方, Signature of Party A. */
const SIGN_BEFORE = /(签章|盖章|签字|签名|签署|seal|signature|signed by|sign)[\s:：of]*$/i;
/** A signature line: the keyword then (a colon and) a run of underscores. */
const SIGN_LINE = /^[\s:：)）]*[_＿]{3,}/;

/**
 * Which of the hits a keyword placement takes when the caller names none: the first hit followed (or
 * preceded) by sealing or signing wording (签章/盖章/签字, "(Seal)", "Signature"), else the first at a
 * signature line (underscores after the keyword), else the first hit. -1 for no hits.
 */
export function preferredKeywordHit(hits: readonly Pick<KeywordHit, 'before' | 'after'>[]): number {
  const signs = hits.findIndex((h) => SIGN_AFTER.test(h.after) || SIGN_BEFORE.test(h.before));
  if (signs >= 0) return signs;
  const line = hits.findIndex((h) => SIGN_LINE.test(h.after));
  if (line >= 0) return line;
  return hits.length > 0 ? 0 : -1;
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
