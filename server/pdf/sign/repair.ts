/**
 * Repair before the first signature: a file whose cross-reference data is damaged (wrong offsets, a
 * missing or broken `xref`, a /Prev that leads nowhere) but whose objects are there, as every viewer finds
 * them, gets a new cross-reference section rebuilt from the objects (parse/xref.ts rebuildXref), appended
 * after its bytes. The original bytes stay a prefix of the repaired file, which becomes the document's
 * original; signatures are then appended to it as to any other file.
 *
 * Only files the signer would refuse as BROKEN_XREF pay for it. A file that already carries a signature is
 * never repaired: the new section would be an unsigned change after that signature, so it is refused
 * (SIGNED_FILE_DAMAGED) and the verifier says what is wrong with it.
 */
import { deflateSync } from 'node:zlib';
import { indexOf, Lexer, type PdfObject } from '../parse/objects.ts';
import { rebuildXref, type XrefEntry } from '../parse/xref.ts';
import { SignError, SignErrorCode } from './errors.ts';
import { PdfBase } from './pdf-base.ts';
import { arr, dict, name, serialize } from './pdf-writer.ts';

export type Prepared = {
  /** the bytes to sign: the input, or the input with its rebuilt cross-reference section appended */
  bytes: Uint8Array;
  repaired: boolean;
  /** what was wrong (for logs and the audit trail), when repaired */
  problem?: string;
};

/** Whether the file carries a signature dictionary anywhere (a /ByteRange in any revision). */
function carriesSignature(bytes: Uint8Array): boolean {
  return indexOf(bytes, '/ByteRange') >= 0;
}

/**
 * Why a file the signer can open still needs a repair, or undefined: an in-use entry of the table whose
 * offset does not hold that object (a reader that trusts the table, like ours, and one that rebuilds it,
 * like qpdf, would then see different objects), or no first page. Headers only: no object is parsed.
 */
function damageOf(base: PdfBase): string | undefined {
  const b = base.bytes;
  for (const [num, e] of base.revision.table) {
    if (e.type !== 1) continue;
    const lx = new Lexer(b, e.offset);
    if (e.offset >= b.length || lx.readInt() !== num || lx.readInt() === null || !lx.expectKeyword('obj'))
      return `object ${num} is not at offset ${e.offset}`;
  }
  try {
    base.page(0);
  } catch (err) {
    if (err instanceof SignError) return `the first page cannot be read (${err.message})`;
    throw err;
  }
  return undefined;
}

/**
 * The parse of bytes that prepareForSigning returned unchanged, for the signPdf call that follows (one parse
 * per signature, not two). Keyed by the very array; taken once; gone with the bytes.
 */
const parsed = new WeakMap<Uint8Array, PdfBase>();

function keepParsed(bytes: Uint8Array, base: PdfBase): Prepared {
  parsed.set(bytes, base);
  return { bytes, repaired: false };
}

/** The parse prepareForSigning made of exactly these bytes, once; else a fresh one. */
export function parsedForSigning(bytes: Uint8Array): PdfBase {
  const base = parsed.get(bytes);
  parsed.delete(bytes);
  return base ?? new PdfBase(bytes);
}

const HEADER = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');

/**
 * The input as it can be signed: unchanged when the signer reads it and its cross-reference data is
 * right (the common case costs one parse and a look at each object header), else repaired once. Throws
 * SignError: BROKEN_XREF when nothing readable is found, SIGNED_FILE_DAMAGED for a damaged file that
 * already carries a signature, and every refusal of PdfBase (encryption, not a PDF).
 */
