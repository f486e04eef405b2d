/**
 * The last revision of a PDF as the signer sees it: the revision the final `startxref` names, read by the
 * same parser as the verifier's (parse/document.ts over parse/xref.ts), and only the objects the signing
 * code asks for. Strict: a file whose cross-reference data does not lead to the objects it names is
 * refused (BrokenXref), because appending to it would fail in viewers; repair.ts rebuilds such a file
 * before its first signature.
 */
import type { Crypt } from '../parse/crypt.ts';
import { PdfFile, PdfParseError, type Revision } from '../parse/document.ts';
import { decodeStreamData } from '../parse/filters.ts';
import {
  indexOf,
  isArray,
  isDict,
  isName,
  isRef,
  isStream,
  lastIndexOf,
  type PdfDict,
  type PdfObject,
  type PdfRef,
  type PdfStream,
} from '../parse/objects.ts';
import { intOf } from '../parse/xref.ts';
import { SignError, SignErrorCode } from './errors.ts';

const TAIL = 4096;
/** pages a fallback walk of a page tree with wrong counts visits at most */
const MAX_PAGES = 100_000;

const broken = (detail: string) => new SignError(SignErrorCode.BrokenXref, detail);

export type PageInfo = {
  index: number;
  ref: PdfRef;
  dict: PdfDict;
  /** inherited MediaBox [llx lly urx ury] */
  mediaBox: [number, number, number, number];
  rotate: number;
};

export class PdfBase {
  readonly bytes: Uint8Array;
  /** the shared parser's view of the file, and the revision the signer appends to */
  readonly file: PdfFile;
  readonly revision: Revision;
  /** offset of the last cross-reference section (the /Prev of our update) */
  readonly xrefOffset: number;
  readonly trailer: PdfDict;
  /** the last section is a cross-reference stream (write the update the same way) */
  readonly usesXrefStream: boolean;
  /** the next free object number (/Size) */
  readonly size: number;
  /** the key of an encrypted file (opened with the empty user password): the update is encrypted too */
  readonly crypt: Crypt | undefined;
  private readonly cache = new Map<number, PdfObject>();

