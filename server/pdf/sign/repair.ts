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
import {
  indexOf,
  isArray,
  isDict,
  isName,
  isRef,
  Lexer,
  lastIndexOf,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  parseIndirectAt,
} from '../parse/objects.ts';
import { intOf, readXrefSection, rebuildXref, type XrefEntry } from '../parse/xref.ts';
import { SignError, SignErrorCode } from './errors.ts';
import { PdfBase } from './pdf-base.ts';
import { arr, dict, IncrementalUpdate, name, serialize, withEntries } from './pdf-writer.ts';

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
 * Why a file the signer can open still needs its cross-reference data rebuilt, or undefined: in-use entries
 * of the table whose offsets do not hold those objects (a reader that trusts the table, like ours, and one
 * that rebuilds it, like qpdf, would then see different objects), or no first page. Headers only: no object
 * is parsed, except the page tree when the first page is looked for.
 */
function damageOf(base: PdfBase): string | undefined {
  const b = base.bytes;
  let wrong = 0;
  for (const [num, e] of base.revision.table) {
    if (e.type !== 1) continue;
    const lx = new Lexer(b, e.offset);
    if (e.offset >= b.length || lx.readInt() !== num || lx.readInt() === null || !lx.expectKeyword('obj'))
      wrong++;
  }
  if (wrong > 0) return wrong === 1 ? '1 object at a wrong offset' : `${wrong} objects at wrong offsets`;
  try {
    base.page(0);
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    // pages written directly inside /Kids are not damage of the table: indirectPages below
    if (!hasDirectKids(base)) return 'the first page could not be found';
  }
  return undefined;
}

const isLeaf = (d: PdfDict) => !isName(d.v.get('Type'), 'Pages') && !d.v.has('Kids');

/**
 * Whether the page tree holds a dictionary where a reference belongs (a direct /Pages, or a direct kid in
 * a /Kids array on the way down to the first page): a quick look, indirectPages walks the whole tree.
 */
function hasDirectKids(base: PdfBase): boolean {
  let node: PdfObject | undefined = base.catalog().v.get('Pages');
  for (let depth = 0; depth < 64 && node !== undefined; depth++) {
    if (isDict(node)) return true;
    const d = base.dictOf(node);
    const kids = d && !isLeaf(d) ? base.resolve(d.v.get('Kids')) : undefined;
    if (!isArray(kids)) return false;
    if (kids.v.some(isDict)) return true;
    node = kids.v[0];
  }
  return false;
}

const listed = (nums: number[]) =>
  nums.length <= 10 ? nums.join(', ') : `${nums.slice(0, 10).join(', ')}, …`;

/**
 * Pages written directly inside /Kids (poppler and qpdf open such files; a signature needs its page as an
 * object of its own, to add its widget to): each becomes an indirect object of one incremental update, its
 * /Kids entry a reference to it, its /Parent the node; so do direct page tree nodes (and a direct /Pages of
 * the catalog). Undefined when every node and page is already an indirect object. The walk follows the
 * tree in document order, each node once, at most 64 levels deep; it reads the kids of a node only when its
 * /Count says some are nodes themselves (a node with as many pages as kids has pages for kids), so a sound
 * file pays for its interior nodes, not for its pages.
 */
