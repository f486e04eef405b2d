// Hand-made PDFs whose object graph loops (issue 23, L2): the page's /Resources is the page itself, a
// /Resources whose /Font is the /Resources, a form XObject whose /Resources leads back, a /Kids cycle, a
// /Parent loop, annotation /P and /AP cycles, a page reached twice, deeply nested arrays. And the mutation
// the launch fuzz adds to tests/server/pdf/mutations.ts: a reference rewritten so that it makes a cycle.

/** A classic PDF of the given object bodies (numbered from 1, object 1 the catalog), offsets all right. */
export function rawPdf(objects: string[]): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

const stream = (dict: string, data: string) =>
  `<< ${dict} /Length ${data.length} >>\nstream\n${data}\nendstream`;

export const KEYWORD = 'Cycle contract';
const TEXT = `BT /F1 14 Tf 72 720 Td (${KEYWORD}) Tj ET`;
const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (extra: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ${extra} >>`;

/**
 * A sound one-page file whose resources are all indirect objects (what a reference rewrite needs to make
 * a cycle pdf-lib's footer rewrite would meet): 5 /Resources, 6 the font, 7 a form XObject, 8 an annotation.
 */
export const indirectResources = (): Uint8Array =>
  rawPdf([
    CATALOG,
    PAGES,
    page('/Resources 5 0 R /Contents 4 0 R /Annots [8 0 R]'),
    stream('', `${TEXT} q /X1 Do Q`),
    '<< /Font << /F1 6 0 R >> /XObject << /X1 7 0 R >> /ExtGState << >> >>',
    FONT,
    stream('/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /Font << /F1 6 0 R >> >>', TEXT),
    '<< /Type /Annot /Subtype /Square /Rect [10 10 50 50] /P 3 0 R >>',
  ]);

export type CyclicCase = {
  name: string;
  bytes: () => Uint8Array;
  /** whether the launch still writes the verification footer (pdf-lib can rewrite the file safely) */
  footer: boolean;
};

export const CYCLIC_CASES: CyclicCase[] = [
  {
    // the file of the finding: the page's /Resources is a reference to the page itself
    name: 'page /Resources is the page itself',
    footer: false,
    bytes: () => rawPdf([CATALOG, PAGES, page('/Resources 3 0 R /Contents 4 0 R'), stream('', TEXT)]),
  },
  {
    name: '/Resources whose /Font and /XObject lead back',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        PAGES,
        page('/Resources 5 0 R /Contents 4 0 R'),
        stream('', TEXT),
        '<< /Font 5 0 R /XObject 3 0 R >>',
      ]),
  },
  {
    name: 'resources inherited from the page tree node, whose /XObject is those resources',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources 5 0 R >>',
        page('/Contents 4 0 R'),
        stream('', TEXT),
        '<< /XObject 5 0 R >>',
      ]),
  },
  {
    name: 'a form XObject whose /Resources point back to the /Resources drawing it',
    footer: true,
    bytes: () =>
      rawPdf([
        CATALOG,
        PAGES,
        page('/Resources 5 0 R /Contents 4 0 R'),
        stream('', `${TEXT} /X1 Do`),
        '<< /Font << /F1 7 0 R >> /XObject << /X1 6 0 R >> >>',
        stream('/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources 5 0 R', '/X1 Do'),
        FONT,
      ]),
  },
  {
    name: 'a /Kids cycle in the page tree',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
        page('/Contents 4 0 R'),
        stream('', TEXT),
        '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
      ]),
  },
  {
    name: 'the same page twice in /Kids',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>',
        page('/Contents 4 0 R'),
        stream('', TEXT),
      ]),
  },
  {
    name: 'a /Parent loop above the page (its MediaBox inherited)',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 5 0 R >>',
        '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
        stream('', TEXT),
        '<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      ]),
  },
  {
    name: 'annotation /P and /AP cycles',
    footer: true,
    bytes: () =>
      rawPdf([
        CATALOG,
        PAGES,
        page('/Contents 4 0 R /Annots 6 0 R'),
        stream('', TEXT),
        '<< /Type /Annot /Subtype /Square /Rect [10 10 50 50] /P 3 0 R /AP << /N 7 0 R /D 5 0 R >> /Popup 5 0 R >>',
        '[5 0 R 6 0 R]',
        stream(
          '/Type /XObject /Subtype /Form /BBox [0 0 40 40] /Resources << /XObject << /A 7 0 R >> >>',
          '/A Do',
        ),
      ]),
  },
  {
    // deeper than pdf-lib's parser recursion: it keeps the object as raw bytes and writes it back
    name: 'arrays nested 100000 deep in an object nothing uses',
    footer: true,
    bytes: () =>
      rawPdf([
        CATALOG,
        PAGES,
        page('/Contents 4 0 R'),
        stream('', TEXT),
        `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      ]),
  },
  {
    // parsed by pdf-lib, but deeper than its writer is allowed to recurse
    name: 'arrays nested 2000 deep in an object nothing uses',
    footer: false,
    bytes: () =>
      rawPdf([
        CATALOG,
        PAGES,
        page('/Contents 4 0 R'),
        stream('', TEXT),
        `${'['.repeat(2000)}${']'.repeat(2000)}`,
      ]),
  },
];

const CYCLE_KEYS =
  /\/(Resources|Parent|Kids|Font|XObject|ExtGState|Annots|P|AP|N|Pages|Contents|Popup|F1|X1)\s*\[?\s*(\d+) (\d+) R/g;

/**
 * One reference of `src` that follows a structural key (/Resources, /Parent, /Kids, /Font ...) rewritten
 * to the object holding it (a self-cycle), the first page, or another object of the file; same length
 * when the number fits, so the cross-reference offsets stay right and pdf-lib reads the cycle as meant.
 * Null when the file has no such reference.
 */
export function rewriteRef(src: Uint8Array, rnd: () => number): { bytes: Uint8Array; how: string } | null {
  const text = Buffer.from(src).toString('latin1');
  const refs = [...text.matchAll(CYCLE_KEYS)];
  const heads = [...text.matchAll(/(\d+) (\d+) obj/g)];
  if (refs.length === 0 || heads.length === 0) return null;
  const pick = refs[Math.floor(rnd() * refs.length)];
  const at = pick.index + pick[0].length - `${pick[2]} ${pick[3]} R`.length;
  const holder = heads.filter((h) => h.index < at).at(-1) ?? heads[0];
  const pageHead = heads.find((h) => /\/Type\s*\/Page\b/.test(text.slice(h.index, h.index + 300)));
  const r = rnd();
  const target =
    r < 0.5 ? holder[1] : r < 0.75 && pageHead ? pageHead[1] : heads[Math.floor(rnd() * heads.length)][1];
  const old = `${pick[2]} ${pick[3]} R`;
  const fresh = `${target} 0 R`.padEnd(old.length, ' ');
  const bytes = Buffer.concat([
    Buffer.from(src.subarray(0, at)),
    Buffer.from(fresh, 'latin1'),
    Buffer.from(src.subarray(at + old.length)),
  ]);
  return { bytes: new Uint8Array(bytes), how: `/${pick[1]} ${old} -> ${fresh.trim()}@${at}` };
}
