// Damage that poppler reads past, built here byte by byte, each as a class: an /Encrypt entry poppler ignores
// (it leads to no dictionary, or only a trailer poppler does not use names it), a page tree that yields no
// page while the file holds page objects, a page and a catalog our reader cannot parse. Each file is repaired
// once, signed, valid in pdfsig and in the verifier; poppler draws what it drew before (or, where it found no
// page at all, the page objects the repair found). And a readable encryption under a password stays refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localiseDetail } from '#server/modules/audit/index.ts';
import type { Signer, TimestampFn } from '#server/pdf/sign/cms.ts';
import { type SignError, SignErrorCode } from '#server/pdf/sign/errors.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import type { PkiFixture } from '../../fixtures/pki.ts';
import { hasTool, isPrefix, pdfsigValid, startSigningKit } from '../../fixtures/pdf-signing.ts';

let fx: PkiFixture;
let signer: Signer;
let ts: TimestampFn;
let seal: Uint8Array;

beforeAll(async () => {
  ({ fx, signer, ts, seal } = await startSigningKit('p-viewers'));
}, 60_000);
afterAll(() => fx?.close());

const hasPoppler = ['pdfsig', 'certutil', 'pdftoppm', 'pdftotext', 'pdfinfo'].every(hasTool);
if (!hasPoppler) console.warn('SKIPPING poppler assertions: poppler-utils or libnss3-tools not installed');

/**
 * Objects 1..n (bodies), their table, a trailer with `trailer` keys; `startxref` may be made to lie, and
 * `prefix` replaces the header (the offsets then count from the start of this part).
 */
function pdf(bodies: string[], trailer: string, opts: { startxref?: number; prefix?: string } = {}): Buffer {
  let s = opts.prefix ?? '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  bodies.forEach((b, i) => {
    offsets.push(Buffer.byteLength(s, 'latin1'));
    s += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  const xref = Buffer.byteLength(s, 'latin1');
  s += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f\r\n`;
  for (const o of offsets) s += `${String(o).padStart(10, '0')} 00000 n\r\n`;
  s += `trailer\n<< /Size ${bodies.length + 1} ${trailer} >>\nstartxref\n${opts.startxref ?? xref}\n%%EOF\n`;
  return Buffer.from(s, 'latin1');
}

const text = (t: string) => {
  const c = `BT /F1 24 Tf 72 700 Td (${t}) Tj ET`;
  return `<< /Length ${c.length} >>\nstream\n${c}\nendstream`;
};
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (contents: number, font: number, parent = 2) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`;
/** An /Encrypt dictionary of the standard handler whose user password is not empty (random /O and /U). */
const LOCKED = `<< /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> >>`;

/** A plain document of three pages (objects 1–8); `extra` objects follow from 9. */
const plain = (extra: string[] = [], kids = '[3 0 R 4 0 R 5 0 R]') => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  `<< /Type /Pages /Kids ${kids} /Count 3 >>`,
  page(6, 9 + extra.length),
  page(7, 9 + extra.length),
  page(8, 9 + extra.length),
  text('Page one'),
  text('Page two'),
  text('Page three'),
  ...extra,
  FONT,
];

async function signs(input: Uint8Array, name: string) {
  const ready = prepareForSigning(input);
  expect(ready.repaired).toBe(true);
  expect(Buffer.from(ready.bytes).includes(Buffer.from(input))).toBe(true);
  expect(prepareForSigning(ready.bytes).repaired).toBe(false);
  const zh = localiseDetail('repair', `repaired before signing: ${ready.problem}`, 'zh') ?? '';
  expect(zh.replace(/startxref|%PDF|\/Encrypt|\/Size|\/Prev/g, ''), zh).not.toMatch(/[A-Za-z]/);
  const out = await signPdf(ready.bytes, {
    signer,
    timestamp: ts,
    appearance: { pdf: seal },
    placement: { pageIndex: 0, rect: [20, 20, 80, 80] },
  });
  expect(isPrefix(ready.bytes, out)).toBe(true);
  const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
  expect(report.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED']);
  if (hasPoppler) expect(pdfsigValid(fx, out, name)).toEqual([true]);
  return { ready, out };
}

/** A tool's standard output (its complaints about the damage aside) and whether it exited 0. */
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return { out: r.stdout ?? '', status: r.status };
};

