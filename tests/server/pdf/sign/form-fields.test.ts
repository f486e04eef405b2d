// Fields a signer fills (issue 28): empty AcroForm fields added before any signature (addFormFields), then
// filled by each party in the same incremental update as its signature (signPdf's `fill`). Checked with
// poppler's pdfsig, qpdf, pdf.js (the text a filled field shows) and the platform's verifier.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { PdfFile } from '#server/pdf/parse/document.ts';
import { isDict, textOf } from '#server/pdf/parse/objects.ts';
import { openPdf } from '#server/pdf/pdfjs.ts';
import { SignError, SignErrorCode } from '#server/pdf/sign/errors.ts';
import { listFields } from '#server/pdf/sign/form.ts';
import { addFormFields, type NewFormField } from '#server/pdf/sign/form-fields.ts';
import { PdfBase } from '#server/pdf/sign/pdf-base.ts';
import { IncrementalUpdate, textString, withEntries } from '#server/pdf/sign/pdf-writer.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { VisualComparer } from '#server/pdf/verify/visual.ts';
import {
  hasTool,
  isPrefix,
  makePdf,
  pdfsigValid,
  run,
  type SigningKit,
  startSigningKit,
} from '../../fixtures/pdf-signing.ts';

const hasTools = ['pdfsig', 'certutil', 'qpdf'].every(hasTool);
let kit: SigningKit;

beforeAll(async () => {
  kit = await startSigningKit('fields-person', ['fields-company', '示例科技有限公司']);
}, 60_000);
afterAll(() => kit?.fx.close());

const FIELDS: NewFormField[] = [
  { name: 'fullName', kind: 'text', pageIndex: 0, rect: [72, 100, 300, 124], label: '姓名' },
  { name: 'agree', kind: 'checkbox', pageIndex: 0, rect: [320, 104, 336, 120], label: 'I agree' },
  { name: 'startDate', kind: 'date', pageIndex: 0, rect: [72, 60, 200, 84] },
  { name: 'plan', kind: 'select', pageIndex: 1, rect: [72, 60, 240, 84], options: ['基础版', '专业版'] },
];

/** Text pdf.js extracts from page `n` once qpdf has flattened the widgets' appearances into the page. */
async function shownText(pdf: Uint8Array, n: number, label: string): Promise<string> {
  const out = kit.fx.file(`${label}-flat.pdf`, new Uint8Array());
  const r = run('qpdf', ['--flatten-annotations=all', kit.fx.file(`${label}.pdf`, pdf), out]);
  expect(r.status, r.out).not.toBe(2);
  const doc = await openPdf(new Uint8Array(readFileSync(out)));
  const text = await (await doc.getPage(n)).getTextContent();
  await doc.loadingTask.destroy();
  return text.items.map((i) => ('str' in i ? i.str : '')).join('');
}

const sign = (
  input: Uint8Array,
  who: 'a' | 'b',
  fill: { name: string; value: string | boolean }[],
  fieldName = who === 'a' ? 'partyA' : 'partyB',
) =>
  signPdf(input, {
    signer: who === 'a' ? kit.signer : kit.second,
    timestamp: kit.ts,
    appearance: { pdf: kit.seal },
    placement: { pageIndex: 0, rect: who === 'a' ? [360, 40, 440, 120] : [460, 40, 540, 120] },
    fieldName,
    fill,
  });