export function prepareForSigning(input: Uint8Array): Prepared {
  let problem: string | undefined;
  let body = input;
  let passwordRefusal: SignError | undefined;
  try {
    const base = new PdfBase(input);
    // A signed file is extended as it is, never rewritten (a changed table would break its signatures).
    if (carriesSignature(input)) return keepParsed(input, base);
    problem = damageOf(base);
    if (!problem) return keepParsed(input, base);
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    if (err.code === SignErrorCode.NotPdf && looksLikePdfBody(input)) {
      // objects and a catalog without the %PDF header viewers do not insist on: the header goes first
      body = Buffer.concat([HEADER, input]);
      problem = 'no %PDF header';
    } else if (err.code === SignErrorCode.PasswordRequired && !carriesSignature(input)) {
      // maybe an /Encrypt entry that only a damaged tail names (see below); else this refusal stands
      passwordRefusal = err;
      problem = 'an /Encrypt entry over objects that are not encrypted';
    } else if (err.code !== SignErrorCode.BrokenXref) throw err;
    else problem = err.message;
  }
  if (carriesSignature(input)) throw new SignError(SignErrorCode.SignedFileDamaged, problem);
  const rebuilt = rebuildXref(body);
  if (!rebuilt?.trailer.v.has('Root'))
    throw passwordRefusal ?? new SignError(SignErrorCode.BrokenXref, 'no objects found');
  let bytes = appendXref(body, rebuilt.table, rebuilt.trailer.v);
  try {
    try {
      // The repaired file must be one the signer reads without a doubt; else the refusal stands.
      const base = new PdfBase(bytes);
      const left = damageOf(base);
      if (left) throw new SignError(SignErrorCode.BrokenXref, left);
    } catch (err) {
      // An /Encrypt entry over objects that are plainly not encrypted (the first page's content reads as
      // it is), while another trailer of the file names none: viewers ignore it, and so does the repair.
      if (!(err instanceof SignError) || err.code !== SignErrorCode.PasswordRequired || !rebuilt.plainTrailer)
        throw err;
      const keys = new Map(rebuilt.trailer.v);
      keys.delete('Encrypt');
      bytes = appendXref(body, rebuilt.table, keys);
      const base = new PdfBase(bytes);
      if (!base.contentReadable() || damageOf(base)) throw err;
    }
  } catch (err) {
    throw passwordRefusal ?? err;
  }
  return { bytes, repaired: true, problem };
}

function looksLikePdfBody(b: Uint8Array): boolean {
  return indexOf(b, ' obj', 0, 4096) >= 0 && indexOf(b, '/Catalog') >= 0;
}

/**
 * `input` followed by one cross-reference section listing `table` (a table, or a stream when objects live
 * in object streams) and a trailer with the given keys; nothing of `input` is changed.
 */
function appendXref(
  input: Uint8Array,
  table: Map<number, XrefEntry>,
  keys: Map<string, PdfObject>,
): Uint8Array {
  const nums = [...table.keys()].filter((n) => table.get(n)?.type !== 0).sort((a, b) => a - b);
  const size = (nums[nums.length - 1] ?? 0) + 1;
  const last = input[input.length - 1];
  let pos = input.length;
  const parts: Buffer[] = [];
  const text = (s: string) => {
    const b = Buffer.from(s, 'latin1');
    parts.push(b);
    pos += b.length;
  };
  // a line of its own, after whatever the damaged file ends with (even inside an unterminated object)
  text(last === 0x0a || last === 0x0d ? '\n' : '\n\n');
  const trailer = new Map<string, PdfObject>();
  for (const k of ['Root', 'Info', 'Encrypt', 'ID']) {
    const v = keys.get(k);
    if (v !== undefined) trailer.set(k, v);
  }
  const xrefAt = pos;
  const hasStreamEntries = nums.some((n) => table.get(n)?.type === 2);
  if (hasStreamEntries) {
    const xrefNum = size;
    const rows: number[] = [0, 0, 0, 0, 0, 0xff, 0xff];
    const index: number[] = [0, 1];
    for (const n of [...nums, xrefNum]) {
      if (index[index.length - 2] + index[index.length - 1] === n) index[index.length - 1]++;
      else index.push(n, 1);
      const e = n === xrefNum ? { type: 1 as const, offset: xrefAt, gen: 0 } : table.get(n);
      if (e?.type === 1) rows.push(1, ...be32(e.offset), (e.gen >> 8) & 255, e.gen & 255);
      else if (e?.type === 2) rows.push(2, ...be32(e.objStm), (e.index >> 8) & 255, e.index & 255);
    }
    const data = deflateSync(Uint8Array.from(rows));
    const d = dict(trailer);
    d.v.set('Type', name('XRef'));
    d.v.set('Size', xrefNum + 1);
    d.v.set('Index', arr(...index));
    d.v.set('W', arr(1, 4, 2));
    d.v.set('Filter', name('FlateDecode'));
    d.v.set('Length', data.length);
    text(`${xrefNum} 0 obj\n${serialize(d)}\nstream\n`);
    parts.push(data);
    pos += data.length;
    text('\nendstream\nendobj\n');
  } else {
    let s = 'xref\n0 1\n0000000000 65535 f\r\n';
    for (let i = 0; i < nums.length; ) {
      let j = i;
      while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
      s += `${nums[i]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) {
        const e = table.get(nums[k]) as { offset: number; gen: number };
        s += `${String(e.offset).padStart(10, '0')} ${String(e.gen).padStart(5, '0')} n\r\n`;
      }
      i = j + 1;
    }
    trailer.set('Size', size);
    text(`${s}trailer\n${serialize(dict(trailer))}\n`);
  }
  text(`startxref\n${xrefAt}\n%%EOF\n`);
  const out = new Uint8Array(pos);
  out.set(input, 0);
  let p = input.length;
  for (const b of parts) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