/** What poppler shows of `bytes`: its page count, page sizes, the text of each page, page 1 drawn. */
function poppler(bytes: Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), 'viewers-open-'));
  try {
    const file = join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    const info = run('pdfinfo', ['-f', '1', '-l', '99', file]).out;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    const sizes = [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+)/gm)].map((m) => m[1]);
    const texts = Array.from({ length: pages }, (_, i) =>
      run('pdftotext', ['-f', `${i + 1}`, '-l', `${i + 1}`, file, '-']).out.trim(),
    );
    const out = join(dir, 'p');
    const r = run('pdftoppm', [
      '-f',
      '1',
      '-l',
      '1',
      '-r',
      '20',
      '-gray',
      '-hide-annotations',
      '-singlefile',
      file,
      out,
    ]);
    return { pages, sizes, texts, drawn: r.status === 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** poppler shows the three pages of the file given, and the signed file exactly as the file given. */
function showsAsBefore(input: Uint8Array, out: Uint8Array) {
  if (!hasPoppler) return;
  const before = poppler(input);
  expect(before.texts).toEqual(['Page one', 'Page two', 'Page three']);
  expect(poppler(out)).toEqual(before);
}

describe('an /Encrypt entry poppler ignores: read and signed in the clear', () => {
  test.each([
    ['a sound table', {}],
    ['a startxref that points nowhere', { startxref: 99999 }],
  ])('an /Encrypt that leads to no dictionary (fuzzed), %s', async (_, opts) => {
    // the dictionary's "<<" fuzzed into "E<", as poppler and pdf.js read it: no encryption at all
    const input = pdf(plain([`E${LOCKED.slice(1)}`]), '/Root 1 0 R /Encrypt 9 0 R', opts);
    const { ready, out } = await signs(input, 'fuzzed-encrypt.pdf');
    expect(ready.problem).toContain('an unreadable /Encrypt entry dropped');
    showsAsBefore(input, out);
  });

  test('a second trailer with the same /Root and an /Encrypt, its startxref wrong: the first trailer is read', async () => {
    const first = pdf(plain(), '/Root 1 0 R');
    // appended: an encryption dictionary and a whole new table naming it, with the catalog it already had
    const second = pdf([...plain([LOCKED])], '/Root 1 0 R /Encrypt 9 0 R', { startxref: 7, prefix: '' });
    const input = Buffer.concat([first, second]);
    const { ready, out } = await signs(input, 'second-trailer.pdf');
    expect(ready.problem).toContain('an /Encrypt entry of a trailer viewers do not use dropped');
    showsAsBefore(input, out);
  });

  test('a readable /Encrypt under a password, the table damaged: still refused', () => {
    const input = pdf(plain([LOCKED]), '/Root 1 0 R /Encrypt 9 0 R', { startxref: 99999 });
    let err: unknown;
    try {
      prepareForSigning(new Uint8Array(input));
    } catch (e) {
      err = e;
    }
    expect((err as SignError).code).toBe(SignErrorCode.PasswordRequired);
  });
});

describe('a page tree that yields no page while the file holds page objects: rebuilt from them', () => {
  test.each([
    ['a /Kids that lost its "["', '3 0 R 4 0 R 5 0 R]'],
    ['a /Kids that is a reference to a page', '3 0 R'],
    ['a /Kids that is a number', '3'],
  ])('%s: the pages in file order, signed on page 1', async (_, kids) => {
    const input = pdf(plain([], kids), '/Root 1 0 R');
    const { ready, out } = await signs(input, 'kids.pdf');
    expect(ready.problem).toContain('page tree rebuilt from 3 page objects');
    if (hasPoppler) {
      const after = poppler(out);
      expect(after.texts).toEqual(['Page one', 'Page two', 'Page three']);
      expect(after.sizes).toEqual(['612 x 792', '612 x 792', '612 x 792']);
      expect(after.drawn).toBe(true);
    }
  });

  test('what the pages inherited from the broken node (resources, size) is kept on each page', async () => {
    const bodies = plain([], '3 0 R');
    // the node is readable (its /Kids is not an array); the pages carry neither /MediaBox nor /Resources
    bodies[1] =
      '<< /Type /Pages /Kids 3 /Count 3 /MediaBox [0 0 600 800] /Resources << /Font << /F1 9 0 R >> >> >>';
    for (const [i, c] of [
      [2, 6],
      [3, 7],
      [4, 8],
    ])
      bodies[i] = `<< /Type /Page /Parent 2 0 R /Contents ${c} 0 R >>`;
    const { out } = await signs(pdf(bodies, '/Root 1 0 R'), 'inherited.pdf');
    if (hasPoppler)
      expect(poppler(out)).toMatchObject({
        sizes: ['600 x 800', '600 x 800', '600 x 800'],
        texts: ['Page one', 'Page two', 'Page three'],
      });
  });

  test('a page and a catalog our reader cannot parse: a blank A4 page is signed, nothing else is shown', async () => {
    const bodies = plain([], '[3 0 R]');
    bodies[0] = '<< /Type /Catalog /Pages 2 0 R 7 /OpenAction [3 0 R /FitH null] >>';
    bodies[2] = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0L612 792; /Contents 6 0 R >>';
    bodies[3] = '<< /Type /Annot /Subtype /Widget /Parent 2 0 R /Contents 7 0 R 9 >>';
    bodies[4] = '<< /Subtype /Link /Parent 2 0 R /Rect [0 0 1 1] >>';
    const input = pdf(bodies, '/Root 1 0 R', { startxref: 99999 });
    const { ready, out } = await signs(input, 'unreadable-page.pdf');
    expect(ready.problem).toContain('an unreadable catalog replaced');
    expect(ready.problem).toContain('page tree rebuilt from 1 page object');
    expect(ready.problem).toContain('page 1 unreadable: written anew, blank, on an A4 box');
    if (hasPoppler) {
      const after = poppler(out);
      expect(after).toMatchObject({ pages: 1, sizes: ['595 x 842'], texts: [''], drawn: true });
    }
  });
});
