// Generated attacks on a signed demo contract: every incremental-saving (ISA) variant, the three shadow
// attack classes, universal signature forgery (USF) and signature wrapping (SWA). Each must be
// TOTAL_FAILED with a sub-indication and keep every signature in the report; permitted extensions
// (B-T -> LT -> LTA) must pass. The rules are listed in server/pdf/verify/README.md.
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isStream } from '#server/pdf/parse/objects.ts';
import type { VerificationReport } from '#server/pdf/verify/types.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { addDocumentTimestamp, addValidationData } from '#server/pdf/sign/ltv.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import { corpusFile, hasCorpus, manifest } from '../fixtures/pdf-corpus.ts';
import {
  appendUpdate,
  byteRangeAt,
  bytesOf,
  contentStream,
  firstPage,
  lastRevision,
  latin1,
  overwrite,
  pageWith,
} from '../fixtures/pdf-attack-kit.ts';
import {
  type DemoFiles,
  demoContract,
  type Parties,
  parties,
  preparedContract,
  signTwice,
} from '../fixtures/demo-contract.ts';
import { contractSealPdf, makePdf } from '../fixtures/pdf-signing.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';

let fx: PkiFixture;
let p: Parties;
let demo: DemoFiles;
let shadow: { signed: Uint8Array; prep: Awaited<ReturnType<typeof preparedContract>> };
let objStm: Uint8Array;

beforeAll(async () => {
  fx = await createPkiFixture();
  p = await parties(fx);
  demo = await demoContract(fx, p);
  const prep = await preparedContract();
  shadow = { signed: await signTwice(prep.bytes, p, false), prep };
  objStm = await signTwice(await makePdf({ pages: 3, objectStreams: true }), p, false);
}, 120_000);
afterAll(() => fx?.close());

const verify = (bytes: Uint8Array) => verifyPdf(bytes, { trustAnchors: [fx.pki.ca.root.der] });

function expectFailed(r: VerificationReport, sub: string | string[], count = 2) {
  const subs = Array.isArray(sub) ? sub : [sub];
  const why = JSON.stringify(r.signatures.map((s) => [s.field, s.indication, s.subIndication, s.problems]));
  expect(r.verdict, why).toBe('TOTAL_FAILED');
  expect(subs, why).toContain(r.subIndication);
  expect(r.trustAside.verdict, why).toBe('TOTAL_FAILED');
  expect(r.signatures.length, why).toBe(count);
}

describe('permitted extensions pass', () => {
  test('B-T, B-LT and B-LTA of the demo contract are TOTAL_PASSED with only allowed changes', async () => {
    for (const [name, bytes, n] of [
      ['bt', demo.bt, 2],
      ['lt', demo.lt, 2],
      ['lta', demo.lta, 3],
    ] as const) {
      const r = await verify(bytes);
      const why = `${name}: ${JSON.stringify(r.signatures.map((s) => s.problems))}`;
      expect(r.verdict, why).toBe('TOTAL_PASSED');
      expect(r.signatures.length).toBe(n);
      for (const s of r.signatures) expect(['none', 'allowed']).toContain(s.modifiedAfterSigning);
    }
  });

  test.skipIf(!hasCorpus)(
    'signed files of other producers extended with /DSS and a document time-stamp by the platform still pass',
    async () => {
      for (const e of manifest().filter((x) => x.expected.verdict === 'TOTAL_PASSED')) {
        const lt = addValidationData(corpusFile(e.file), { certs: [fx.pki.ca.root.der], crls: [] });
        const lta = await addDocumentTimestamp(lt, p.ts);
        const r = await verifyPdf(lta, { trustAnchors: [] });
        const why = `${e.file}: ${JSON.stringify(r.signatures.map((s) => s.problems.slice(0, 2)))}`;
        expect(r.trustAside.verdict, why).toBe('TOTAL_PASSED');
        expect(r.signatures.length, why).toBe(e.expected.signature_count + 1);
      }
    },
  );

  test('the shadow-prepared and object-stream contracts pass untouched', async () => {
    expect((await verify(shadow.signed)).verdict).toBe('TOTAL_PASSED');
    expect((await verify(objStm)).verdict).toBe('TOTAL_PASSED');
  });
});

