// The verifier's visual comparison (server/pdf/verify/visual.ts): what a page shows in the signed revision
// against the final file, drawn by pdf.js. Allowed changes (a later signature, a form fill over blank
// space, a ticked box) must not be flagged; a fill that covers the signed words, and a page whose drawing
// changed, must be, naming page and region.
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PdfFile } from '#server/pdf/parse/document.ts';
import {
  isArray,
  isDict,
  isRef,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  textOf,
} from '#server/pdf/parse/objects.ts';
import { dict, serialize, textString, withEntries } from '#server/pdf/sign/pdf-writer.ts';
import type { VerificationReport } from '#server/pdf/verify/types.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { pagesToCompare, VisualComparer } from '#server/pdf/verify/visual.ts';
import { DiffAnalyzer } from '#server/pdf/verify/diff.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import { appendUpdate, contentStream, firstPage, lastRevision } from '../fixtures/pdf-attack-kit.ts';
import { type Parties, parties, signTwice } from '../fixtures/demo-contract.ts';
import { contractSealPdf, makePdf } from '../fixtures/pdf-signing.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { addDocumentTimestamp } from '#server/pdf/sign/ltv.ts';

let fx: PkiFixture;
let p: Parties;
/** Signed twice; page 1 has a text field over blank space (`blank`), one over clause 1.22 (`overText`) and a checkbox. */
let signed: Uint8Array;

beforeAll(async () => {
  fx = await createPkiFixture();
  p = await parties(fx);
  const doc = await PDFDocument.load(await makePdf({ pages: 3 }));
  const form = doc.getForm();
  const page = doc.getPage(0);
  // the clauses are drawn from y = 720 down to y = 140, one every 20 pt: y = 60 is blank, y = 300 is clause 1.22;
  // the second signature's seal lands at about x 85–170, y 105–190
  form.createTextField('blank').addToPage(page, { x: 300, y: 56, width: 220, height: 24, borderWidth: 0 });
  form.createTextField('overText').addToPage(page, { x: 70, y: 295, width: 380, height: 18, borderWidth: 0 });
  form.createCheckBox('agree').addToPage(page, { x: 540, y: 60, width: 16, height: 16 });
  // pdf-lib draws an empty text field as a white box: the field over the text is made transparent (an empty
  // appearance), so the signer sees clause 1.22 through it
  const unsigned = fill(await doc.save({ useObjectStreams: false }), 'overText', '', ' ', [380, 18]);
  signed = await signTwice(unsigned, p, false);
}, 120_000);
afterAll(() => fx?.close());

const verify = (bytes: Uint8Array) => verifyPdf(bytes, { trustAnchors: [fx.pki.ca.root.der] });
const why = (r: VerificationReport) =>
  JSON.stringify(r.signatures.map((s) => [s.field, s.indication, s.problems, s.modifications]));

/** The form field named `name` in the latest revision of `bytes`, with its object number. */
function field(bytes: Uint8Array, name: string): { ref: PdfRef; dict: PdfDict } {
  const { pdf, rev } = lastRevision(bytes);
  const fields = pdf.get(rev, pdf.getDict(rev, pdf.catalog(rev), 'AcroForm'), 'Fields');
  for (const f of isArray(fields) ? fields.v : []) {
    const d = pdf.resolve(rev, f);
    if (isRef(f) && isDict(d) && textOf(d.v.get('T')) === name) return { ref: f, dict: d };
  }
  throw new Error(`no field ${name}`);
}

/** Rewrites a field (`onField`) and its first widget (`onWidget`; the field itself when it is its own widget). */
function update(
  bytes: Uint8Array,
  name: string,
  onField: Record<string, PdfObject>,
  onWidget: Record<string, PdfObject>,
  extra: { num: number; body: string }[] = [],
  trailerExtra?: string,
): Uint8Array {
  const { pdf, rev } = lastRevision(bytes);
  const f = field(bytes, name);
  const kids = pdf.get(rev, f.dict, 'Kids');
  const kid = isArray(kids) ? kids.v[0] : undefined;
  const widget = isRef(kid) ? pdf.resolve(rev, kid) : undefined;
  const objects =
    isRef(kid) && isDict(widget)
      ? [
          { num: f.ref.num, body: serialize(withEntries(f.dict, onField)) },
          { num: kid.num, body: serialize(withEntries(widget, onWidget)) },
        ]
      : [{ num: f.ref.num, body: serialize(withEntries(f.dict, { ...onField, ...onWidget })) }];
  return appendUpdate(bytes, { objects: [...objects, ...extra], trailerExtra });
}

