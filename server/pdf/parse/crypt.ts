/**
 * The standard security handler (ISO 32000-2 §7.6.4): a file encrypted with an empty user password is
 * opened without asking, as every viewer does. RC4 (40–128 bit, R 2–4), AES-128 (R 4, AESV2) and AES-256
 * (R 5–6, AESV3). Used by the shared parser (document.ts decrypts what it reads) and by the signer's writer
 * (an incremental update of an encrypted file is encrypted with the same key, object by object).
 *
 * Strings inside object streams, the /Encrypt dictionary, cross-reference streams, the trailer /ID and the
 * /Contents of a signature dictionary are never encrypted (§7.6.2, §12.8.1).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { isArray, isDict, isName, isString, type PdfDict, type PdfObject } from './objects.ts';

const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e,
  0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

type Method = 'none' | 'rc4' | 'aes128' | 'aes256';

/** Permission bits of /P (ISO 32000-2 Table 22), 1-based as in the standard. */
const Permission = {
  /** bit 4: modify the contents otherwise than by bits 6, 9, 11 */
  modify: 4,
  /** bit 6: add or modify annotations, fill in form fields */
  annotate: 6,
  /** bit 9: fill in existing form fields, including signature fields (R ≥ 3) */
  fillForms: 9,
} as const;

export type EncryptionState =
  | { kind: 'open'; crypt: Crypt }
  /** the user password is not empty: the file cannot be read without it */
  | { kind: 'password' }
  /** a security handler or algorithm this reader does not implement */
  | { kind: 'unsupported'; detail: string }
  /** the /Encrypt entry leads to no dictionary: damaged cross-reference data */
  | { kind: 'damaged' };

function md5(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 16) return new Uint8Array(0);
  const algo = key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc';
  const iv = data.subarray(0, 16);
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  try {
    const d = createDecipheriv(algo, key, iv);
    return new Uint8Array(Buffer.concat([d.update(body), d.final()]));
  } catch {
    // bad padding: keep the blocks as they are, as viewers do (a hostile key length: nothing)
    try {
      const d = createDecipheriv(algo, key, iv);
      d.setAutoPadding(false);
      return new Uint8Array(Buffer.concat([d.update(body), d.final()]));
    } catch {
      return new Uint8Array(0);
    }
  }
}

function aesEncrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  const iv = randomBytes(16);
  const c = createCipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv);
  return new Uint8Array(Buffer.concat([iv, c.update(data), c.final()]));
}

/** The key and methods of an opened file. */
export class Crypt {
  /** undefined when only embedded files are encrypted and the password is not known (see openEncryption) */
  private readonly key: Uint8Array | undefined;
  readonly revision: number;
  private readonly strMethod: Method;
  private readonly stmMethod: Method;
  /** the method of embedded file streams (/EFF, by default /StmF) */
  private readonly effMethod: Method;
  /** /P as an unsigned 32-bit value */
  readonly permissions: number;
  readonly encryptMetadata: boolean;

  constructor(
    key: Uint8Array | undefined,
    revision: number,
    methods: { str: Method; stm: Method; eff: Method },
    permissions: number,
    encryptMetadata: boolean,
  ) {
    this.key = key;
    this.revision = revision;
    this.strMethod = methods.str;
    this.stmMethod = methods.stm;
    this.effMethod = methods.eff;
    this.permissions = permissions;
    this.encryptMetadata = encryptMetadata;
  }

  /** Whether permission bit `bit` (1-based) is granted. */
  allows(bit: number): boolean {
    return ((this.permissions >>> (bit - 1)) & 1) === 1;
  }

  /**
   * Signing fills a signature field: allowed by bit 6, or from R 3 on by bit 9 (ISO 32000-2 Table 22).
   * Returns the permission that forbids it, or undefined.
   */
  signingForbiddenBy(): 'fillForms' | undefined {
    if (this.allows(Permission.annotate)) return undefined;
    if (this.revision >= 3 && this.allows(Permission.fillForms)) return undefined;
    return 'fillForms';
  }

