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
import { indexOf, type PdfObject } from '../parse/objects.ts';
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
export function carriesSignature(bytes: Uint8Array): boolean {
  return indexOf(bytes, '/ByteRange') >= 0;
}

/**
 * The input as it can be signed: unchanged when the signer can read it (the common case costs one parse),
 * else repaired once. Throws SignError: BROKEN_XREF when nothing readable is found, SIGNED_FILE_DAMAGED for
 * a damaged file that already carries a signature, and every refusal of PdfBase (encryption, not a PDF).
 */
export function prepareForSigning(input: Uint8Array): Prepared {
  let problem: string;
  try {
    new PdfBase(input);
    return { bytes: input, repaired: false };
  } catch (err) {
    if (!(err instanceof SignError) || err.code !== SignErrorCode.BrokenXref) throw err;
    problem = err.message;
  }
  if (carriesSignature(input)) throw new SignError(SignErrorCode.SignedFileDamaged, problem);
  const rebuilt = rebuildXref(input);
  if (!rebuilt?.trailer.v.has('Root')) throw new SignError(SignErrorCode.BrokenXref, 'no objects found');
  const bytes = appendXref(input, rebuilt.table, rebuilt.trailer.v);
  // The repaired file must be one the signer reads without a doubt; else the refusal stands.
  new PdfBase(bytes);
  return { bytes, repaired: true, problem };
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
