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
  /** Generates an RSA key pair for RSASSA-PKCS1-v1_5 / SHA-256 signing. */
  generateRsaKey(modulusLength: number, label: string): Promise<GeneratedKey>;
  /** The signing key of a stored form; rejects a wrong label, a tampered blob or another master key. */
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

  async generateRsaKey(modulusLength: number, label: string): Promise<GeneratedKey> {
    const pair = (await subtle.generateKey(
      { ...RSA_SIGN, modulusLength, publicExponent: new Uint8Array([1, 0, 1]) },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
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
      return await subtle.importKey('pkcs8', toArrayBuffer(pkcs8), RSA_SIGN, false, ['sign']);
    } finally {
      pkcs8.fill(0);
    }
  }

  loadKeyObject(stored: Uint8Array, label: string): KeyObject {
    const pkcs8 = this.open(stored, label);
    try {
      return createPrivateKey({
        key: Buffer.from(pkcs8.buffer, pkcs8.byteOffset, pkcs8.length),
        format: 'der',
        type: 'pkcs8',
      });
    } finally {
      pkcs8.fill(0);
    }
  }

  #aad(label: string): Buffer {
    return Buffer.concat([MAGIC, this.#kid, Buffer.from(label, 'utf8')]);
  }
}
