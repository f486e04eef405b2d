// Comparing two revisions of a document (issue 29): each page's text as pdf.js reads it (the text layer a
// viewer selects), in lines, and a line diff per page (longest common subsequence): kept, removed, added.
// A page without text (a scan) says so; nothing is guessed from images.
import type { DiffLine, PageDiff } from '#contract/calls/revisions.ts';
import { openPdf } from '../../pdf/pdfjs.ts';

/** Lines beyond this per page are compared as one block (a diff is quadratic in the lines). */
const MAX_LINES = 1500;

/** Each page's lines of text (whitespace tidied, empty lines dropped); a page pdf.js cannot read has none. */
export async function pageLines(bytes: Uint8Array): Promise<string[][]> {
  let doc: Awaited<ReturnType<typeof openPdf>>;
  try {
    doc = await openPdf(bytes);
  } catch {
    // Expected: a file pdf.js cannot open (the PDF core read or repaired it): no text layer to compare.
    return [];
  }
  const pages: string[][] = [];
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      let text = '';
      try {
        const page = await doc.getPage(p);
        const content = await page.getTextContent();
        let lastY: number | null = null;
        for (const it of content.items) {
          if (!('str' in it)) continue;
          const y = (it.transform as number[])[5];
          // A new line where pdf.js says so, or where the baseline moves.
          if (lastY !== null && Math.abs(y - lastY) > 2 && !text.endsWith('\n')) text += '\n';
          text += it.str.normalize('NFKC');
          text += it.hasEOL ? '\n' : '';
          lastY = y;
        }
        page.cleanup();
      } catch {
        // Expected: one page pdf.js cannot read has no text; the others are still compared.
        text = '';
      }
      pages.push(
        text
          .split('\n')
          .map((l) => l.replace(/\s+/g, ' ').trim())
          .filter((l) => l.length > 0),
      );
    }
  } finally {
    await doc.loadingTask.destroy();
  }
  return pages;
}

/** The line diff of two texts: the longest common subsequence kept, the rest removed (a) or added (b). */
export function diffLines(a: string[], b: string[]): DiffLine[] {
  if (a.length > MAX_LINES || b.length > MAX_LINES) {
    const same = a.length === b.length && a.every((l, i) => l === b[i]);
    return same
      ? a.map((text) => ({ op: 'same', text }))
      : [
          ...a.map((text) => ({ op: 'removed' as const, text })),
          ...b.map((text) => ({ op: 'added' as const, text })),
        ];
  }
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common subsequence's length of a[i..] and b[j..]
  const lcs: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ op: 'removed', text: a[i++] });
    else out.push({ op: 'added', text: b[j++] });
  }
  while (i < n) out.push({ op: 'removed', text: a[i++] });
  while (j < m) out.push({ op: 'added', text: b[j++] });
  return out;
}

/** Page by page: both files' text compared; a page only one file has is all removed or all added. */
export async function comparePages(older: Uint8Array, newer: Uint8Array): Promise<PageDiff[]> {
  const [a, b] = await Promise.all([pageLines(older), pageLines(newer)]);
  const out: PageDiff[] = [];
  const state = (pages: string[][], i: number) =>
    i >= pages.length ? ('missing' as const) : pages[i].length ? ('text' as const) : ('none' as const);
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    out.push({
      page: i + 1,
      olderText: state(a, i),
      newerText: state(b, i),
      lines: diffLines(a[i] ?? [], b[i] ?? []),
    });
  return out;
}