function indirectPages(base: PdfBase): { bytes: Uint8Array; done: string[] } | undefined {
  let update: IncrementalUpdate | undefined;
  const pages: number[] = [];
  let nodes = 0;
  let index = 0;
  const seen = new Set<number>();
  const visit = (ref: PdfRef, node: PdfDict, depth: number, fresh: boolean) => {
    const list = base.resolve(node.v.get('Kids'));
    const all = isArray(list) ? list.v : [];
    // as many pages as kids: every kid is a page, none needs reading (the common flat node, read for free)
    const flat = intOf(base.resolve(node.v.get('Count'))) === all.length;
    let changed = fresh;
    const kids = all.map((k): PdfObject => {
      if (isDict(k)) {
        update ??= new IncrementalUpdate(base);
        const r = update.alloc();
        changed = true;
        // with its /Type (often left out of direct kids): every reader, the verifier's too, then knows it
        const leaf = isLeaf(k);
        const kd = withEntries(k, { Parent: ref, Type: name(leaf ? 'Page' : 'Pages') });
        if (leaf) {
          pages.push(++index);
          update.put(r, kd);
        } else if (depth < 64) {
          nodes++;
          visit(r, kd, depth + 1, true);
        }
        return r;
      }
      if (isRef(k) && flat) index++;
      else if (isRef(k) && !seen.has(k.num)) {
        seen.add(k.num);
        let kd: PdfDict | undefined;
        try {
          kd = base.dictOf(k);
        } catch {
          kd = undefined;
        }
        if (kd && isLeaf(kd)) index++;
        else if (kd && depth < 64) visit(k, kd, depth + 1, false);
      }
      return k;
    });
    if (changed) update?.put(ref, withEntries(node, { Kids: arr(...kids) }));
  };
  const catalog = base.catalog();
  const root = catalog.v.get('Pages');
  if (isRef(root)) {
    seen.add(root.num);
    const d = base.dictOf(root);
    if (d) visit(root, d, 0, false);
  } else if (isDict(root)) {
    update = new IncrementalUpdate(base);
    const r = update.alloc();
    nodes++;
    visit(r, root, 0, true);
    update.put(base.rootRef(), withEntries(catalog, { Pages: r }));
  }
  if (!update) return undefined;
  const done: string[] = [];
  if (pages.length > 0)
    done.push(
      pages.length === 1
        ? `page ${pages[0]} made an indirect object`
        : `pages ${listed(pages)} made indirect objects`,
    );
  if (nodes > 0)
    done.push(
      nodes === 1
        ? '1 page tree node made an indirect object'
        : `${nodes} page tree nodes made indirect objects`,
    );
  return { bytes: update.finish().bytes, done };
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
 * right (the common case costs one parse, a look at each object header and a walk of the page tree), else
 * repaired once. Throws SignError: BROKEN_XREF when nothing readable is found, SIGNED_FILE_DAMAGED for a
 * damaged file that already carries a signature, and every refusal of PdfBase (encryption, not a PDF).
 * `problem` says what was repaired, in the audit trail's English (server/modules/audit/localise.ts has the
 * Chinese of each phrase): phrases joined by "; ".
 */