describe('two parties fill their fields as they sign', () => {
  const files: Record<string, Uint8Array> = {};

  beforeAll(async () => {
    files.original = await makePdf({ pages: 2 });
    files.fields = addFormFields(files.original, FIELDS);
    files.a = await sign(files.fields, 'a', [
      { name: 'fullName', value: '张三丰 Zhang' },
      { name: 'agree', value: true },
    ]);
    files.b = await sign(files.a, 'b', [
      { name: 'startDate', value: '2026-12-01' },
      { name: 'plan', value: '专业版' },
    ]);
  }, 120_000);

  test('the fields are added empty in one update, before any signature', async () => {
    expect(isPrefix(files.original, files.fields)).toBe(true);
    const base = new PdfBase(files.fields);
    const fields = listFields(base);
    expect(fields.map((f) => [f.name, f.ft, f.hasValue])).toEqual([
      ['fullName', 'Tx', false],
      ['agree', 'Btn', false],
      ['startDate', 'Tx', false],
      ['plan', 'Ch', false],
    ]);
    // no signature yet: the form does not say signatures exist
    expect(base.dictOf(base.catalog().v.get('AcroForm'))?.v.get('SigFlags')).toBeUndefined();
    if (hasTools)
      expect(run('qpdf', ['--check', kit.fx.file('fields.pdf', files.fields)]).out).toContain(
        'No syntax or stream encoding errors found',
      );
    // pdf.js sees the four empty fields where they were placed
    const doc = await openPdf(files.fields);
    const annots = [
      ...(await (await doc.getPage(1)).getAnnotations()),
      ...(await (await doc.getPage(2)).getAnnotations()),
    ];
    await doc.loadingTask.destroy();
    expect(annots.map((a) => [a.fieldName, a.fieldType, a.fieldValue ?? null])).toEqual([
      ['fullName', 'Tx', ''],
      ['agree', 'Btn', 'Off'],
      ['startDate', 'Tx', ''],
      ['plan', 'Ch', []],
    ]);
  });

  test('pdfsig validates both signatures after the second party filled its fields', () => {
    if (!hasTools) return;
    expect(pdfsigValid(kit.fx, files.a, 'a.pdf')).toEqual([true]);
    expect(pdfsigValid(kit.fx, files.b, 'b.pdf')).toEqual([true, true]);
    const r = run('pdfsig', ['-nssdir', `sql:${kit.fx.dir}/nss`, '-no-ocsp', kit.fx.file('b2.pdf', files.b)]);
    expect(r.status).toBe(0);
    expect(r.out.match(/Signature is Valid\./g)?.length).toBe(2);
    expect(isPrefix(files.a, files.b)).toBe(true);
    expect(run('qpdf', ['--check', kit.fx.file('b-q.pdf', files.b)]).out).toContain(
      'No syntax or stream encoding errors found',
    );
  });

  test('the verifier passes both and says which fields each signature filled', async () => {
    // B's fills change what pages 1 and 2 show: A's signed pages are drawn and compared (V2), and pass
    const compared = vi.spyOn(VisualComparer.prototype, 'compareMany');
    const report = await verifyPdf(files.b, { trustAnchors: [kit.fx.pki.ca.root.der] });
    expect(compared.mock.calls.flatMap(([tasks]) => tasks.map((t) => t.comparison.pages))).toEqual([[0, 1]]);
    compared.mockRestore();
    expect(report.verdict).toBe('TOTAL_PASSED');
    const [a, b] = report.signatures;
    expect(a.indication, a.problems.join('; ')).toBe('TOTAL_PASSED');
    expect(a.modifiedAfterSigning).toBe('allowed');
    expect(a.changedRegions).toEqual([]);
    expect(b.indication, b.problems.join('; ')).toBe('TOTAL_PASSED');
    expect(a.filledFields).toEqual(['fullName', 'agree']);
    expect(b.filledFields).toEqual(['startDate', 'plan']);
    expect([a.revision, b.revision]).toEqual([3, 4]);
    const fill = (name: string, label: string, value: string, checkbox = false) => ({
      name,
      label,
      value,
      checkbox,
    });
    expect(report.formFills).toEqual([
      {
        revision: 3,
        fields: [fill('fullName', '姓名', '张三丰 Zhang'), fill('agree', 'I agree', 'Yes', true)],
      },
      { revision: 4, fields: [fill('startDate', 'startDate', '2026-12-01'), fill('plan', 'plan', '专业版')] },
    ]);
  });

  test('the verify CLI names the values each signature filled', () => {
    const root = kit.fx.file('root.pem', kit.fx.pki.rootPem);
    const r = run('npx', [
      'node',
      'server/pdf/verify-cli.ts',
      kit.fx.file('cli.pdf', files.b),
      '--trust',
      root,
    ]);
    expect(r.status, r.out).toBe(0);
    const [first, second] = r.out.split(/\n {2}#2 /);
    expect(first).toContain('filled: 姓名 = 张三丰 Zhang');
    expect(first).toContain('filled: I agree = Yes');
    expect(second).toContain('filled: startDate = 2026-12-01');
    expect(second).toContain('filled: plan = 专业版');
  }, 30_000);

  test('the filled values show on the pages (the appearance draws them, Chinese included)', async () => {
    if (!hasTools) return;
    const page1 = await shownText(files.b, 1, 'shown-b');
    expect(page1).toContain('张三丰 Zhang');
    expect(page1).toContain('2026-12-01');
    expect(await shownText(files.b, 2, 'shown-b2')).toContain('专业版');
    // before B signs, B's fields are empty
    expect(await shownText(files.a, 1, 'shown-a')).not.toContain('2026-12-01');
  });

  test('filled fields are read-only and locked by the signature that filled them', () => {
    const base = new PdfBase(files.b);
    const fields = listFields(base);
    const byName = new Map(fields.map((f) => [f.name, f]));
    for (const n of ['fullName', 'agree', 'startDate', 'plan'])
      expect((byName.get(n)?.dict.v.get('Ff') as number) & 1).toBe(1);
    expect(byName.get('agree')?.dict.v.get('AS')).toEqual({ t: 'name', v: 'Yes' });
    const lock = base.dictOf(byName.get('partyA')?.dict.v.get('Lock'));
    expect(lock && isDict(lock) ? [...lock.v.keys()] : []).toEqual(['Type', 'Action', 'Fields']);
    const names = base.resolve(lock?.v.get('Fields'));
    expect(
      names && typeof names === 'object' && 't' in names && names.t === 'arr' ? names.v.map(textOf) : [],
    ).toEqual(['fullName', 'agree']);
  });

  test('a field already filled, an unknown field, a wrong value: refused naming the field, nothing written', async () => {
    const cases: [{ name: string; value: string | boolean }, RegExp][] = [
      [{ name: 'fullName', value: '李四' }, /fullName: already filled/],
      [{ name: 'nope', value: 'x' }, /nope: the document has no field/],
    ];
    for (const [fill, msg] of cases) {
      const err = await sign(files.b, 'b', [fill], 'partyC').catch((e) => e);
      expect(err).toBeInstanceOf(SignError);
      expect((err as SignError).code).toBe(SignErrorCode.BadOptions);
      expect((err as SignError).message).toMatch(msg);
    }
    const wrong: [{ name: string; value: string | boolean }, RegExp][] = [
      [{ name: 'agree', value: 'yes' }, /agree: a checkbox takes true or false/],
      [{ name: 'plan', value: '旗舰版' }, /plan: "旗舰版" is not one of its options/],
      [{ name: 'startDate', value: true }, /startDate: the value must be text/],
    ];
    for (const [fill, msg] of wrong) {
      const err = await sign(files.fields, 'a', [fill]).catch((e) => e);
      expect((err as SignError).code).toBe(SignErrorCode.BadOptions);
      expect((err as SignError).message).toMatch(msg);
    }
    expect(() => addFormFields(files.fields, [FIELDS[0]])).toThrow(/fullName: the document already has/);
    // fields added after a signature would break it: refused
    expect(() => addFormFields(files.a, [{ ...FIELDS[0], name: 'late' }])).toThrow(
      /already signed \(partyA\): fields are added before the first signature/,
    );
    expect(() => addFormFields(files.original, [{ ...FIELDS[0], name: 'a.b' }])).toThrow(/period/);
    expect(() => addFormFields(files.original, [{ ...FIELDS[3], options: [] }])).toThrow(
      /plan: a select field needs options/,
    );
  });

  test('a later revision that changes a signed value breaks the signatures that covered it', async () => {
    const base = new PdfBase(files.b);
    const field = listFields(base).find((f) => f.name === 'fullName')!;
    const update = new IncrementalUpdate(base);
    update.put(field.ref, withEntries(field.dict, { V: textString('李四') }));
    const forged = update.finish().bytes;
    const report = await verifyPdf(forged, { trustAnchors: [kit.fx.pki.ca.root.der] });
    expect(report.verdict).toBe('TOTAL_FAILED');
    for (const s of report.signatures) {
      expect(s.modifiedAfterSigning).toBe('disallowed');
      expect(s.problems).toContain('revision 5: field fullName changed after signing');
    }
    expect(report.formFills.at(-1)).toEqual({
      revision: 5,
      fields: [{ name: 'fullName', label: '姓名', value: '李四', checkbox: false }],
    });
  });
});

test('a multiline value wraps inside its box; a radio choice; an unticked checkbox is filled as Off and locked', async () => {
  const notes = '本合同一式两份，双方各执一份，具有同等法律效力。Both copies have equal legal force.';
  const input = addFormFields(await makePdf({ pages: 1 }), [
    { name: 'notes', kind: 'multiline', pageIndex: 0, rect: [72, 40, 222, 124] },
    { name: 'size', kind: 'radio', pageIndex: 0, rect: [240, 100, 330, 124], options: ['S', 'M', 'L'] },
    { name: 'newsletter', kind: 'checkbox', pageIndex: 0, rect: [240, 60, 256, 76] },
  ]);
  const signed = await sign(input, 'a', [
    { name: 'notes', value: notes },
    { name: 'size', value: 'M' },
    { name: 'newsletter', value: false },
  ]);
  const base = new PdfBase(signed);
  const byName = new Map(listFields(base).map((f) => [f.name, f]));
  expect(byName.get('newsletter')?.dict.v.get('V')).toEqual({ t: 'name', v: 'Off' });
  expect(byName.get('newsletter')?.dict.v.get('AS')).toEqual({ t: 'name', v: 'Off' });
  const lock = base.dictOf(byName.get('partyA')?.dict.v.get('Lock'));
  const names = base.resolve(lock?.v.get('Fields'));
  expect(
    names && typeof names === 'object' && 't' in names && names.t === 'arr' ? names.v.map(textOf) : [],
  ).toEqual(['notes', 'size', 'newsletter']);
  const report = await verifyPdf(signed, { trustAnchors: [kit.fx.pki.ca.root.der] });
  expect(report.signatures[0].filledFields).toEqual(['notes', 'size', 'newsletter']);
  expect(report.formFills[0].fields.map((f) => f.value)).toEqual([notes, 'M', 'Off']);
  if (!hasTools) return;
  // the text is all there, over several lines, each within the box's 150 points
  const flat = kit.fx.file('multiline-flat.pdf', new Uint8Array());
  run('qpdf', ['--flatten-annotations=all', kit.fx.file('multiline.pdf', signed), flat]);
  const doc = await openPdf(new Uint8Array(readFileSync(flat)));
  const items = (await (await doc.getPage(1)).getTextContent()).items.flatMap((i) =>
    'str' in i && i.transform[4] >= 72 && i.transform[4] < 240 && i.transform[5] < 130 ? [i] : [],
  );
  await doc.loadingTask.destroy();
  expect(
    items
      .map((i) => i.str)
      .join('')
      .replace(/\s/g, ''),
  ).toBe(notes.replace(/\s/g, ''));
  expect(new Set(items.map((i) => Math.round(i.transform[5]))).size).toBeGreaterThan(2);
  for (const i of items) {
    expect(i.transform[4] + i.width).toBeLessThanOrEqual(222);
    expect(i.transform[5]).toBeGreaterThanOrEqual(40);
  }
}, 60_000);

describe('real-world files (xref streams, object streams, owner-password encryption)', () => {
  const WILD = '/work/shared/pdf-wild/files';
  for (const file of ['two_paragraphs.pdf', 'textfields.pdf', 'bug1815476.pdf']) {
    test(file, async () => {
      const prepared = prepareForSigning(new Uint8Array(readFileSync(`${WILD}/${file}`))).bytes;
      const pdf = new PdfFile(prepared);
      const withFields = addFormFields(prepared, [
        { name: 'signerName', kind: 'text', pageIndex: 0, rect: [40, 40, 240, 64] },
        { name: 'ok', kind: 'checkbox', pageIndex: 0, rect: [250, 44, 266, 60] },
      ]);
      expect(isPrefix(prepared, withFields)).toBe(true);
      const a = await sign(withFields, 'a', [{ name: 'signerName', value: '王五' }]);
      const b = await sign(a, 'b', [{ name: 'ok', value: true }]);
      if (hasTools) expect(pdfsigValid(kit.fx, b, `wild-${file}`)).toEqual([true, true]);
      const report = await verifyPdf(b, { trustAnchors: [kit.fx.pki.ca.root.der] });
      for (const s of report.signatures) expect(s.indication, s.problems.join('; ')).toBe('TOTAL_PASSED');
      expect(report.signatures.map((s) => s.filledFields)).toEqual([['signerName'], ['ok']]);
      expect(pdf.encryption?.kind ?? 'none').toBe(file === 'bug1815476.pdf' ? 'open' : 'none');
    }, 60_000);
  }
});
