// "Read every object as the viewers do" (issue 26): the one reader keeps the LAST of duplicate
// dictionary keys, and anything a strict reader and a viewer could read differently in a revision after
// a signature is a disallowed change; where nothing a viewer uses changes (objects a writer left out of
// its cross-reference section, malformed data outside what the signature covers) it is a warning.
// Every case is built from a freshly signed demo contract (tests/server/fixtures/demo-contract.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allChildren, oidOf, raw, readTlv, type Tlv, tlv } from '#server/lib/der.ts';
import { Lexer, isDict, parseIndirectAt } from '#server/pdf/parse/objects.ts';
import type { VerificationReport } from '#server/pdf/verify/types.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import {
  appendUpdate,
  bytesOf,
  contentStream,
  firstPage,
  lastRevision,
  latin1,
  pageWith,
} from '../fixtures/pdf-attack-kit.ts';
import { type DemoFiles, demoContract, type Parties, parties, signTwice } from '../fixtures/demo-contract.ts';
import { byteRangeAt } from '../fixtures/pdf-attack-kit.ts';
import { contractSealPdf, hasTool, makePdf, pdfsigReport } from '../fixtures/pdf-signing.ts';

let fx: PkiFixture;
let p: Parties;
let demo: DemoFiles;
/** one party signature with a signature time-stamp */
let single: Uint8Array;
/** two signatures on a file saved with object streams (its updates are cross-reference streams) */
let packed: Uint8Array;

beforeAll(async () => {
  fx = await createPkiFixture();
  p = await parties(fx);
  demo = await demoContract(fx, p);
  single = await signPdf(await makePdf({ pages: 3 }), {
    signer: p.company,
    timestamp: p.ts,
    appearance: { pdf: await contractSealPdf() },
    placement: { pageIndex: 2, rect: [320, 120, 440, 240] },
  });
  packed = await signTwice(await makePdf({ pages: 3, objectStreams: true }), p, false);
}, 120_000);
afterAll(() => fx?.close());

const trusted = (bytes: Uint8Array) => verifyPdf(bytes, { trustAnchors: [fx.pki.ca.root.der] });
/** no trust anchor at all: only structure, integrity and changes decide (the corpus rule) */
const untrusted = (bytes: Uint8Array) => verifyPdf(bytes, { trustAnchors: [] });

const why = (r: VerificationReport) =>
  JSON.stringify(r.signatures.map((s) => [s.field, s.indication, s.subIndication, s.problems]));

/** TOTAL_FAILED / FORMAT_FAILURE for every signature, trusted and with trust aside. */
async function expectDisallowed(
  bytes: Uint8Array,
  count: number,
  finding: RegExp,
): Promise<VerificationReport> {
  for (const r of [await trusted(bytes), await untrusted(bytes)]) {
    expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
    expect(r.subIndication, why(r)).toBe('FORMAT_FAILURE');
    expect(r.trustAside.verdict, why(r)).toBe('TOTAL_FAILED');
    expect(r.signatures.length, why(r)).toBe(count);
    for (const s of r.signatures) {
      expect(s.modifiedAfterSigning, why(r)).toBe('disallowed');
      expect(s.modifications.join('\n'), why(r)).toMatch(finding);
    }
  }
  return trusted(bytes);
}