export function prepareForSigning(input: Uint8Array): Prepared {
  let damage: string | undefined;
  let body = input;
  const done: string[] = [];
  let passwordRefusal: SignError | undefined;
  try {
    const base = new PdfBase(input);
    // A signed file is extended as it is, never rewritten (a changed table would break its signatures).
    if (carriesSignature(input)) return keepParsed(input, base);
    damage = damageOf(base);
    if (!damage) {
      const pages = indirectPages(base);
      if (!pages) return keepParsed(input, base);
      readable(pages.bytes);
      return { bytes: pages.bytes, repaired: true, problem: pages.done.join('; ') };
    }
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    if (err.code === SignErrorCode.NotPdf && looksLikePdfBody(input)) {
      // objects and a catalog without the %PDF header viewers do not insist on: the header goes first
      body = Buffer.concat([HEADER, input]);
      damage = 'no %PDF header';
      done.push('%PDF header added', 'cross-reference table rebuilt: the objects moved behind the header');
    } else if (err.code === SignErrorCode.PasswordRequired && !carriesSignature(input)) {
      // maybe an /Encrypt entry that only a damaged tail names (see below); else this refusal stands
      passwordRefusal = err;
      damage = 'an /Encrypt entry over objects that are not encrypted';
    } else if (err.code !== SignErrorCode.BrokenXref) throw err;
    else damage = err.message;
  }
  if (carriesSignature(input)) throw new SignError(SignErrorCode.SignedFileDamaged, damage);
  const rebuilt = rebuildXref(body);
  if (!rebuilt?.trailer.v.has('Root'))
    throw passwordRefusal ?? new SignError(SignErrorCode.BrokenXref, 'no objects found');
  if (!done.length && !passwordRefusal)
    done.push(`cross-reference table rebuilt: ${tableDamage(body, rebuilt.table, damage)}`);
  const keys = new Map(rebuilt.trailer.v);
  const ignored = ignoredEncrypt(body, rebuilt.table, keys.get('Encrypt'), rebuilt.encryptIgnored);
  if (ignored) {
    // read as poppler reads it: in the clear (signed in the clear)
    keys.delete('Encrypt');
    done.push(ignored);
  }
  const root = keys.get('Root');
  if (isDict(root)) done.push('the catalog made an indirect object');
  else if (isRef(root) && !isDict(objectIn(body, rebuilt.table, root))) {
    // a catalog our reader cannot parse: a new one, its page tree rebuilt below
    keys.set('Root', dict({ Type: name('Catalog') }));
    done.push('an unreadable catalog replaced');
  }
  let bytes = appendXref(body, rebuilt.table, keys);
  const tree = rebuildPageTree(bytes);
  if (tree) {
    bytes = tree.bytes;
    done.push(...tree.done);
  }
  let base: PdfBase;
  try {
    try {
      // The repaired file must be one the signer reads without a doubt; else the refusal stands.
      base = readable(bytes, true);
    } catch (err) {
      // An /Encrypt entry over objects that are plainly not encrypted (the first page's content reads as
      // it is), while another trailer of the file names none: viewers ignore it, and so does the repair.
      if (!(err instanceof SignError) || err.code !== SignErrorCode.PasswordRequired || !rebuilt.plainTrailer)
        throw err;
      keys.delete('Encrypt');
      bytes = appendXref(body, rebuilt.table, keys);
      base = new PdfBase(bytes);
      if (!base.contentReadable() || damageOf(base)) throw err;
      done.push('an /Encrypt entry over unencrypted objects dropped');
    }
    if (!done.some((d) => d.startsWith('cross-reference table rebuilt')))
      done.unshift('cross-reference table rebuilt');
    const pages = indirectPages(base);
    if (pages) {
      bytes = pages.bytes;
      readable(bytes);
      done.push(...pages.done);
    }
  } catch (err) {
    throw passwordRefusal ?? err;
  }
  return { bytes, repaired: true, problem: done.join('; ') };
}

/** Object `ref` of `b` as the rebuilt `table` places it (a plain object only), else undefined. */
function objectIn(b: Uint8Array, table: Map<number, XrefEntry>, ref: PdfRef): PdfObject | undefined {
  const e = table.get(ref.num);
  if (e?.type !== 1) return undefined;
  try {
    return parseIndirectAt(b, e.offset, () => undefined).obj;
  } catch {
    return undefined;
  }
}

/**
 * What to say when the rebuilt trailer's /Encrypt is one poppler ignores, else undefined: named only by a
 * trailer poppler does not use (xref.ts encryptIgnored), or leading to no dictionary (a fuzzed one).
 * An /Encrypt inside an object stream is kept (read, and judged, by PdfBase).
 */
function ignoredEncrypt(
  b: Uint8Array,
  table: Map<number, XrefEntry>,
  enc: PdfObject | undefined,
  notUsed: boolean,
): string | undefined {
  if (enc === undefined) return undefined;
  if (notUsed) return 'an /Encrypt entry of a trailer viewers do not use dropped';
  if (isDict(enc) || (isRef(enc) && table.get(enc.num)?.type === 2)) return undefined;
  return isRef(enc) && isDict(objectIn(b, table, enc)) ? undefined : 'an unreadable /Encrypt entry dropped';
}

/** A key of a page dictionary, as bytes of an object our reader cannot parse (poppler's reader can). */
const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9#])/;
const PAGE_KEYS = (raw: string) =>
  /\/Parent\s+\d+\s+\d+\s+R/.test(raw) && /\/MediaBox\b/.test(raw) && !/\/(Kids|Subtype)\b/.test(raw);

