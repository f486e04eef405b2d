import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { RSA_SIGN, subtle, toArrayBuffer } from './crypto.ts';
import { allChildren, oid, raw, readTlv } from '../lib/der.ts';
import type { KeySpec } from './profile.ts';

/** A key pair just generated: the form to store, and the keys to use now. */
export type GeneratedKey = {
  /** Opaque bytes to persist (a file or a database row). Never the plain private key. */
  stored: Uint8Array;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
};

/**
 * Where private keys live. The default wraps them with AES-256-GCM under a key derived from the master
 * key; an HSM or KMS implementation would return a key handle as `stored` and a CryptoKey backed by the
 * device from `loadPrivateKey`. The label names the key's purpose ("ca:root", "account:<serial>") and is
 * bound to the stored form, so a blob copied onto another record does not load.
 */
export interface KeyStore {
  /**
   * Generates a signing key pair: RSA (RSASSA-PKCS1-v1_5 / SHA-256) or EC (ECDSA on the named curve;
   * the signer picks the hash, see crypto.ts `signParams`).
   */
  generateKey(spec: KeySpec, label: string): Promise<GeneratedKey>;
  /**
   * The signing key of a stored form, with the key's own algorithm (RSA or ECDSA and its curve); rejects
   * a wrong label, a tampered blob or another master key.
   */
  loadPrivateKey(stored: Uint8Array, label: string): Promise<CryptoKey>;
  /**
   * The same key as a node:crypto KeyObject, for a hot path that signs many times a second (the TSA):
   * node:crypto signs in about half the time of WebCrypto. Optional: a store whose keys never leave a
   * device leaves it out, and callers then sign through `loadPrivateKey`.
   */
  loadKeyObject?(stored: Uint8Array, label: string): KeyObject;
}

export class KeyDecryptError extends Error {
  override name = 'KeyDecryptError';
}

const MAGIC = Buffer.from('ESK1', 'ascii');
const KID_LENGTH = 8;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

function keyObjectOf(pkcs8: Uint8Array): KeyObject {
  return createPrivateKey({
    key: Buffer.from(pkcs8.buffer, pkcs8.byteOffset, pkcs8.length),
    format: 'der',
    type: 'pkcs8',
  });
}

const RSA_ENCRYPTION = Buffer.from(oid('1.2.840.113549.1.1.1'));
const EC_PUBLIC_KEY = Buffer.from(oid('1.2.840.10045.2.1'));
const CURVES = new Map<string, string>([
  [Buffer.from(oid('1.2.840.10045.3.1.7')).toString('hex'), 'P-256'],
  [Buffer.from(oid('1.3.132.0.34')).toString('hex'), 'P-384'],
  [Buffer.from(oid('1.3.132.0.35')).toString('hex'), 'P-521'],
]);

/**
 * The WebCrypto import parameters of a PKCS#8 key, read from its own PrivateKeyAlgorithmIdentifier:
 * rsaEncryption imports as RSASSA-PKCS1-v1_5 / SHA-256 (the CA keys of installs made before EC, and every
 * account key), id-ecPublicKey as ECDSA on the curve its parameters name.
 */
function importParams(pkcs8: Uint8Array): RsaHashedImportParams | EcKeyImportParams {
  // PrivateKeyInfo ::= SEQUENCE { version, privateKeyAlgorithm AlgorithmIdentifier, privateKey, ... }
  const info = readTlv(pkcs8, 0);
  const fields = info && allChildren(pkcs8, info);
  const algIdFields = fields?.[1] ? allChildren(pkcs8, fields[1]) : [];
  // Unreadable DER throws, as it always did; a readable key of another kind is refused below.
  if (!fields || !algIdFields) throw new RangeError('DER: not a PKCS#8 key');
  const [algorithm, params] = algIdFields;
  const alg = algorithm && Buffer.from(raw(pkcs8, algorithm));
  if (alg?.equals(RSA_ENCRYPTION)) return RSA_SIGN;
  const curve =
    alg?.equals(EC_PUBLIC_KEY) && params && CURVES.get(Buffer.from(raw(pkcs8, params)).toString('hex'));
  if (!curve) throw new Error('stored key is neither RSA nor EC on P-256, P-384 or P-521');
  return { name: 'ECDSA', namedCurve: curve };
}

