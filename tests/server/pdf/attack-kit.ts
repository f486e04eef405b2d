// Builds attacked copies of signed PDFs the way attackers do: hand-written incremental updates (objects,
// cross-reference table or stream, trailer), edits of a signature dictionary in place, and moved bytes.
// Used by verify-attacks.test.ts and verify-fuzz.test.ts.
import { PdfFile, type Revision } from '#server/pdf/parse/document.ts';
import { isArray, isDict, isRef, type PdfDict, type PdfRef } from '#server/pdf/parse/objects.ts';

export const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
export const bytesOf = (s: string) => Buffer.from(s, 'latin1');

export type NewObject = { num: number; body: string };

export type UpdateOptions = {
  /** objects written in this update (body is what goes between `N 0 obj` and `endobj`) */
  objects?: NewObject[];
  /** extra xref entries pointing at bytes already in the file (shadow attacks: no new object at all) */
  pointAt?: { num: number; offset: number }[];
  /** the trailer's /Prev; default the startxref of the file's last revision; null leaves it out */
  prev?: number | null | 'self';
  /** replaces the trailer's /Root */
  root?: string;
  /** 'stream' writes an uncompressed cross-reference stream instead of a table */
  xref?: 'table' | 'stream';
  /** written after the trailer, before startxref (a second trailer, say) */
  afterTrailer?: string;
  /** objects also written in the update's bytes but left out of its cross-reference section */
  unlisted?: NewObject[];
};

/** Information about the last revision an update builds on. */
export function lastRevision(bytes: Uint8Array): { pdf: PdfFile; rev: Revision; size: number; root: PdfRef } {
  const pdf = new PdfFile(bytes);
  const rev = pdf.latest;
  const sizeObj = rev.trailer.v.get('Size');
  const size = typeof sizeObj === 'number' ? sizeObj : Math.max(...rev.table.keys()) + 1;
  const root = rev.trailer.v.get('Root');
  if (!isRef(root)) throw new Error('no /Root');
  return { pdf, rev, size, root };
}

/** Appends one incremental update. */
export function appendUpdate(bytes: Uint8Array, o: UpdateOptions): Uint8Array {
  const { rev, size, root } = lastRevision(bytes);
  const parts: string[] = [];
  let at = bytes.length;
  const push = (s: string) => {
    parts.push(s);
    at += s.length;
  };
  if (bytes[bytes.length - 1] !== 0x0a) push('\n');
  const entries = new Map<number, number>();
  for (const x of o.pointAt ?? []) entries.set(x.num, x.offset);
  for (const obj of o.unlisted ?? []) push(`${obj.num} 0 obj\n${obj.body}\nendobj\n`);
  for (const obj of o.objects ?? []) {
    entries.set(obj.num, at);
    push(`${obj.num} 0 obj\n${obj.body}\nendobj\n`);
  }
  const maxNum = Math.max(size - 1, ...entries.keys());
  const xrefAt = at;
  const prev = o.prev === undefined ? rev.xrefOffset : o.prev === 'self' ? xrefAt : o.prev;
  const trailerEntries = `/Size ${maxNum + 2} /Root ${o.root ?? `${root.num} ${root.gen} R`}${prev === null ? '' : ` /Prev ${prev}`}`;
  const nums = [...entries.keys()].sort((a, b) => a - b);
  if (o.xref === 'stream') {
    const self = maxNum + 1;
    entries.set(self, xrefAt);
    nums.push(self);
    const rows: number[] = [];
    const index: number[] = [];
    for (const n of nums) {
      index.push(n, 1);
      const off = entries.get(n) ?? 0;
      rows.push(1, (off >>> 24) & 0xff, (off >>> 16) & 0xff, (off >>> 8) & 0xff, off & 0xff, 0, 0);
    }
    const data = Buffer.from(rows);
    const head = `${self} 0 obj\n<< /Type /XRef ${trailerEntries} /W [1 4 2] /Index [${index.join(' ')}] /Length ${data.length} >>\nstream\n`;
    const tail = `\nendstream\nendobj\n${o.afterTrailer ?? ''}startxref\n${xrefAt}\n%%EOF\n`;
    return Buffer.concat([bytes, bytesOf(parts.join('') + head), data, bytesOf(tail)]);
  }
  let table = 'xref\n0 1\n0000000000 65535 f \n';
  for (const n of nums) table += `${n} 1\n${String(entries.get(n)).padStart(10, '0')} 00000 n \n`;
  push(`${table}trailer\n<< ${trailerEntries} >>\n${o.afterTrailer ?? ''}startxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat([bytes, bytesOf(parts.join(''))]);
}

/** The first page's object number and dictionary, and the object number of its first content stream. */
export function firstPage(bytes: Uint8Array): {
  num: number;
  dict: PdfDict;
  contentNum: number;
  fontNum: number | null;
} {
  const { pdf, rev } = lastRevision(bytes);
  const pages = pdf.getDict(rev, pdf.catalog(rev), 'Pages');
  const kids = pdf.get(rev, pages, 'Kids');
  if (!isArray(kids) || !isRef(kids.v[0])) throw new Error('no first page');
  const page = pdf.resolve(rev, kids.v[0]);
  if (!isDict(page)) throw new Error('page is not a dictionary');
  const c = page.v.get('Contents');
  const contentRef = isRef(c) ? c : isArray(c) && isRef(c.v[0]) ? c.v[0] : undefined;
  if (!contentRef) throw new Error('no content stream');
  const fonts = pdf.getDict(rev, pdf.getDict(rev, page, 'Resources'), 'Font');
  const firstFont = fonts ? [...fonts.v.values()][0] : undefined;
  return {
    num: kids.v[0].num,
    dict: page,
    contentNum: contentRef.num,
    fontNum: isRef(firstFont) ? firstFont.num : null,
  };
}

/** Serialises a page dictionary with some entries replaced (values given as PDF source text). */
export function pageWith(bytes: Uint8Array, dict: PdfDict, replace: Record<string, string>): string {
  const src = latin1(bytes.subarray(dict.start, dict.end));
  let out = src.replace(/^<</, '').replace(/>>$/, '');
  for (const [k, v] of Object.entries(replace)) {
    const re = new RegExp(`/${k}\\s*(\\[[^\\]]*\\]|\\d+\\s+\\d+\\s+R)`);
    out = re.test(out) ? out.replace(re, `/${k} ${v}`) : `${out} /${k} ${v}`;
  }
  return `<<${out}>>`;
}

export const contentStream = (ops: string) => `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`;

/** Offset of `N 0 obj` for the object's entry in the given revision (type 1 only). */
export function offsetOf(rev: Revision, num: number): number {
  const e = rev.table.get(num);
  if (e?.type !== 1) throw new Error(`object ${num} is not at a byte offset`);
  return e.offset;
}

/** The /ByteRange of the n-th signature dictionary in the bytes (by position) and where its text lies. */
export function byteRangeAt(bytes: Uint8Array, n: number): { range: number[]; at: number; text: string } {
  const s = latin1(bytes);
  const all = [...s.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const m = all.at(n);
  if (!m || m.index === undefined) throw new Error(`no /ByteRange #${n}`);
  return { range: m.slice(1, 5).map(Number), at: m.index, text: m[0] };
}

/** Replaces `text` at `at` by `repl` padded with spaces to the same length (the file keeps its offsets). */
export function overwrite(bytes: Uint8Array, at: number, text: string, repl: string): Uint8Array {
  if (repl.length > text.length) throw new Error('replacement longer than the original');
  const out = new Uint8Array(bytes);
  out.set(bytesOf(repl.padEnd(text.length, ' ')), at);
  return out;
}