/**
 * A page tree that yields no first page (a /Kids that is not an array, a node our reader cannot parse, a
 * catalog without /Pages) while the file holds page objects: a new tree, one node whose /Kids lists them
 * in file order (as qpdf and pdf.js reconstruct), in one incremental update that also points the catalog
 * at it; each page keeps what it inherited from its old ancestors. A page object is a dictionary of
 * /Type /Page, or one naming a /Parent and a /MediaBox and no /Kids; one our reader cannot parse (poppler
 * finds no usable page in it either, and draws 0×0 points) is written anew as a blank page on a default A4
 * box, where the signature's appearance is placed as asked. Undefined when the first page is found, when
 * the tree has pages written inside /Kids (indirectPages), or when no page object is found.
 */
function rebuildPageTree(bytes: Uint8Array): { bytes: Uint8Array; done: string[] } | undefined {
  let base: PdfBase;
  try {
    base = new PdfBase(bytes);
  } catch (err) {
    if (err instanceof SignError) return undefined;
    throw err;
  }
  try {
    base.page(0);
    return undefined;
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
  }
  try {
    if (hasDirectKids(base)) return undefined;
  } catch (err) {
    // a page tree node our reader cannot parse: no direct kids to keep
    if (!(err instanceof SignError)) throw err;
  }
  // a file cut short (no %%EOF anywhere) lost what its pages held: it is not rebuilt from what is left
  if (lastIndexOf(bytes, '%%EOF') < 0) return undefined;
  const entries = [...base.revision.table]
    .filter((x): x is [number, { type: 1; offset: number; gen: number }] => x[1].type === 1)
    .sort((x, y) => x[1].offset - y[1].offset);
  const pages: { ref: PdfRef; page: PdfDict | undefined }[] = [];
  for (const [num, e] of entries) {
    if (pages.length >= MAX_REBUILT_PAGES) break;
    const ref: PdfRef = { t: 'ref', num, gen: e.gen };
    let obj: PdfObject | undefined;
    try {
      obj = base.object(num);
    } catch {
      // bytes our reader cannot parse: the dictionary's text up to its stream or endobj
      const end = indexOf(bytes, 'endobj', e.offset, e.offset + 65_536);
      // an object that never ends was cut short, not mangled: its page is not invented blank
      if (end < 0) continue;
      const raw = Buffer.from(bytes.subarray(e.offset, end)).toString('latin1');
      const text = raw.split(/\bstream\b/)[0];
      if (PAGE_TYPE.test(text) || PAGE_KEYS(text)) pages.push({ ref, page: undefined });
      continue;
    }
    if (!isDict(obj) || obj.v.has('Kids')) continue;
    const typed = isName(obj.v.get('Type'), 'Page');
    if (typed || (!obj.v.has('Type') && obj.v.has('Parent') && obj.v.has('MediaBox')))
      pages.push({ ref, page: obj });
  }
  if (pages.length === 0) return undefined;
  const update = new IncrementalUpdate(base);
  const node = update.alloc();
  const unreadable: number[] = [];
  pages.forEach(({ ref, page }, i) => {
    if (!page) unreadable.push(i + 1);
    const blank = dict({ Type: name('Page'), MediaBox: arr(0, 0, 595, 842) });
    update.put(ref, withEntries(page ?? blank, { ...(page && inherited(base, page)), Parent: node }));
  });
  update.put(node, dict({ Type: name('Pages'), Kids: arr(...pages.map((p) => p.ref)), Count: pages.length }));
  update.put(base.rootRef(), withEntries(base.catalog(), { Pages: node }));
  const done = [
    pages.length === 1
      ? 'page tree rebuilt from 1 page object'
      : `page tree rebuilt from ${pages.length} page objects`,
  ];
  if (unreadable.length > 0)
    done.push(
      unreadable.length === 1
        ? `page ${unreadable[0]} unreadable: written anew, blank, on an A4 box`
        : `pages ${listed(unreadable)} unreadable: written anew, blank, on an A4 box`,
    );
  return { bytes: update.finish().bytes, done };
}