/** Derives a 32-byte key for one purpose from the master key (HKDF-SHA256, fixed salt, purpose as info). */
export function deriveKey(masterKey: Uint8Array, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', masterKey, Buffer.from('esign-platform/pki'), Buffer.from(purpose), 32),
  );
}

/**
 * The default KeyStore: PKCS#8 private keys sealed with AES-256-GCM.
 * Blob layout: "ESK1" | key id (8) | IV (12) | ciphertext | tag (16). The key id (an HMAC of the
 * key-encryption key) lets a wrong master key be reported as such instead of as corruption.
 */
export class EncryptedKeyStore implements KeyStore {
  readonly #kek: Buffer;
  readonly #kid: Buffer;

  constructor(masterKey: Uint8Array) {
    this.#kek = deriveKey(masterKey, 'key-wrap/aes-256-gcm/v1');
    this.#kid = createHmac('sha256', this.#kek).update('key-id').digest().subarray(0, KID_LENGTH);
  }

  /** Encrypts bytes for storage under this master key, bound to `label`. */
  seal(plain: Uint8Array, label: string): Uint8Array {
    const iv = randomBytes(IV_LENGTH);
    const cipher = createCipheriv('aes-256-gcm', this.#kek, iv, { authTagLength: TAG_LENGTH });
    cipher.setAAD(this.#aad(label));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return new Uint8Array(Buffer.concat([MAGIC, this.#kid, iv, body, cipher.getAuthTag()]));
  }

  /** Decrypts what `seal` produced; throws KeyDecryptError on another master key, label or any change. */
  open(blob: Uint8Array, label: string): Uint8Array {
    const buf = Buffer.from(blob);
    const head = MAGIC.length + KID_LENGTH + IV_LENGTH;
    if (buf.length < head + TAG_LENGTH || !buf.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new KeyDecryptError(`stored key "${label}" is not an encrypted key blob`);
    }
    if (!buf.subarray(MAGIC.length, MAGIC.length + KID_LENGTH).equals(this.#kid)) {
      throw new KeyDecryptError(`stored key "${label}" was encrypted under another master key`);
    }
    const iv = buf.subarray(MAGIC.length + KID_LENGTH, head);
    const decipher = createDecipheriv('aes-256-gcm', this.#kek, iv, { authTagLength: TAG_LENGTH });
    decipher.setAAD(this.#aad(label));
    decipher.setAuthTag(buf.subarray(buf.length - TAG_LENGTH));
    try {
      return new Uint8Array(
        Buffer.concat([decipher.update(buf.subarray(head, buf.length - TAG_LENGTH)), decipher.final()]),
      );
    } catch {
      throw new KeyDecryptError(`stored key "${label}" failed authentication (tampered, or another label)`);
    }
  }

  async generateKey(spec: KeySpec, label: string): Promise<GeneratedKey> {
    const params =
      spec.kind === 'ec'
        ? { name: 'ECDSA', namedCurve: spec.namedCurve }
        : { ...RSA_SIGN, modulusLength: spec.modulusLength, publicExponent: new Uint8Array([1, 0, 1]) };
    const pair = (await subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
    const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', pair.privateKey));
    const stored = this.seal(pkcs8, label);
    pkcs8.fill(0);
    // The key in use is re-imported as non-extractable: nothing later can export it in the clear.
    const privateKey = await this.loadPrivateKey(stored, label);
    return { stored, privateKey, publicKey: pair.publicKey };
  }

  async loadPrivateKey(stored: Uint8Array, label: string): Promise<CryptoKey> {
    const pkcs8 = this.open(stored, label);
    try {
      return await subtle.importKey('pkcs8', toArrayBuffer(pkcs8), importParams(pkcs8), false, ['sign']);
    } finally {
      pkcs8.fill(0);
    }
  }

  loadKeyObject(stored: Uint8Array, label: string): KeyObject {
    const pkcs8 = this.open(stored, label);
    try {
      return keyObjectOf(pkcs8);
    } finally {
      pkcs8.fill(0);
    }
  }

  #aad(label: string): Buffer {
    return Buffer.concat([MAGIC, this.#kid, Buffer.from(label, 'utf8')]);
  }
}