  private objectKey(key: Uint8Array, num: number, gen: number, method: Method): Uint8Array {
    if (method === 'aes256') return key;
    const salt = method === 'aes128' ? [0x73, 0x41, 0x6c, 0x54] : [];
    const k = md5(
      key,
      Uint8Array.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, gen & 255, (gen >> 8) & 255, ...salt]),
    );
    return k.subarray(0, Math.min(key.length + 5, 16));
  }

  private apply(num: number, gen: number, data: Uint8Array, method: Method, encrypt: boolean): Uint8Array {
    // without the key (an attachment under a password) the data stays as it is: nothing reads it
    if (method === 'none' || !this.key) return data;
    const k = this.objectKey(this.key, num, gen, method);
    if (method === 'rc4') return rc4(k, data);
    return encrypt ? aesEncrypt(k, data) : aesDecrypt(k, data);
  }

  decryptString(num: number, gen: number, data: Uint8Array): Uint8Array {
    return this.apply(num, gen, data, this.strMethod, false);
  }
  encryptString(num: number, gen: number, data: Uint8Array): Uint8Array {
    return this.apply(num, gen, data, this.strMethod, true);
  }

  /** Whether a stream with this dictionary is encrypted at all (XRef streams, plain metadata: not). */
  streamEncrypted(d: PdfDict): boolean {
    if (this.methodOf(d) === 'none' || isName(d.v.get('Type'), 'XRef')) return false;
    if (!this.encryptMetadata && isName(d.v.get('Type'), 'Metadata')) return false;
    const f = d.v.get('Filter');
    // a stream with its own /Crypt filter (only /Identity is met in practice) is left as it is
    if (isName(f, 'Crypt') || (isArray(f) && isName(f.v[0], 'Crypt'))) return false;
    return true;
  }
  private methodOf(d: PdfDict): Method {
    return isName(d.v.get('Type'), 'EmbeddedFile') ? this.effMethod : this.stmMethod;
  }
  decryptStream(num: number, gen: number, d: PdfDict, data: Uint8Array): Uint8Array {
    return this.streamEncrypted(d) ? this.apply(num, gen, data, this.methodOf(d), false) : data;
  }
  encryptStream(num: number, gen: number, d: PdfDict, data: Uint8Array): Uint8Array {
    return this.streamEncrypted(d) ? this.apply(num, gen, data, this.methodOf(d), true) : data;
  }
}

const bytesOf = (o: PdfObject | undefined) => (isString(o) ? o.v : undefined);
const numOf = (o: PdfObject | undefined) => (typeof o === 'number' ? o : undefined);

type Resolve = (o: PdfObject | undefined) => PdfObject | undefined;

function methodOf(
  enc: PdfDict,
  filterName: PdfObject | undefined,
  v: number,
  resolve: Resolve,
): Method | string {
  if (v === 1 || v === 2) return 'rc4';
  const fname = isName(filterName) ? filterName.v : 'Identity';
  if (fname === 'Identity') return 'none';
  const cf = resolve(enc.v.get('CF'));
  const f = isDict(cf) ? resolve(cf.v.get(fname)) : undefined;
  const cfm = isDict(f) ? resolve(f.v.get('CFM')) : undefined;
  if (isName(cfm, 'V2')) return 'rc4';
  if (isName(cfm, 'AESV2')) return 'aes128';
  if (isName(cfm, 'AESV3')) return 'aes256';
  if (cfm === undefined || isName(cfm, 'None')) return 'none';
  return `crypt filter method ${isName(cfm) ? cfm.v : '?'}`;
}

/** SHA-256 (R 5) or the iterated hash of ISO 32000-2 Algorithm 2.B (R 6), for the empty password. */
function hash2B(salt: Uint8Array, udata: Uint8Array, revision: number): Uint8Array {
  let k = new Uint8Array(createHash('sha256').update(salt).update(udata).digest());
  if (revision < 6) return k;
  for (let i = 0; ; ) {
    const unit = Buffer.concat([k, udata]);
    const k1 = Buffer.alloc(64 * unit.length);
    for (let r = 0; r < 64; r++) k1.set(unit, r * unit.length);
    const c = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    c.setAutoPadding(false);
    const e = Buffer.concat([c.update(k1), c.final()]);
    let sum = 0;
    for (let j = 0; j < 16; j++) sum += e[j];
    const algo = ['sha256', 'sha384', 'sha512'][sum % 3];
    k = new Uint8Array(createHash(algo).update(e).digest());
    i++;
    if (i >= 64 && e[e.length - 1] <= i - 32) break;
  }
  return k.subarray(0, 32);
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

function aes256Key(intermediate: Uint8Array, wrapped: Uint8Array): Uint8Array {
  const d = createDecipheriv('aes-256-cbc', intermediate, Buffer.alloc(16));
  d.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([d.update(wrapped.subarray(0, 32)), d.final()]));
}

/**
 * Opens the /Encrypt dictionary `enc` with the empty password, as the user password or else as the owner
 * password (some files are protected by a user password and an empty owner password; viewers open them).
 * `id0` is the first /ID string of the trailer (the key of R 2–4 depends on it).
 */
