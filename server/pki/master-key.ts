import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the development master key lives when ESIGN_MASTER_KEY is not set. */
const DEV_MASTER_KEY_FILE = 'master.key';

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

type MasterKeyOptions = {
  /** ESIGN_MASTER_KEY, or undefined when it is not set. */
  masterKey: string | undefined;
  /** NODE_ENV=production: a missing master key is fatal instead of generated. */
  isProduction: boolean;
  /** DATA_DIR/pki, where a development key is kept. */
  pkiDir: string;
  log: { warn: (msg: string) => void };
};

/**
 * Development key files already warned about in this process: a start opens the key more than once (the CA
 * files are prepared beside the database's start, then the PKI loads them), and one warning says it all.
 */
const warnedDevKeyFiles = new Set<string>();

/**
 * Returns the master key material every key-encryption key is derived from.
 * With ESIGN_MASTER_KEY set, that is it (at least 32 characters). In production without it, it throws:
 * a generated key beside the data would protect nothing. In development it reads or creates
 * DATA_DIR/pki/master.key (mode 0600) and logs a warning once per process.
 */
export function resolveMasterKey(opts: MasterKeyOptions): Uint8Array {
  if (opts.masterKey !== undefined && opts.masterKey !== '') {
    if (opts.masterKey.length < 32)
      throw new MasterKeyError('ESIGN_MASTER_KEY must have at least 32 characters');
    return new Uint8Array(Buffer.from(opts.masterKey, 'utf8'));
  }
  if (opts.isProduction) {
    throw new MasterKeyError(
      'ESIGN_MASTER_KEY is required in production: it encrypts the CA and account private keys at rest',
    );
  }
  mkdirSync(opts.pkiDir, { recursive: true, mode: 0o700 });
  const file = join(opts.pkiDir, DEV_MASTER_KEY_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077)
      opts.log.warn(`${file} is readable by others (mode ${mode.toString(8)}); it should be 0600`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = randomBytes(32).toString('base64url');
    // 'wx': two processes starting at once must not overwrite each other's key.
    try {
      writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      text = readFileSync(file, 'utf8').trim();
    }
  }
  if (!warnedDevKeyFiles.has(file)) {
    warnedDevKeyFiles.add(file);
    opts.log.warn(
      `ESIGN_MASTER_KEY is not set: private keys are encrypted under the development key in ${file}. ` +
        'Set ESIGN_MASTER_KEY (at least 32 characters) in production.',
    );
  }
  if (text.length < 32) throw new MasterKeyError(`${file} holds less than 32 characters`);
  return new Uint8Array(Buffer.from(text, 'utf8'));
}