describe('duplicate dictionary keys: the last one wins, as viewers read them', () => {
  // A hand-made page with `/Contents 4 0 R ... /Contents 5 0 R` (4 draws "FIRST", 5 draws "SECOND") and a
  // trailer with two /Info keys, checked with the installed tools:
  //   pdftotext dup.pdf -         → SECOND                     (poppler 24: the last /Contents)
  //   qpdf --show-object=3 dup.pdf → << /Contents 5 0 R ... >>  with "WARNING: dup.pdf (object 3 0,
  //     offset 125): dictionary has duplicated key /Contents; last occurrence overrides earlier ones"
  //   pdf.js getTextContent()      → SECOND
  test('the parser keeps the last value and records the duplicate, nested ones included', () => {
    const src = bytesOf(
      '3 0 obj\n<< /Type /Page /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> /Font << /F1 7 0 R >> >> /Contents 5 0 R >>\nendobj\n',
    );
    const io = parseIndirectAt(src, 0, () => undefined);
    if (!isDict(io.obj)) throw new Error('not a dictionary');
    expect(io.obj.v.get('Contents')).toEqual({ t: 'ref', num: 5, gen: 0 });
    expect(io.obj.dups).toEqual(['Contents']);
    const res = io.obj.v.get('Resources');
    if (!isDict(res)) throw new Error('no resources');
    expect(res.v.get('Font')).toMatchObject({ t: 'dict' });
    expect(res.dups).toEqual(['Font']);
    expect([...(io.duplicateKeys ?? [])].sort()).toEqual(['Contents', 'Font']);
    // a dictionary without duplicates carries no record at all
    const plain = new Lexer(bytesOf('<< /A 1 /B << /C 2 >> >>')).parseObject();
    expect(isDict(plain) && plain.dups).toBeUndefined();
  });

  test('duplicate keys written before the first signature are no change: two signatures on such a file pass', async () => {
    // the page of the original has /Rotate twice (writers do this); the signer rewrites the page
    const original = await makePdf({ pages: 1 });
    const page = firstPage(original);
    const src = pageWith(original, page.dict, {}).replace(/>>$/, ` /Rotate 0 /Rotate 0 >>`);
    const dup = appendUpdate(original, { objects: [{ num: page.num, body: src }] });
    const seal = { pdf: await contractSealPdf() };
    let signed = await signPdf(dup, {
      signer: p.company,
      timestamp: p.ts,
      appearance: seal,
      placement: { pageIndex: 0, rect: [320, 120, 440, 240] },
    });
    signed = await signPdf(signed, {
      signer: p.person,
      timestamp: p.ts,
      appearance: seal,
      placement: { pageIndex: 0, rect: [100, 120, 220, 240] },
    });
    const r = await trusted(signed);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures.length).toBe(2);
  });

  /** Page 1 redefined with its signed /Contents first and a second /Contents naming new content. */
  function secondContents(bytes: Uint8Array, text: string): Uint8Array {
    const page = firstPage(bytes);
    const { size } = lastRevision(bytes);
    const src = pageWith(bytes, page.dict, {});
    return appendUpdate(bytes, {
      objects: [
        { num: size, body: contentStream(`BT /F1 24 Tf 72 720 Td (${text}) Tj ET`) },
        { num: page.num, body: src.replace(/>>$/, ` /Contents ${size} 0 R >>`) },
      ],
    });
  }

  test('issue case 1: a second /Contents after the last of two signatures is a page content change', async () => {
    const bytes = secondContents(demo.bt, 'You owe 1,000,000');
    const r = await expectDisallowed(bytes, 2, /duplicate key \/Contents/);
    // the reader now sees what viewers show: the page's content is another stream (rule C7)
    const page = firstPage(demo.bt);
    for (const s of r.signatures)
      expect(s.modifications.join('\n')).toMatch(new RegExp(`object ${page.num} \\(page[^)]*\\) changed`));
  });

  test('issue case 1 on a file with one signature', async () => {
    await expectDisallowed(secondContents(single, 'Void'), 1, /duplicate key \/Contents/);
  });

  test('a duplicate key in a nested dictionary (the page /Resources) swaps the font', async () => {
    const page = firstPage(demo.bt);
    const { size, pdf, rev } = lastRevision(demo.bt);
    const res = pdf.getDict(rev, page.dict, 'Resources');
    const fonts = pdf.getDict(rev, res, 'Font');
    if (!res || !fonts || res.start < page.dict.start) throw new Error('no direct /Resources with fonts');
    const resSrc = latin1(demo.bt.subarray(res.start, res.end));
    const first = [...fonts.v.keys()][0];
    // /Resources << /Font << /F1 (signed font) >> ... /Font << /F1 (new font) >> >>
    const forged = resSrc.replace(/>>$/, ` /Font << /${first} ${size} 0 R >> >>`);
    const bytes = appendUpdate(demo.bt, {
      objects: [
        { num: size, body: '<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>' },
        {
          num: page.num,
          body: latin1(demo.bt.subarray(page.dict.start, page.dict.end)).replace(resSrc, forged),
        },
      ],
    });
    await expectDisallowed(bytes, 2, /duplicate key \/Font\b/);
  });

  test('a duplicate key is disallowed even when both values are the same', async () => {
    const page = firstPage(demo.bt);
    const src = pageWith(demo.bt, page.dict, {});
    const again = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(src)?.[1];
    expect(again).toBeDefined();
    const twice = src.replace(/>>$/, ` /Contents ${again} >>`);
    const bytes = appendUpdate(demo.bt, { objects: [{ num: page.num, body: twice }] });
    await expectDisallowed(bytes, 2, /duplicate key \/Contents/);
  });

  test('a trailer with two /Root keys after signing', async () => {
    const { size } = lastRevision(demo.bt);
    const bytes = appendUpdate(demo.bt, {
      objects: [{ num: size, body: '<< /Type /Catalog /Pages 1 0 R >>' }],
      root: `${lastRevision(demo.bt).root.num} 0 R /Root ${size} 0 R`,
    });
    await expectDisallowed(bytes, 2, /duplicate key \/Root/);
  });
});