export function openEncryption(enc: PdfDict, id0: Uint8Array, resolve: Resolve = (o) => o): EncryptionState {
  if (!isName(enc.v.get('Filter'), 'Standard'))
    return { kind: 'unsupported', detail: 'a security handler other than /Standard' };
  const v = numOf(enc.v.get('V')) ?? 0;
  const r = numOf(enc.v.get('R')) ?? 0;
  const o = bytesOf(enc.v.get('O'));
  const u = bytesOf(enc.v.get('U'));
  const p = (numOf(enc.v.get('P')) ?? 0) >>> 0;
  const encryptMetadata = enc.v.get('EncryptMetadata') !== false;
  if (!o || !u || ![1, 2, 4, 5].includes(v) || r < 2 || r > 6)
    return { kind: 'unsupported', detail: `V ${v} R ${r}` };
  const strM = methodOf(enc, enc.v.get('StrF'), v, resolve);
  const stmM = methodOf(enc, enc.v.get('StmF'), v, resolve);
  const effM = methodOf(enc, enc.v.get('EFF') ?? enc.v.get('StmF'), v, resolve);
  const known = (m: string): m is Method => ['none', 'rc4', 'aes128', 'aes256'].includes(m);
  if (!known(strM) || !known(stmM)) return { kind: 'unsupported', detail: known(strM) ? stmM : strM };
  // attachments under a method this reader lacks are left as they are (nothing here reads them)
  const methods = { str: strM, stm: stmM, eff: known(effM) ? effM : 'none' };
  const open = (key: Uint8Array | undefined, owner: boolean): EncryptionState => ({
    kind: 'open',
    // V 4 with a key shorter than 128 bits: Acrobat and pdf.js pad it with zeros to 16 bytes for the object
    // keys (the password check uses it as it is)
    crypt: new Crypt(
      v === 4 && key && key.length < 16 ? Uint8Array.from({ length: 16 }, (_, i) => key[i] ?? 0) : key,
      r,
      methods,
      // the owner password grants every permission
      owner ? 0xffffffff : p,
      encryptMetadata,
    ),
  });
  // The empty password opens nothing. When strings and streams are in the clear (/StmF and /StrF /Identity:
  // only attachments are encrypted, by /EFF) the document needs no key: viewers open it without asking,
  // and so does this reader; the attachments stay encrypted.
  const locked = (): EncryptionState =>
    strM === 'none' && stmM === 'none' ? open(undefined, false) : { kind: 'password' };
  if (r >= 5) {
    const ue = bytesOf(enc.v.get('UE'));
    const oe = bytesOf(enc.v.get('OE'));
    if (u.length < 48 || o.length < 48) return { kind: 'unsupported', detail: 'short /U or /O' };
    const none = new Uint8Array(0);
    if (ue && ue.length >= 32 && same(hash2B(u.subarray(32, 40), none, r), u.subarray(0, 32)))
      return open(aes256Key(hash2B(u.subarray(40, 48), none, r), ue), false);
    const u48 = u.subarray(0, 48);
    if (oe && oe.length >= 32 && same(hash2B(o.subarray(32, 40), u48, r), o.subarray(0, 32)))
      return open(aes256Key(hash2B(o.subarray(40, 48), u48, r), oe), true);
    return locked();
  }
  const cf = resolve(enc.v.get('CF'));
  const stmF = enc.v.get('StmF');
  const std = isDict(cf) && isName(stmF) ? resolve(cf.v.get(stmF.v)) : undefined;
  const bits =
    (isDict(std) ? numOf(resolve(std.v.get('Length'))) : undefined) ??
    numOf(resolve(enc.v.get('Length'))) ??
    40;
  // /Length of a crypt filter is in bytes in some writers, in bits in others
  const n = r === 2 ? 5 : Math.min(16, Math.max(5, bits <= 16 ? bits : Math.floor(bits / 8)));
  const pb = Uint8Array.from([p & 255, (p >>> 8) & 255, (p >>> 16) & 255, (p >>> 24) & 255]);
  const fileKey = (paddedUser: Uint8Array) => {
    let h = md5(
      paddedUser,
      o.subarray(0, 32),
      pb,
      id0,
      r >= 4 && !encryptMetadata ? Uint8Array.from([255, 255, 255, 255]) : new Uint8Array(0),
    );
    if (r >= 3) for (let i = 0; i < 50; i++) h = md5(h.subarray(0, n));
    return h.subarray(0, n);
  };
  const userOk = (key: Uint8Array) => {
    if (r === 2) return same(rc4(key, PAD), u.subarray(0, 32));
    let x = rc4(key, md5(PAD, id0));
    for (let i = 1; i <= 19; i++)
      x = rc4(
        key.map((b) => b ^ i),
        x,
      );
    return same(x, u.subarray(0, 16));
  };
  const userKey = fileKey(PAD);
  if (userOk(userKey)) return open(userKey, false);
  // the empty owner password: it unwraps the user password from /O (Algorithm 7)
  let h = md5(PAD);
  if (r >= 3) for (let i = 0; i < 50; i++) h = md5(h);
  const ok = h.subarray(0, n);
  let user = o.subarray(0, 32);
  if (r === 2) user = rc4(ok, user);
  else
    for (let i = 19; i >= 0; i--)
      user = rc4(
        ok.map((b) => b ^ i),
        user,
      );
  const ownerKey = fileKey(user);
  if (userOk(ownerKey)) return open(ownerKey, true);
  return locked();
}