describe('pages named outside the page tree', () => {
  test('a page that /OpenAction also names still takes later signature widgets', async () => {
    const original = await makePdf({ pages: 3 });
    const page = firstPage(original);
    const { pdf, rev, root } = lastRevision(original);
    const cat = pdf.catalog(rev);
    if (!cat) throw new Error('no catalog');
    const src = latin1(original.subarray(cat.start, cat.end)).replace(
      />>\s*$/,
      ` /OpenAction [${page.num} 0 R /Fit] >>`,
    );
    const opening = appendUpdate(original, { objects: [{ num: root.num, body: src }] });
    const r = await verify(await signTwice(opening, p, false));
    expect(r.verdict, JSON.stringify(r.signatures.map((s) => s.problems))).toBe('TOTAL_PASSED');
  });

  test('a catalog whose /Pages is the page itself (a damaged tree viewers accept) takes signatures', async () => {
    const objs = [
      '<< /Type /Catalog /Pages 3 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << >> >>',
      contentStream('10 10 180 180 re S'),
    ];
    let text = '%PDF-1.7\n';
    const offsets: number[] = [];
    objs.forEach((o, i) => {
      offsets.push(text.length);
      text += `${i + 1} 0 obj\n${o}\nendobj\n`;
    });
    const xref = text.length;
    text += `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    text += `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    const seal = { pdf: await contractSealPdf() };
    let signed = await signPdf(bytesOf(text), {
      signer: p.company,
      timestamp: p.ts,
      appearance: seal,
      placement: { pageIndex: 0, rect: [10, 10, 60, 60] },
    });
    signed = await signPdf(signed, {
      signer: p.person,
      timestamp: p.ts,
      appearance: seal,
      placement: { pageIndex: 0, rect: [70, 10, 120, 60] },
    });
    const r = await verify(signed);
    expect(r.verdict, JSON.stringify(r.signatures.map((s) => s.problems))).toBe('TOTAL_PASSED');
  });
});