/** One object of a hand-written update: `listed` false leaves it out of the cross-reference data. */
type Piece = { num: number; body: string; listed?: boolean };

/**
 * Appends an update written by hand: the objects in order, then a table built by `table` from the listed
 * offsets (default: one subsection per object), `extra` trailer entries, and `between` text written
 * after the objects and before the table (an extra cross-reference stream, say).
 */
function handUpdate(
  bytes: Uint8Array,
  pieces: Piece[],
  o: {
    table?: (at: Map<number, number>) => string;
    extra?: string;
    between?: (at: number) => string;
  } = {},
): Uint8Array {
  const { rev, size, root } = lastRevision(bytes);
  let text = bytes[bytes.length - 1] === 0x0a ? '' : '\n';
  const at = new Map<number, number>();
  for (const x of pieces) {
    if (x.listed !== false) at.set(x.num, bytes.length + text.length);
    text += `${x.num} 0 obj\n${x.body}\nendobj\n`;
  }
  text += o.between?.(bytes.length + text.length) ?? '';
  const xref = bytes.length + text.length;
  const row = (off: number) => `${String(off).padStart(10, '0')} 00000 n \n`;
  const table = o.table?.(at) ?? [...at].map(([num, off]) => `${num} 1\n${row(off)}`).join('');
  const maxNum = Math.max(size - 1, ...pieces.map((x) => x.num));
  text += `xref\n0 1\n0000000000 65535 f \n${table}trailer\n<< /Size ${maxNum + 1} /Root ${root.num} ${root.gen} R /Prev ${rev.xrefOffset}${o.extra ?? ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([bytes, bytesOf(text)]);
}

const row = (off: number) => `${String(off).padStart(10, '0')} 00000 n \n`;
const forgedContent = contentStream('BT /F1 24 Tf 72 720 Td (You owe 1,000,000) Tj ET');

describe('one revision read two ways after signing is disallowed', () => {
  test('overlapping subsections list the page content twice: the signed stream first, a new one second', async () => {
    const page = firstPage(demo.bt);
    const { rev } = lastRevision(demo.bt);
    const old = rev.table.get(page.contentNum);
    if (old?.type !== 1) throw new Error('content not at an offset');
    const n = page.contentNum;
    const bytes = handUpdate(demo.bt, [{ num: n, body: forgedContent }], {
      table: (at) => `${n} 1\n${row(old.offset)}${n} 1\n${row(at.get(n) ?? 0)}`,
    });
    await expectDisallowed(bytes, 2, new RegExp(`lists object ${n} twice with different entries`));
  });

  test('the same object defined twice in one update: listed first, a different copy after it', async () => {
    const page = firstPage(demo.bt);
    const bytes = handUpdate(demo.bt, [
      { num: page.contentNum, body: contentStream('BT /F1 11 Tf 72 720 Td (Contract page 1) Tj ET') },
      { num: page.contentNum, body: forgedContent, listed: false },
    ]);
    await expectDisallowed(bytes, 2, new RegExp(`object ${page.contentNum} is defined twice`));
  });

  test('a hybrid update whose /XRefStm names another /Root than its trailer', async () => {
    const { size, root, pdf, rev } = lastRevision(demo.bt);
    const cat = pdf.catalog(rev);
    if (!cat) throw new Error('no catalog');
    const catSrc = latin1(demo.bt.subarray(cat.start, cat.end));
    let stmAt = 0;
    const bytes = handUpdate(demo.bt, [{ num: size, body: catSrc }], {
      between: (at) => {
        stmAt = at;
        const data = Buffer.from([1, 0, 0, 0, 0, 0, 0]);
        return `${size + 1} 0 obj\n<< /Type /XRef /Size ${size + 2} /Root ${size} 0 R /W [1 4 2] /Index [${size} 1] /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`;
      },
      extra: '',
    });
    // the trailer gets /XRefStm pointing at the stream (written after the fact: offsets are known now)
    const withHybrid = Buffer.from(
      latin1(bytes).replace(
        /(\/Prev \d+) >>\nstartxref\n(\d+)\n%%EOF\n$/,
        `$1 /XRefStm ${stmAt} >>\nstartxref\n$2\n%%EOF\n`,
      ),
      'latin1',
    );
    expect(root.num).not.toBe(size);
    await expectDisallowed(withHybrid, 2, /its trailer and its \/XRefStm stream name different \/Root/);
  });

  // A page whose /Contents is `5 1 R` while the table has object 5 at generation 0 (hand-made, checked):
  //   pdftotext → "Internal Error: xref num 5 not found but needed", no text (poppler reads null)
  //   qpdf --show-object=3 → the page without /Contents;  pdf.js → "Inconsistent generation in XRef: 5R1"
  // This reader ignores generations, so it would see the signed content where viewers show none.
  test('an update referring to an object at another generation than its table gives', async () => {
    const page = firstPage(demo.bt);
    const src = pageWith(demo.bt, page.dict, {}).replace(
      new RegExp(`\\b${page.contentNum} 0 R`),
      `${page.contentNum} 1 R`,
    );
    expect(src).toContain(`${page.contentNum} 1 R`);
    const bytes = appendUpdate(demo.bt, { objects: [{ num: page.num, body: src }] });
    await expectDisallowed(
      bytes,
      2,
      new RegExp(`refers to ${page.contentNum} 1 R, which the table has at generation 0`),
    );
  });

  test('a cross-reference stream in an update that ends with a table and a trailer', async () => {
    const page = firstPage(demo.bt);
    const { size } = lastRevision(demo.bt);
    const bytes = handUpdate(demo.bt, [{ num: page.contentNum, body: forgedContent, listed: false }], {
      between: () => {
        const data = Buffer.from([1, 0, 0, 0, 0, 0, 0]);
        return `${size} 0 obj\n<< /Type /XRef /Size ${size + 1} /W [1 4 2] /Index [${page.contentNum} 1] /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`;
      },
    });
    await expectDisallowed(
      bytes,
      2,
      /a cross-reference stream \(object \d+\) at offset \d+ besides its cross-reference section/,
    );
  });
});

/** TOTAL_PASSED for every signature, trusted and with trust aside, with a warning matching `warning`. */
async function expectPassedWithWarning(bytes: Uint8Array, count: number, warning: RegExp, warned = count) {
  for (const r of [await trusted(bytes), await untrusted(bytes)]) {
    expect(r.trustAside.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures.length, why(r)).toBe(count);
    expect(r.signatures.filter((s) => s.warnings.some((w) => warning.test(w))).length, why(r)).toBe(warned);
  }
  const r = await trusted(bytes);
  expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
}

/**
 * An update of a file with cross-reference streams: one object stream `stm` (number `stmNum`) holding
 * `members` (number and source, in header order), and an XRef stream whose rows place `placed` objects
 * in it at the given index.
 */
function objStmUpdate(
  bytes: Uint8Array,
  stmNum: number,
  members: [number, string][],
  placed: [num: number, index: number][],
): Uint8Array {
  const { rev, root } = lastRevision(bytes);
  let body = '';
  const heads: string[] = [];
  for (const [num, src] of members) {
    heads.push(`${num} ${body.length}`);
    body += `${src}\n`;
  }
  const head = `${heads.join(' ')}\n`;
  const stmText = `\n${stmNum} 0 obj\n<< /Type /ObjStm /N ${members.length} /First ${head.length} /Length ${head.length + body.length} >>\nstream\n${head}${body}\nendstream\nendobj\n`;
  const stmAt = bytes.length + 1;
  const xrefAt = bytes.length + stmText.length;
  const self = stmNum + 1;
  const rows = new Map<number, number[]>([
    [stmNum, [1, stmAt, 0]],
    [self, [1, xrefAt, 0]],
    ...placed.map(([num, index]): [number, number[]] => [num, [2, stmNum, index]]),
  ]);
  const nums = [...rows.keys()].sort((a, b) => a - b);
  const data = Buffer.alloc(nums.length * 7);
  nums.forEach((num, i) => {
    const [t, f2, f3] = rows.get(num) ?? [];
    data.writeUInt8(t, i * 7);
    data.writeUInt32BE(f2, i * 7 + 1);
    data.writeUInt16BE(f3, i * 7 + 5);
  });
  const xref = `${self} 0 obj\n<< /Type /XRef /Size ${self + 1} /Root ${root.num} ${root.gen} R /Prev ${rev.xrefOffset} /W [1 4 2] /Index [${nums.map((n) => `${n} 1`).join(' ')}] /Length ${data.length} >>\nstream\n`;
  return Buffer.concat([
    bytes,
    bytesOf(stmText + xref),
    data,
    bytesOf(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  ]);
}

// A hand-made file whose object stream lists object 3 twice ("3 0 3 N": a page drawing FIRST, then one
// drawing SECOND) and whose XRef stream places object 3 at index 1: pdftotext → SECOND,
// qpdf --show-object=3 → << /Contents 5 0 R ... >> (the second), pdf.js → SECOND. This reader took the
// first entry of a number before; now the index decides, as it does for them.
describe('object streams read by index, as poppler, qpdf and pdf.js read them', () => {
  test('an object stream listing page 1 twice: the signed page first, a forged one where the index points', async () => {
    const page = firstPage(packed);
    const { size } = lastRevision(packed);
    // the page as the signer last wrote it (a plain object of its update)
    const signed = pageWith(packed, page.dict, {});
    const forged = signed.replace(/\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/, `/Contents ${size + 2} 0 R`);
    expect(forged).not.toBe(signed);
    const bytes = objStmUpdate(
      packed,
      size,
      [
        [page.num, signed],
        [page.num, forged],
        [size + 2, '[]'],
      ],
      [
        [page.num, 1],
        [size + 2, 2],
      ],
    );
    await expectDisallowed(bytes, 2, new RegExp(`object stream ${size} lists object ${page.num} twice`));
    // the reader takes the member the index names, as viewers do: the page now has other content
    const after = lastRevision(bytes);
    const read = after.pdf.entryObject(after.rev, page.num)?.obj;
    expect(isDict(read) && read.v.get('Contents')).toEqual({ t: 'ref', num: size + 2, gen: 0 });
  });

  test("an entry whose index names another member of the update's object stream", async () => {
    const page = firstPage(packed);
    const { size } = lastRevision(packed);
    const signed = pageWith(packed, page.dict, {});
    const bytes = objStmUpdate(
      packed,
      size,
      [
        [size + 2, '<< /Producer (x) >>'],
        [page.num, signed],
      ],
      [
        [page.num, 0],
        [size + 2, 0],
      ],
    );
    await expectDisallowed(
      bytes,
      2,
      new RegExp(`the entry of object ${page.num} names place 0 of object stream ${size}`),
    );
  });
});

describe('lenient where nothing visible is at stake (issue case 4)', () => {
  test('an update carrying an extra object its cross-reference section leaves out and nothing uses', async () => {
    const { size } = lastRevision(demo.lta);
    const bytes = handUpdate(demo.lta, [{ num: size, body: '<< /Producer (left over) >>', listed: false }]);
    await expectPassedWithWarning(
      bytes,
      3,
      new RegExp(
        `object ${size} written at offset \\d+ is not in its cross-reference section; nothing refers to it`,
      ),
    );
  });

  test('an unlisted copy of an object identical to the one the section lists', async () => {
    const page = firstPage(demo.lta);
    const body = pageWith(demo.lta, page.dict, {});
    const bytes = handUpdate(demo.lta, [
      { num: page.num, body },
      { num: page.num, body, listed: false },
    ]);
    await expectPassedWithWarning(bytes, 3, /is a copy of the object the section lists/);
  });

  test('a writer between two signatures leaves an object out (as DSS and others do): both signatures pass', async () => {
    const { size } = lastRevision(single);
    const between = handUpdate(single, [{ num: size, body: '<< /Orphan true >>', listed: false }]);
    const signed = await signPdf(between, {
      signer: p.person,
      timestamp: p.ts,
      appearance: { pdf: await contractSealPdf() },
      placement: { pageIndex: 0, mm: { left: 30, top: 230, width: 30, height: 30 } },
    });
    await expectPassedWithWarning(signed, 2, /nothing refers to it/, 1);
  });

  test('bytes between objects that hold no object header, trailer or xref are skipped', async () => {
    const page = firstPage(demo.lta);
    const bytes = handUpdate(demo.lta, [{ num: page.num, body: pageWith(demo.lta, page.dict, {}) }], {
      between: () => 'garbage left by a writer\n',
    });
    await expectPassedWithWarning(bytes, 3, /are neither an object nor cross-reference data/);
  });

  test('an object written twice in one update, the section listing the later (final) version', async () => {
    const page = firstPage(demo.lta);
    const body = pageWith(demo.lta, page.dict, {});
    const draft = body.replace(/>>$/, ' /Rotate 90 >>');
    const bytes = handUpdate(demo.lta, [
      { num: page.num, body: draft, listed: false },
      { num: page.num, body },
    ]);
    await expectPassedWithWarning(
      bytes,
      3,
      /is written twice in its bytes .* the section lists the later one/,
    );
  });

  test('cross-reference offsets that drift a few bytes off their objects (the objects unchanged)', async () => {
    const page = firstPage(demo.lta);
    const body = pageWith(demo.lta, page.dict, {});
    for (const drift of [3, -4, 40]) {
      const bytes = handUpdate(demo.lta, [{ num: page.num, body }], {
        table: (at) => `${page.num} 1\n${row((at.get(page.num) ?? 0) + drift)}`,
      });
      await expectPassedWithWarning(
        bytes,
        3,
        new RegExp(
          `the cross-reference entry of object ${page.num} gives offset \\d+, the object starts at \\d+`,
        ),
      );
    }
  });

  test('an unlisted object only the validation data (/DSS) refers to', async () => {
    const { size, pdf, rev } = lastRevision(demo.lt);
    const dssRef = pdf.catalog(rev)?.v.get('DSS');
    const dss = pdf.resolve(rev, dssRef);
    if (!isDict(dss) || !dssRef || typeof dssRef !== 'object' || dssRef.t !== 'ref')
      throw new Error('no indirect /DSS');
    const src = latin1(demo.lt.subarray(dss.start, dss.end)).replace(/>>$/, ` /VRI ${size} 0 R >>`);
    const bytes = handUpdate(demo.lt, [
      { num: dssRef.num, body: src },
      { num: size, body: '<< >>', listed: false },
    ]);
    await expectPassedWithWarning(bytes, 2, /only the validation data \(\/DSS\) refers to it/);
  });

  test('an unlisted object the document refers to (a scanning reader takes it) is disallowed', async () => {
    const { size } = lastRevision(demo.bt);
    const bytes = handUpdate(demo.bt, [{ num: size, body: '<< /Title (Paid in full) >>', listed: false }], {
      extra: ` /Info ${size} 0 R`,
    });
    await expectDisallowed(
      bytes,
      2,
      new RegExp(`the document refers to object ${size}, which the section leaves out`),
    );
  });

  test('an unlisted redefinition of page content, before or after the listed objects, is disallowed', async () => {
    const page = firstPage(demo.bt);
    const { size } = lastRevision(demo.bt);
    for (const pieces of [
      [
        { num: page.contentNum, body: forgedContent, listed: false },
        { num: size, body: '<< /Producer (x) >>' },
      ],
      [
        { num: size, body: '<< /Producer (x) >>' },
        { num: page.contentNum, body: forgedContent, listed: false },
      ],
    ])
      await expectDisallowed(handUpdate(demo.bt, pieces), 2, /differs from the object the section lists/);
  });
});

// ---- malformed data outside what a signature covers (issue case 5) -----------------------------------

/** The element of `b` at `path` (child indices from the top element). */
function elementAt(b: Uint8Array, path: number[]): Tlv {
  let t = readTlv(b, 0);
  for (const i of path) t = t && allChildren(b, t)?.[i];
  if (!t) throw new Error(`no element at ${path.join('.')}`);
  return t;
}

/** `b` with the element at `path` replaced by `f(its bytes)`; every enclosing length is re-encoded. */
function rewrite(b: Uint8Array, path: number[], f: (el: Uint8Array) => Uint8Array): Uint8Array {
  const rec = (t: Tlv, rest: number[]): Uint8Array => {
    if (rest.length === 0) return f(raw(b, t));
    const kids = allChildren(b, t);
    if (!kids) throw new Error('not constructed');
    return tlv(t.tag, ...kids.map((k, i) => (i === rest[0] ? rec(k, rest.slice(1)) : raw(b, k))));
  };
  const top = readTlv(b, 0);
  if (!top) throw new Error('not DER');
  return rec(top, path);
}

/** Index of the child of the element at `path` for which `pick` holds. */
function childWhere(b: Uint8Array, path: number[], pick: (t: Tlv) => boolean): number {
  const i = allChildren(b, elementAt(b, path))?.findIndex(pick) ?? -1;
  if (i < 0) throw new Error(`no such child under ${path.join('.')}`);
  return i;
}

const TIME_STAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
/** `02 01 v` made `02 02 00 v`: a redundant leading zero, BER but not DER (OpenSSL calls it padding) */
const padInteger = (el: Uint8Array) => {
  expect(el[0]).toBe(0x02);
  return Uint8Array.from([0x02, el[1] + 1, 0x00, ...el.subarray(2)]);
};

/** Paths inside a ContentInfo { signedData, [0] SignedData }. */
const SD = [1, 0];
/** The path of certificate `der` in the certificate set of the SignedData at `sd`. */
function certPath(cms: Uint8Array, sd: number[], der: Uint8Array): number[] {
  const set = [...sd, childWhere(cms, sd, (t) => t.tag === 0xa0)];
  return [...set, childWhere(cms, set, (t) => Buffer.from(raw(cms, t)).equals(der))];
}
/** the version INTEGER inside a certificate's TBS: Certificate { tbs { [0] { INTEGER } ... } } */
const versionOf = (cert: number[]) => [...cert, 0, 0, 0];

/** The CMS of the n-th signature of `pdf` and a way to put a rewritten one back (same /Contents length). */
function cmsOf(pdf: Uint8Array, n: number) {
  const { range } = byteRangeAt(pdf, n);
  const hex = latin1(pdf.subarray(range[1] + 1, range[2] - 1));
  const all = Buffer.from(hex, 'hex');
  const top = readTlv(all, 0);
  if (!top) throw new Error('no CMS');
  const cms = new Uint8Array(all.subarray(0, top.end));
  const put = (next: Uint8Array): Uint8Array => {
    const text = Buffer.from(next).toString('hex');
    if (text.length > hex.length) throw new Error('no room in /Contents');
    const out = new Uint8Array(pdf);
    out.set(bytesOf(text.padEnd(hex.length, '0')), range[1] + 1);
    return out;
  };
  return { cms, put };
}

/** The path of the signature time-stamp token (a ContentInfo) inside the signature's CMS. */
function tokenPath(cms: Uint8Array): number[] {
  const sis = [...SD, allChildren(cms, elementAt(cms, SD))!.length - 1];
  const si = [...sis, 0];
  const unsigned = [...si, allChildren(cms, elementAt(cms, si))!.length - 1];
  expect(elementAt(cms, unsigned).tag).toBe(0xa1);
  const attr = childWhere(cms, unsigned, (t) => oidOf(cms, allChildren(cms, t)?.[0]) === TIME_STAMP_TOKEN);
  return [...unsigned, attr, 1, 0];
}

describe('malformed data outside what the signature covers is a warning (issue case 5)', () => {
  test('a malformed INTEGER in the certificate inside the unsigned time-stamp token: still valid, no usable time-stamp', async () => {
    const { cms, put } = cmsOf(single, 0);
    const token = tokenPath(cms);
    const tsaCert = certPath(cms, [...token, ...SD], fx.pki.ca.tsa.der);
    const bytes = put(rewrite(cms, versionOf(tsaCert), padInteger));
    // the signed bytes are untouched: poppler still says the signature is valid
    const pdfsig = hasTool('pdfsig') ? pdfsigReport(bytes, fx.pki.rootPem) : null;
    if (pdfsig !== null) expect(pdfsig).toContain('Signature is Valid.');
    for (const r of [await trusted(bytes), await untrusted(bytes)]) {
      expect(r.trustAside.verdict, why(r)).toBe('TOTAL_PASSED');
      const s = r.signatures[0];
      expect(s.intact).toBe(true);
      expect(s.cryptoValid).toBe(true);
      expect(s.timestamp, why(r)).toBeNull();
      expect(s.warnings.join('\n'), why(r)).toMatch(
        /signature time-stamp token cannot be read \(.*malformed INTEGER.*\): the signature has no usable time-stamp/,
      );
    }
    expect((await trusted(bytes)).verdict).toBe('TOTAL_PASSED');
  });

  test("a malformed extra certificate in the signature's own certificate set is left out with a warning", async () => {
    const { cms, put } = cmsOf(single, 0);
    const certs = elementAt(cms, [...SD, childWhere(cms, SD, (t) => t.tag === 0xa0)]);
    const signer = allChildren(cms, certs)?.[0];
    if (!signer) throw new Error('no certificate');
    // one more member: a copy of a certificate with its version INTEGER padded and another serial number
    // (so it is not the signer's), as a careless writer might add an intermediate
    const padded = rewrite(raw(cms, signer), [0, 0, 0], padInteger);
    const extra = rewrite(padded, [0, 1], () => Uint8Array.from([0x02, 0x01, 0x7f]));
    const bytes = put(
      rewrite(cms, [...SD, childWhere(cms, SD, (t) => t.tag === 0xa0)], (el) => {
        const t = readTlv(el, 0);
        if (!t) throw new Error('no set');
        return tlv(0xa0, ...(allChildren(el, t) ?? []).map((k) => raw(el, k)), extra);
      }),
    );
    const r = await trusted(bytes);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.signatures[0].timestamp?.valid).toBe(true);
    expect(r.signatures[0].warnings.join('\n')).toMatch(
      /certificate \d+ of the CMS \(not the signer's\) contains a malformed INTEGER: left out/,
    );
  });

  test("a malformed INTEGER in the signer's own certificate still fails the signature", async () => {
    const { cms, put } = cmsOf(single, 0);
    const own = certPath(cms, SD, p.company.certificateChain[0]);
    const bytes = put(rewrite(cms, versionOf(own), padInteger));
    for (const r of [await trusted(bytes), await untrusted(bytes)]) {
      expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
      expect(r.subIndication, why(r)).toBe('FORMAT_FAILURE');
      expect(r.signatures[0].problems.join('\n')).toMatch(
        /signer's certificate in the CMS contains a malformed INTEGER/,
      );
    }
  });

  test('a malformed INTEGER in the signed attributes still fails the signature', async () => {
    const { cms, put } = cmsOf(single, 0);
    const si = [...SD, allChildren(cms, elementAt(cms, SD))!.length - 1, 0];
    const signed = [...si, childWhere(cms, si, (t) => t.tag === 0xa0)];
    // the first INTEGER found in the signed attributes (signingCertificateV2's issuer serial)
    const path = findInteger(cms, signed);
    const bytes = put(
      rewrite(cms, path, (el) => Uint8Array.from([0x02, el[1] + 1, 0x00, ...el.subarray(2)])),
    );
    for (const r of [await trusted(bytes), await untrusted(bytes)]) {
      expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
      expect(r.subIndication, why(r)).toBe('FORMAT_FAILURE');
    }
  });
});

/** Path of the first INTEGER under the element at `path` whose first content byte is below 0x80. */
function findInteger(b: Uint8Array, path: number[]): number[] {
  const t = elementAt(b, path);
  if (t.tag === 0x02 && t.contentEnd - t.headerEnd < 0x7f && b[t.headerEnd] < 0x80) return path;
  for (const [i] of (allChildren(b, t) ?? []).entries()) {
    try {
      return findInteger(b, [...path, i]);
    } catch {
      // not under this child
    }
  }
  throw new Error('no INTEGER');
}