const MAX_REBUILT_PAGES = 100_000;

/** Attributes a page inherits from the page tree (ISO 32000-2 §7.7.3.4). */
const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];

/**
 * What `page` inherits from its readable ancestors (up its /Parent chain, nearest first) and does not set
 * itself: kept on the page when it moves to the rebuilt tree.
 */
function inherited(base: PdfBase, page: PdfDict): Record<string, PdfObject> {
  const out: Record<string, PdfObject> = {};
  const seen = new Set<number>();
  let parent = page.v.get('Parent');
  for (let depth = 0; depth < 64 && isRef(parent) && !seen.has(parent.num); depth++) {
    seen.add(parent.num);
    let node: PdfDict | undefined;
    try {
      node = base.dictOf(parent);
    } catch {
      node = undefined;
    }
    if (!node) break;
    for (const k of INHERITABLE) {
      const v = node.v.get(k);
      if (v !== undefined && !page.v.has(k) && !(k in out)) out[k] = v;
    }
    parent = node.v.get('Parent');
  }
  return out;
}

/**
 * The signer's parse of `bytes`, which must need no repair (else BROKEN_XREF saying what is left); direct
 * pages are allowed while indirectPages has yet to run.
 */
function readable(bytes: Uint8Array, directPagesLeft = false): PdfBase {
  const base = new PdfBase(bytes);
  const direct = !directPagesLeft && hasDirectKids(base);
  const left = damageOf(base) ?? (direct ? 'pages inside /Kids are still direct' : undefined);
  if (left) throw new SignError(SignErrorCode.BrokenXref, left);
  return base;
}

/**
 * What was wrong with the cross-reference data, in the audit trail's words: how many objects of the file's
 * last table (found by its keyword) the rebuilt table moves, else what the signer found (`why`).
 */
function tableDamage(b: Uint8Array, rebuilt: Map<number, XrefEntry>, why = ''): string {
  let at = b.length;
  let old: ReturnType<typeof readXrefSection> = null;
  for (let guard = 0; guard < 1000 && !old; guard++) {
    at = lastIndexOf(b, 'xref', at);
    if (at < 0) break;
    if (at === 0 || b[at - 1] === 0x0a || b[at - 1] === 0x0d || b[at - 1] === 0x20)
      old = readXrefSection(b, at);
  }
  let moved = 0;
  for (const [num, e] of old?.entries ?? []) {
    const now = rebuilt.get(num);
    if (e.type === 1 && now?.type === 1 && now.offset !== e.offset) moved++;
  }
  if (moved > 0) return moved === 1 ? '1 object at a wrong offset' : `${moved} objects at wrong offsets`;
  if (/objects? at wrong offsets?|first page/.test(why)) return why;
  if (/no startxref/.test(why)) return 'its startxref was missing';
  if (/startxref/.test(why)) return 'its startxref led to no table';
  if (/Prev|XRefStm|sections/.test(why)) return 'its chain of sections was broken';
  if (/Size/.test(why)) return 'its /Size was too small';
  return 'it was missing or unreadable';
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
  entries: Map<number, XrefEntry>,
  keys: Map<string, PdfObject>,
): Uint8Array {
  const nums = [...entries.keys()].filter((n) => entries.get(n)?.type !== 0).sort((a, b) => a - b);
  let size = (nums[nums.length - 1] ?? 0) + 1;
  let table = entries;
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
  const root = trailer.get('Root');
  if (isDict(root)) {
    // a catalog written directly in the trailer (pdf.js reads it; poppler and the signer want an object)
    const n = size++;
    table = new Map(table).set(n, { type: 1, offset: pos, gen: 0 });
    nums.push(n);
    const catalog = root.v.has('Type') ? root : withEntries(root, { Type: name('Catalog') });
    text(`${n} 0 obj\n${serialize(catalog)}\nendobj\n`);
    trailer.set('Root', { t: 'ref', num: n, gen: 0 });
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