describe('incremental saving attacks (ISA)', () => {
  test('an added revision with its own trailer rewriting page content', async () => {
    const page = firstPage(demo.bt);
    const bytes = appendUpdate(demo.bt, {
      objects: [
        { num: page.contentNum, body: contentStream('BT /F1 24 Tf 72 720 Td (You owe 1,000,000) Tj ET') },
      ],
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('a second ("sneaky") trailer after the first, pointing at another catalog', async () => {
    const page = firstPage(demo.bt);
    const { size } = lastRevision(demo.bt);
    const bytes = appendUpdate(demo.bt, {
      unlisted: [
        { num: page.contentNum, body: contentStream('BT /F1 24 Tf 72 720 Td (You owe 1,000,000) Tj ET') },
      ],
      objects: [{ num: size, body: '<< /Producer (x) >>' }],
      afterTrailer: `trailer\n<< /Size ${size + 2} /Root ${size} 0 R >>\n`,
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('an object redefined in the update bytes but left out of its cross-reference section', async () => {
    const page = firstPage(demo.bt);
    const bytes = appendUpdate(demo.bt, {
      unlisted: [
        { num: page.contentNum, body: contentStream('BT /F1 24 Tf 72 720 Td (You owe 1,000,000) Tj ET') },
      ],
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('a /Prev chain that skips the last signed revision', async () => {
    const { pdf } = lastRevision(demo.bt);
    const beforePerson = pdf.revisions[pdf.revisions.length - 2].xrefOffset;
    const bytes = appendUpdate(demo.bt, { objects: [], prev: beforePerson });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('a /Prev chain that loops onto itself', async () => {
    expectFailed(await verify(appendUpdate(demo.bt, { objects: [], prev: 'self' })), 'FORMAT_FAILURE');
  });

  test('a /Prev pointing forward, past its own section', async () => {
    const bytes = appendUpdate(demo.bt, { objects: [], prev: demo.bt.length + 10_000 });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('a cross-reference stream after cross-reference tables', async () => {
    const { size } = lastRevision(demo.bt);
    const bytes = appendUpdate(demo.bt, {
      objects: [{ num: size, body: '<< /Producer (x) >>' }],
      xref: 'stream',
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('a new object stream redefining a signed object', async () => {
    const page = firstPage(objStm);
    const { size, rev } = lastRevision(objStm);
    const font = page.fontNum ?? -1;
    expect(rev.table.get(font)?.type).toBe(2);
    const body = '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>';
    const data = `${font} 0 ${body}`;
    const head = `${font} 0 `.length;
    const stm = `<< /Type /ObjStm /N 1 /First ${head} /Length ${data.length} >>\nstream\n${data}\nendstream`;
    const bytes = appendUpdateWithObjStm(objStm, size, stm, font, []);
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('an object stream rewritten under its old number (its objects keep their xref entries)', async () => {
    const { pdf, rev } = lastRevision(objStm);
    const page = firstPage(objStm);
    const e = rev.table.get(page.fontNum ?? -1);
    if (e?.type !== 2) throw new Error('font not in an object stream');
    const io = pdf.entryObject(rev, e.objStm);
    if (!io || !isStream(io.obj)) throw new Error('no object stream');
    const data = latin1(pdf.streamData(io.obj) ?? new Uint8Array());
    expect(data).toContain('/Helvetica');
    const forged = data.replace('/Helvetica', '/Symbol   ');
    const dict = io.obj.dict;
    const n = dict.v.get('N');
    const first = dict.v.get('First');
    const stm = `<< /Type /ObjStm /N ${n} /First ${first} /Length ${forged.length} >>\nstream\n${forged}\nendstream`;
    const bytes = appendUpdate(objStm, { objects: [{ num: e.objStm, body: stm }], xref: 'stream' });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });
});

describe('form filling after signing', () => {
  test('filling a text field that existed at signing (value and appearance) is permitted', async () => {
    const doc = await PDFDocument.load(await makePdf({ pages: 3 }));
    doc
      .getForm()
      .createTextField('amount')
      .addToPage(doc.getPage(1), { x: 72, y: 100, width: 200, height: 24 });
    const signed = await signTwice(await doc.save({ useObjectStreams: false }), p, false);
    const { pdf, rev, size } = lastRevision(signed);
    const acro = pdf.getDict(rev, pdf.catalog(rev), 'AcroForm');
    const fields = pdf.get(rev, acro, 'Fields');
    const fieldRef = fields && typeof fields === 'object' && fields.t === 'arr' ? fields.v[0] : undefined;
    if (!fieldRef || typeof fieldRef !== 'object' || fieldRef.t !== 'ref') throw new Error('no text field');
    const field = pdf.resolve(rev, fieldRef);
    if (!field || typeof field !== 'object' || field.t !== 'dict')
      throw new Error('field is not a dictionary');
    const ap = 'BT /Helv 12 Tf 2 6 Td (1,000 yuan) Tj ET';
    const filled = pageWith(signed, field, { AP: `<< /N ${size} 0 R >>` }).replace(
      />>$/,
      ' /V (1,000 yuan) >>',
    );
    const bytes = appendUpdate(signed, {
      objects: [
        { num: fieldRef.num, body: filled },
        {
          num: size,
          body: `<< /Type /XObject /Subtype /Form /BBox [0 0 200 24] /Length ${ap.length} >>\nstream\n${ap}\nendstream`,
        },
      ],
    });
    const r = await verify(bytes);
    expect(r.verdict, JSON.stringify(r.signatures.map((s) => s.problems))).toBe('TOTAL_PASSED');
    expect(r.signatures.map((s) => s.modifiedAfterSigning)).toEqual(['allowed', 'allowed']);
  });
});

describe('annotations after signing', () => {
  test('a new annotation that is not a signature widget (a "PAID" stamp) is disallowed', async () => {
    const page = firstPage(demo.bt);
    const { size, pdf, rev } = lastRevision(demo.bt);
    const annots = pdf.resolve(rev, page.dict.v.get('Annots'));
    const old = annots && typeof annots === 'object' && annots.t === 'arr' ? annots.v : [];
    const refs = old.flatMap((r) =>
      r && typeof r === 'object' && r.t === 'ref' ? [`${r.num} ${r.gen} R`] : [],
    );
    const bytes = appendUpdate(demo.bt, {
      objects: [
        {
          num: size,
          body: '<< /Type /Annot /Subtype /FreeText /Rect [72 700 300 740] /Contents (PAID) /DA (/Helv 24 Tf 1 0 0 rg) >>',
        },
        {
          num: page.num,
          body: pageWith(demo.bt, page.dict, { Annots: `[${[...refs, `${size} 0 R`].join(' ')}]` }),
        },
      ],
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });
});

describe('shadow attacks (prepared before signing, revealed by an update of cross-reference entries only)', () => {
  test('hide: the overlay hiding text points back at its earlier, empty version', async () => {
    const { overlay } = shadow.prep;
    const bytes = appendUpdate(shadow.signed, { pointAt: [{ num: overlay.num, offset: overlay.emptyAt }] });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('replace: the font points back at its earlier ZapfDingbats version', async () => {
    const { font } = shadow.prep;
    const bytes = appendUpdate(shadow.signed, { pointAt: [{ num: font.num, offset: font.dingbatsAt }] });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });

  test('hide-and-replace: the trailer switches to the hidden document', async () => {
    const bytes = appendUpdate(shadow.signed, { root: `${shadow.prep.hiddenCatalog} 0 R` });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });
});

describe('universal signature forgery (USF): the signature dictionary edited in place', () => {
  const cases: [string, (b: Uint8Array) => Uint8Array][] = [
    ['/ByteRange removed', (b) => edit(b, /\/ByteRange/, '/ByteRangX')],
    ['/ByteRange empty', (b) => edit(b, /\/ByteRange\s*\[[^\]]*\]/, '/ByteRange []')],
    ['/ByteRange [0 0 0 0]', (b) => edit(b, /\/ByteRange\s*\[[^\]]*\]/, '/ByteRange [0 0 0 0]')],
    [
      '/ByteRange with three numbers',
      (b) => edit(b, /\/ByteRange\s*\[[^\]]*\]/, (m) => m.replace(/\s+\d+\s*\]$/, ']')),
    ],
    [
      '/ByteRange negative',
      (b) => edit(b, /\/ByteRange\s*\[\s*0\s+\d+/, (m) => m.replace(/\d(\d*)$/, '-$1')),
    ],
    ['/Contents removed', (b) => edit(b, /\/Contents\s*</, '/Contentz <')],
    [
      '/Contents empty',
      (b) => edit(b, /\/Contents\s*<[0-9a-fA-F]*>/, (m) => `/Contents <>${' '.repeat(m.length - 12)}`),
    ],
    [
      '/Contents zeroed',
      (b) => edit(b, /\/Contents\s*<[0-9a-fA-F]*>/, (m) => m.replace(/[0-9a-fA-F](?=[0-9a-fA-F]*>)/g, '0')),
    ],
  ];
  for (const [name, make] of cases)
    test(name, async () => {
      expectFailed(await verify(make(demo.bt)), ['FORMAT_FAILURE', 'HASH_FAILURE']);
    });
});

describe('signature wrapping (SWA)', () => {
  test('the second signed range moved behind injected objects', async () => {
    const { range, at, text } = byteRangeAt(demo.bt, -1);
    const [, a, b, c] = range;
    const page = firstPage(demo.bt);
    const injected = `\n${page.contentNum} 0 obj\n${contentStream('BT /F1 24 Tf 72 720 Td (You owe 1,000,000) Tj ET')}\nendobj\n`;
    const k = injected.length;
    const moved = overwrite(demo.bt, at, text, `/ByteRange [0 ${a} ${b + k} ${c}]`);
    const wrapped = Buffer.concat([moved.subarray(0, b), bytesOf(injected), moved.subarray(b)]);
    // the update points the page content at the injected object and lists the moved objects anew
    const rev = lastRevision(demo.bt).rev;
    const shifted = [...rev.own].flatMap(([num, e]) =>
      e.type === 1 && e.offset >= b ? [{ num, offset: e.offset + k }] : [],
    );
    const bytes = appendUpdate(wrapped, {
      pointAt: [...shifted, { num: page.contentNum, offset: b + 1 }],
      prev: rev.xrefOffset + k,
    });
    expectFailed(await verify(bytes), 'FORMAT_FAILURE');
  });
});

// ---- helpers ---------------------------------------------------------------------------------------

function edit(bytes: Uint8Array, re: RegExp, repl: string | ((m: string) => string)): Uint8Array {
  // the last signature dictionary: the person's
  const s = latin1(bytes);
  const { at } = byteRangeAt(bytes, -1);
  const from = s.lastIndexOf('obj', at);
  const m = re.exec(s.slice(from));
  if (!m) throw new Error(`no match for ${re}`);
  const text = m[0];
  return overwrite(bytes, from + m.index, text, typeof repl === 'string' ? repl : repl(text));
}

/** An update with an xref stream listing `num` as object 0 of the new object stream `stmNum`. */
function appendUpdateWithObjStm(
  bytes: Uint8Array,
  stmNum: number,
  stm: string,
  num: number,
  more: { num: number; body: string }[],
): Uint8Array {
  // write the objects, then an xref stream with a type-2 row for `num`
  const { rev, root } = lastRevision(bytes);
  let at = bytes.length;
  const parts: string[] = [];
  const offsets = new Map<number, number>();
  for (const o of [{ num: stmNum, body: stm }, ...more]) {
    const s = `\n${o.num} 0 obj\n${o.body}\nendobj\n`;
    parts.push(s);
    offsets.set(o.num, at + 1);
    at += s.length;
  }
  const self = Math.max(stmNum, ...more.map((m) => m.num)) + 1;
  const xrefAt = at;
  const rows: [number, number, number, number][] = [
    [num, 2, stmNum, 0],
    ...[...offsets].map(([n, off]) => [n, 1, off, 0] as [number, number, number, number]),
    [self, 1, xrefAt, 0],
  ];
  rows.sort((x, y) => x[0] - y[0]);
  const data = Buffer.from(
    rows.flatMap(([, t, f2, f3]) => [
      t,
      (f2 >>> 24) & 0xff,
      (f2 >>> 16) & 0xff,
      (f2 >>> 8) & 0xff,
      f2 & 0xff,
      0,
      f3,
    ]),
  );
  const index = rows.flatMap(([n]) => [n, 1]).join(' ');
  const head = `${self} 0 obj\n<< /Type /XRef /Size ${self + 1} /Root ${root.num} ${root.gen} R /Prev ${rev.xrefOffset} /W [1 4 2] /Index [${index}] /Length ${data.length} >>\nstream\n`;
  return Buffer.concat([
    bytes,
    bytesOf(parts.join('') + head),
    data,
    bytesOf(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  ]);
}

describe('a file cut short or with bytes appended', () => {
  test('the demo contract cut at 10 places inside its last revision: never passed, all 3 signatures listed', async () => {
    const lta = demo.lta;
    const start = lastRevision(demo.lt).rev.end;
    const fields = (await verify(lta)).signatures.map((s) => s.field);
    expect(fields).toHaveLength(3);
    for (let k = 1; k <= 10; k++) {
      const cut = start + Math.floor(((lta.length - start) * k) / 11);
      const r = await verify(lta.subarray(0, cut));
      const why = `cut at ${cut} of ${lta.length}: ${JSON.stringify(r.signatures.map((s) => [s.field, s.indication, s.subIndication, s.problems[0]]))}`;
      expect(r.verdict, why).not.toBe('TOTAL_PASSED');
      expect(r.trustAside.verdict, why).toBe('TOTAL_FAILED');
      expect(r.signatures.length, why).toBe(3);
      for (const s of r.signatures) expect(s.indication, why).toBe('TOTAL_FAILED');
      // the time-stamp whose revision was cut is broken, and says so
      const last = r.signatures[2];
      expect(['FORMAT_FAILURE', 'HASH_FAILURE'], why).toContain(last.subIndication);
    }
  });

  test('1 kB of junk after the last %%EOF: never passed, every signature listed', async () => {
    const junk = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 37 + 11) % 256));
    for (const base of [demo.bt, demo.lta]) {
      const n = base === demo.bt ? 2 : 3;
      const r = await verify(Buffer.concat([base, junk]));
      expect(r.verdict).toBe('TOTAL_FAILED');
      expect(r.signatures.length).toBe(n);
      expect(
        r.signatures.every((s) => s.problems.some((p) => p.includes('after its last complete revision'))),
      ).toBe(true);
    }
  });

  test('white space after the last %%EOF is not a change', async () => {
    const r = await verify(Buffer.concat([demo.lta, Buffer.from('\r\n\n  \0\0\n')]));
    expect(r.verdict).toBe('TOTAL_PASSED');
  });

  test('a digest mismatch is HASH_FAILURE', async () => {
    const copy = new Uint8Array(demo.bt);
    copy[copy.indexOf(0x0a) + 2] ^= 0x01; // the binary-marker comment: the file still reads the same
    const r = await verify(copy);
    expect(r.verdict).toBe('TOTAL_FAILED');
    expect(r.subIndication).toBe('HASH_FAILURE');
    expect(r.signatures.map((s) => s.subIndication)).toEqual(['HASH_FAILURE', 'HASH_FAILURE']);
  });
});