  /** Reads `bytes`; throws SignError (NotPdf, Encrypted, PasswordRequired, SigningNotPermitted, BrokenXref). */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    if (bytes.length < 32 || indexOf(bytes, '%PDF-', 0, 1024) < 0) throw new SignError(SignErrorCode.NotPdf);
    const sx = lastIndexOf(bytes, 'startxref', bytes.length, Math.max(0, bytes.length - TAIL));
    if (sx < 0) throw broken('no startxref at the end of the file');
    let file: PdfFile;
    try {
      file = new PdfFile(bytes);
    } catch (err) {
      if (err instanceof PdfParseError) throw broken(err.message);
      throw err;
    }
    const rev = file.latest;
    if (rev.reconstructed || rev.startxrefPos !== sx)
      throw broken('the final startxref does not lead to a cross-reference section');
    if (rev.chainProblem) throw broken(rev.chainProblem);
    this.file = file;
    this.revision = rev;
    this.xrefOffset = rev.xrefOffset;
    this.trailer = rev.trailer;
    this.usesXrefStream = isName(rev.trailer.v.get('Type'), 'XRef');
    const enc = file.encryption;
    if (enc?.kind === 'damaged') throw broken('the /Encrypt dictionary cannot be read');
    if (enc?.kind === 'password') throw new SignError(SignErrorCode.PasswordRequired);
    if (enc?.kind === 'unsupported') throw new SignError(SignErrorCode.Encrypted, enc.detail);
    if (enc?.kind === 'open') {
      this.crypt = enc.crypt;
    }
    const size = intOf(this.trailer.v.get('Size'));
    if (size === undefined) throw broken('the trailer has no /Size');
    let maxNum = 0;
    for (const [n, e] of rev.table) if (e.type !== 0 && n > maxNum) maxNum = n;
    // An entry beyond /Size means the table lies about itself; numbering new objects from it would clash.
    if (maxNum >= size) throw broken(`object ${maxNum} is beyond /Size ${size}`);
    this.size = size;
    if (!isRef(this.trailer.v.get('Root'))) throw broken('the trailer has no /Root');
    if (!isDict(this.catalog())) throw broken('the catalog cannot be read');
    // A key that passes the password check yet does not decrypt the first page is not the file's key
    // (some writers get the check values wrong): the file cannot be opened without its password.
    if (this.crypt && !this.contentReadable()) throw new SignError(SignErrorCode.PasswordRequired);
    if (this.crypt?.signingForbiddenBy()) throw new SignError(SignErrorCode.SigningNotPermitted);
  }

  /** The first page's content is readable as it is read: decodable, and operators rather than noise. */
  contentReadable(): boolean {
    try {
      const page = this.page(0);
      const c = this.resolve(page.dict.v.get('Contents'));
      const s = isStream(c) ? c : isArray(c) ? this.streamOf(c.v[0]) : undefined;
      if (!s) return true;
      const { data, decoded } = decodeStreamData(s.dict, s.raw);
      if (!decoded) return !s.dict.v.has('Filter') || isName(s.dict.v.get('Filter'), 'DCTDecode');
      let printable = 0;
      const head = data.subarray(0, 512);
      for (const x of head) if ((x >= 0x20 && x < 0x7f) || x === 10 || x === 13 || x === 9) printable++;
      return printable >= head.length * 0.9;
    } catch {
      return false;
    }
  }

  /** The generation number an object currently has (0 for objects in object streams). */
  genOf(num: number): number {
    const e = this.revision.table.get(num);
    return e?.type === 1 ? e.gen : 0;
  }

  /**
   * The object `num` as the last revision defines it. A number the table lists whose bytes are not that
   * object means the table is wrong: refused rather than guessed at.
   */
  object(num: number): PdfObject {
    if (this.cache.has(num)) return this.cache.get(num) ?? null;
    const e = this.revision.table.get(num);
    let obj: PdfObject = null;
    if (e && e.type !== 0) {
      const io = this.file.entryObject(this.revision, num);
      if (!io)
        throw broken(
          e.type === 1
            ? `object ${num} is not at offset ${e.offset}`
            : `object ${num} in object stream ${e.objStm} cannot be read`,
        );
      obj = io.obj;
    }
    this.cache.set(num, obj);
    return obj;
  }

  resolve(o: PdfObject | undefined): PdfObject | undefined {
    let cur = o;
    for (let i = 0; i < 32 && isRef(cur); i++) cur = this.object(cur.num);
    return isRef(cur) ? undefined : cur;
  }

  dictOf(o: PdfObject | undefined): PdfDict | undefined {
    const v = this.resolve(o);
    return isDict(v) ? v : isStream(v) ? v.dict : undefined;
  }

  streamOf(o: PdfObject | undefined): PdfStream | undefined {
    const v = this.resolve(o);
    return isStream(v) ? v : undefined;
  }

  rootRef(): PdfRef {
    return this.trailer.v.get('Root') as PdfRef;
  }

  catalog(): PdfDict {
    const c = this.dictOf(this.rootRef());
    if (!c) throw broken('the catalog cannot be read');
    return c;
  }

  pageCount(): number {
    const pages = this.dictOf(this.catalog().v.get('Pages'));
    const count = intOf(pages?.v.get('Count')) ?? 0;
    // a /Count that lies (damaged files): the leaves themselves, as viewers count them
    return count > 0 && count <= MAX_PAGES ? count : this.leaves(MAX_PAGES).length;
  }

  /**
   * The first `limit` page leaves in document order, walking /Kids without trusting /Count (cycles and
   * unreadable nodes skipped): what viewers fall back on when the counts of a page tree are wrong.
   */
  leaves(limit: number): PageInfo[] {
    const out: PageInfo[] = [];
    const seen = new Set<number>();
    const walk = (
      nodeRef: PdfObject | undefined,
      mediaBox: PdfObject | undefined,
      rotate: PdfObject | undefined,
      depth: number,
    ) => {
      if (out.length >= limit || depth > 64 || !isRef(nodeRef) || seen.has(nodeRef.num)) return;
      seen.add(nodeRef.num);
      let node: PdfDict | undefined;
      try {
        node = this.dictOf(nodeRef);
      } catch {
        return;
      }
      if (!node) return;
      const mb = node.v.get('MediaBox') ?? mediaBox;
      const rot = node.v.get('Rotate') ?? rotate;
      const kids = node.v.has('Kids') ? this.resolve(node.v.get('Kids')) : undefined;
      if (!isName(node.v.get('Type'), 'Pages') && !isArray(kids)) {
        out.push(this.pageInfo(out.length, nodeRef, node, mb, rot));
        return;
      }
      if (isArray(kids)) for (const k of kids.v) walk(k, mb, rot, depth + 1);
    };
    walk(this.catalog().v.get('Pages'), undefined, undefined, 0);
    return out;
  }

  private pageInfo(
    index: number,
    ref: PdfRef,
    dict: PdfDict,
    mediaBox: PdfObject | undefined,
    rotate: PdfObject | undefined,
  ): PageInfo {
    const box = this.resolve(mediaBox);
    const nums = isArray(box) ? box.v.map((x) => this.resolve(x)) : [];
    const mb = (nums.length === 4 && nums.every((x) => typeof x === 'number') ? nums : [0, 0, 612, 792]) as [
      number,
      number,
      number,
      number,
    ];
    const r = this.resolve(rotate);
    return { index, ref, dict, mediaBox: mb, rotate: typeof r === 'number' ? r : 0 };
  }

  /**
   * The page at `index` (0-based), found by descending the page tree along /Count, so a 500-page document
   * costs a few object reads. Throws PageOutOfRange.
   */
  page(index: number): PageInfo {
    if (!Number.isInteger(index) || index < 0) throw new SignError(SignErrorCode.PageOutOfRange, `${index}`);
    let nodeRef = this.catalog().v.get('Pages');
    let remaining = index;
    let mediaBox: PdfObject | undefined;
    let rotate: PdfObject | undefined;
    const seen = new Set<number>();
    for (let depth = 0; depth < 64; depth++) {
      if (!isRef(nodeRef) || seen.has(nodeRef.num)) break;
      seen.add(nodeRef.num);
      const node = this.dictOf(nodeRef);
      if (!node) break;
      mediaBox = node.v.get('MediaBox') ?? mediaBox;
      rotate = node.v.get('Rotate') ?? rotate;
      if (!isName(node.v.get('Type'), 'Pages') && !node.v.has('Kids')) {
        if (remaining !== 0) break;
        return this.pageInfo(index, nodeRef, node, mediaBox, rotate);
      }
      const kids = this.resolve(node.v.get('Kids'));
      if (!isArray(kids)) break;
      let next: PdfObject | undefined;
      for (const k of kids.v) {
        const kd = this.dictOf(k);
        if (!kd) continue;
        const isLeaf = !isName(kd.v.get('Type'), 'Pages') && !kd.v.has('Kids');
        const count = isLeaf ? 1 : (intOf(this.resolve(kd.v.get('Count'))) ?? 0);
        if (remaining < count) {
          next = k;
          break;
        }
        remaining -= count;
      }
      if (next === undefined) break;
      nodeRef = next;
    }
    // the counts led nowhere: walk the leaves instead
    const leaf = index < MAX_PAGES ? this.leaves(index + 1)[index] : undefined;
    if (leaf) return leaf;
    throw new SignError(SignErrorCode.PageOutOfRange, `page ${index + 1} of ${this.pageCount()}`);
  }
}