/** Fills a text field: a new value, and a new appearance stream (`ops`, in the field's box) for its widget. */
function fill(
  bytes: Uint8Array,
  name: string,
  value: string,
  ops: string,
  box: [number, number],
  trailerExtra?: string,
): Uint8Array {
  const { size } = lastRevision(bytes);
  const font = '/Resources << /Font << /Helv << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>';
  const stream = `<< /Type /XObject /Subtype /Form /BBox [0 0 ${box[0]} ${box[1]}] ${font} /Length ${ops.length} >>\nstream\n${ops}\nendstream`;
  const ap = dict({ N: { t: 'ref', num: size, gen: 0 } as PdfObject });
  return update(
    bytes,
    name,
    { V: textString(value) },
    { AP: ap },
    [{ num: size, body: stream }],
    trailerExtra,
  );
}

/** The pages (0-based) the verifier would draw to compare the revision before the last with the final file. */
function pagesDrawnAfterLastRevision(bytes: Uint8Array): number[] {
  const pdf = new PdfFile(bytes);
  const signedNow = new DiffAnalyzer(pdf, () => {}).signedSigNodes(pdf.latest);
  return pagesToCompare(pdf, pdf.revisions[pdf.revisions.length - 2], pdf.latest, signedNow);
}

describe('allowed changes are not flagged', () => {
  test('a file that only gained signatures has no page to draw', () => {
    // the last signature's revision against the final file: the second signature added a field and a widget
    expect(pagesDrawnAfterLastRevision(signed)).toEqual([]);
  });

  test('filling the field that lies over blank space passes; the page is drawn and compared', async () => {
    const bytes = fill(
      signed,
      'blank',
      'Li Lei',
      'BT /Helv 12 Tf 2 7 Td (Li Lei, 2026-11-29) Tj ET',
      [220, 24],
    );
    expect(pagesDrawnAfterLastRevision(bytes)).toEqual([0]);
    const r = await verify(bytes);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures.map((s) => s.modifiedAfterSigning)).toEqual(['allowed', 'allowed']);
  });

  test('a field over blank space may be filled with a background of its own', async () => {
    const ops = '0.9 0.9 1 rg 0 0 220 24 re f 0 g BT /Helv 12 Tf 2 7 Td (Han Meimei) Tj ET';
    const r = await verify(fill(signed, 'blank', 'Han Meimei', ops, [220, 24]));
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
  });

  test('ticking the checkbox passes', async () => {
    const yes = { t: 'name', v: 'Yes' } as PdfObject;
    const r = await verify(update(signed, 'agree', { V: yes }, { AS: yes }));
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
  });

  test('a page written without /Type takes later signatures and a document time-stamp', async () => {
    const original = await makePdf({ pages: 3 });
    const page = firstPage(original);
    const untyped = new Map(page.dict.v);
    untyped.delete('Type');
    const bytes = appendUpdate(original, {
      objects: [{ num: page.num, body: serialize({ ...page.dict, v: untyped }) }],
    });
    const r = await verify(await addDocumentTimestamp(await signTwice(bytes, p, false), p.ts));
    expect(r.trustAside.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures.map((s) => s.modifiedAfterSigning)).toEqual(['allowed', 'allowed', 'none']);
  });

  test('a later signature stamped over the text passes (seals cover the company name)', async () => {
    const third = await signPdf(signed, {
      signer: p.company,
      timestamp: p.ts,
      appearance: { pdf: await contractSealPdf() },
      placement: { pageIndex: 0, rect: [60, 600, 180, 720] },
      fieldName: 'third',
    });
    const r = await verify(third);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures).toHaveLength(3);
  });
});

