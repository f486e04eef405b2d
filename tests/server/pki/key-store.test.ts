import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptedKeyStore, KeyDecryptError } from '#server/pki/key-store.ts';
import { MasterKeyError, resolveMasterKey } from '#server/pki/master-key.ts';
import { createPki } from '#server/pki/pki.ts';
import { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { quietLog } from '../fixtures/pki.ts';

const keyA = new TextEncoder().encode('A'.repeat(40));
const keyB = new TextEncoder().encode('B'.repeat(40));
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'esign-mk-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('EncryptedKeyStore', () => {
  it('round-trips bytes and refuses another master key, another label or a changed byte', () => {
    const store = new EncryptedKeyStore(keyA);
    const secret = new TextEncoder().encode('-----BEGIN PRIVATE KEY----- pretend');
    const blob = store.seal(secret, 'account:01');
    expect(Buffer.from(blob).includes(Buffer.from(secret))).toBe(false);
    expect(Buffer.from(store.open(blob, 'account:01')).toString()).toBe(Buffer.from(secret).toString());
    expect(() => new EncryptedKeyStore(keyB).open(blob, 'account:01')).toThrow(/another master key/);
    expect(() => store.open(blob, 'account:02')).toThrow(KeyDecryptError);
    const tampered = blob.slice();
    tampered[tampered.length - 20] ^= 1;
    expect(() => store.open(tampered, 'account:01')).toThrow(KeyDecryptError);
  });

  it('generates signing keys whose stored form is ciphertext and whose loaded form signs', async () => {
    const store = new EncryptedKeyStore(keyA);
    const k = await store.generateKey({ kind: 'rsa', modulusLength: 2048 }, 'account:ab');
    const text = Buffer.from(k.stored).toString('latin1');
    expect(text).not.toMatch(/BEGIN|PRIVATE KEY/);
    // A PKCS#8 RSA key starts with SEQUENCE, INTEGER 0, rsaEncryption OID: not here.
    expect(Buffer.from(k.stored).includes(Buffer.from('06092a864886f70d010101', 'hex'))).toBe(false);
    expect(k.privateKey.extractable).toBe(false);
    const loaded = await store.loadPrivateKey(k.stored, 'account:ab');
    const data = new TextEncoder().encode('hello');
    const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', loaded, data);
    expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', k.publicKey, sig, data)).toBe(true);
    await expect(new EncryptedKeyStore(keyB).loadPrivateKey(k.stored, 'account:ab')).rejects.toThrow(
      KeyDecryptError,
    );
  });

  it('generates EC keys and loads each stored key with its own algorithm and curve', async () => {
    const store = new EncryptedKeyStore(keyA);
    const data = new TextEncoder().encode('hello');
    for (const [namedCurve, hash] of [
      ['P-256', 'SHA-256'],
      ['P-384', 'SHA-384'],
    ] as const) {
      const k = await store.generateKey({ kind: 'ec', namedCurve }, 'ca:tsa');
      // id-ecPublicKey must not show through the ciphertext either.
      expect(Buffer.from(k.stored).includes(Buffer.from('06072a8648ce3d0201', 'hex'))).toBe(false);
      const loaded = await store.loadPrivateKey(k.stored, 'ca:tsa');
      expect(loaded.algorithm).toEqual({ name: 'ECDSA', namedCurve });
      expect(loaded.extractable).toBe(false);
      const sig = await crypto.subtle.sign({ name: 'ECDSA', hash }, loaded, data);
      expect(await crypto.subtle.verify({ name: 'ECDSA', hash }, k.publicKey, sig, data)).toBe(true);
      expect(store.loadKeyObject(k.stored, 'ca:tsa').asymmetricKeyDetails?.namedCurve).toBe(
        namedCurve === 'P-256' ? 'prime256v1' : 'secp384r1',
      );
    }
    const rsa = await store.generateKey({ kind: 'rsa', modulusLength: 2048 }, 'ca:ocsp');
    expect((await store.loadPrivateKey(rsa.stored, 'ca:ocsp')).algorithm.name).toBe('RSASSA-PKCS1-v1_5');
  });
});

describe('master key', () => {
  it('production without ESIGN_MASTER_KEY refuses to start', async () => {
    const dir = tempDir();
    expect(() =>
      resolveMasterKey({ masterKey: undefined, isProduction: true, pkiDir: join(dir, 'pki'), log: quietLog }),
    ).toThrow(MasterKeyError);
    await expect(
      createPki({
        dataDir: dir,
        publicUrl: 'https://esign.example',
        masterKey: undefined,
        isProduction: true,
        repository: new InMemoryCertRepository(),
        log: quietLog,
      }),
    ).rejects.toThrow(/ESIGN_MASTER_KEY is required in production/);
  });

  it('refuses a master key shorter than 32 characters', () => {
    expect(() =>
      resolveMasterKey({ masterKey: 'short', isProduction: true, pkiDir: tempDir(), log: quietLog }),
    ).toThrow(/at least 32/);
  });

  it('in development generates a key file with mode 0600, warns, and reuses it', () => {
    const pkiDir = join(tempDir(), 'pki');
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) };
    const first = resolveMasterKey({ masterKey: undefined, isProduction: false, pkiDir, log });
    const file = join(pkiDir, 'master.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
    expect(warnings.join('\n')).toMatch(/ESIGN_MASTER_KEY is not set/);
    const second = resolveMasterKey({ masterKey: undefined, isProduction: false, pkiDir, log });
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });
});