describe('visible changes are disallowed, naming page and region', () => {
  test('a field over the signed words filled with an opaque box and other words (replace via overlay)', async () => {
    const ops =
      '1 g 0 0 380 18 re f 0 g BT /Helv 11 Tf 2 5 Td (Clause 1.22: the buyer pays 9,000,000 yuan.) Tj ET';
    const att = fill(signed, 'overText', 'x', ops, [380, 18]);
    const r = await verify(att);
    expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
    expect(r.trustAside.verdict).toBe('TOTAL_FAILED');
    expect(r.signatures.map((s) => s.modifiedAfterSigning)).toEqual(['disallowed', 'disallowed']);
    const problem = r.signatures[0].problems.find((x) => x.includes('covers content'));
    expect(problem, why(r)).toMatch(/page 1/);
    // the region lies inside the field's box (70, 295)–(450, 313)
    const [x0, x1, y0, y1] = (problem?.match(/x (\d+)–(\d+), y (\d+)–(\d+)/)?.slice(1) ?? []).map(Number);
    expect(x0).toBeGreaterThanOrEqual(68);
    expect(x1).toBeLessThanOrEqual(452);
    expect(y0).toBeGreaterThanOrEqual(293);
    expect(y1).toBeLessThanOrEqual(315);
    expect(r.signatures[0].changedRegions).toEqual([{ page: 1, rect: [x0, y0, x1, y1], what: 'covered' }]);
  });

  test('a transparent fill whose words sit over the signed words is disallowed too', async () => {
    const ops = 'BT /Helv 11 Tf 200 5 Td (NOT VALID NOT VALID NOT VALID) Tj ET';
    const r = await verify(fill(signed, 'overText', 'x', ops, [380, 18]));
    expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
  });

  test('the comparison finds a changed page content by itself, and where', async () => {
    // compared directly: the content of page 1 is redrawn with one clause changed
    const page = firstPage(signed);
    const ops = 'BT /F1 11 Tf 72 500 Td (Clause 1.12: the parties agree to nothing at all.) Tj ET';
    const { size } = lastRevision(signed);
    const pageDict = serialize(
      withEntries(page.dict, {
        Contents: {
          t: 'arr',
          v: [...contentsOf(page.dict), { t: 'ref', num: size, gen: 0 }],
        } as PdfObject,
      }),
    );
    const bytes = appendUpdate(signed, {
      objects: [
        { num: page.num, body: pageDict },
        { num: size, body: contentStream(`1 g 70 495 400 16 re f 0 g ${ops}`) },
      ],
    });
    const pdf = new PdfFile(bytes);
    const signedRev = pdf.revisions[pdf.revisions.length - 2];
    const comparer = new VisualComparer(bytes);
    try {
      const out = await comparer.compare(
        signedRev.end,
        { pages: [0], signedWidgets: new Set(), signedNow: new Set() },
        Infinity,
      );
      expect(out.findings).toHaveLength(1);
      const f = out.findings[0];
      expect(f.page).toBe(1);
      expect(f.what).toBe('content');
      expect(f.region[1]).toBeGreaterThanOrEqual(490);
      expect(f.region[3]).toBeLessThanOrEqual(515);
    } finally {
      await comparer.close();
    }
  });
});

describe('appearances shared with another place', () => {
  test("a fill whose update also names the field's appearance from a trailer key of its own is disallowed", async () => {
    // pyHanko's form-update-*-sneaky class: the appearance becomes reachable from a place no rule judges
    const { size } = lastRevision(signed);
    const ops = 'BT /Helv 12 Tf 2 7 Td (Li Lei) Tj ET';
    const r = await verify(fill(signed, 'blank', 'Li Lei', ops, [220, 24], `/FooBar ${size} 0 R`));
    expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
    expect(r.signatures[0].problems.join(' '), why(r)).toContain('/FooBar');
  });
});

function contentsOf(page: PdfDict): PdfObject[] {
  const c = page.v.get('Contents');
  if (isArray(c)) return c.v;
  return c === undefined ? [] : [c];
}
