import type { AppDeps } from '../../deps.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import { createPki, type Pki, prepareCa } from '../../pki/pki.ts';
import type { CertHolder, CertRecord } from '../../pki/cert-repository.ts';
import {
  DbCertRepository,
  type HolderCertRow,
  listHolderCertificates,
  listHolderGoodSerials,
} from './queries.ts';

/** A certificate of a holder as the account's certificate pages show it. */
export type HolderCertificate = HolderCertRow;

/** The app's PKI, started on first use (deps.perApp). */
const PKI = definePerAppSlot<Promise<Pki>>('pki');
/** The CA files being made or checked by prepareCaFiles at start, if the server started that. */
const CA_FILES = definePerAppSlot<Promise<void>>('pki-ca-files');

/**
 * The one PKI of an app (kept in deps.perApp): started on first call (CA files in DATA_DIR/pki, certificate
 * rows in the database) and shared after. Other modules (certificates of accounts, signing) use this
 * rather than starting their own, so the CA is loaded once.
 */
export function pkiFor(deps: AppDeps): Promise<Pki> {
  return deps.perApp.get(PKI, () => {
    // A CA still being made by prepareCaFiles (a fresh start answers before its keys exist) is waited for,
    // never read half-written nor made a second time beside it. Its failure is not this call's answer: the
    // server stops on it, and createPki meets and reports the same cause itself.
    const caFiles = deps.perApp.get(CA_FILES, () => Promise.resolve());
    const pki = caFiles
      .catch(() => {})
      .then(() => createPki({ ...caOptions(deps), repository: new DbCertRepository(deps.db) }));
    // A failed start must not be kept: the next call tries again (and reports its own error). The failure
    // itself reaches whoever awaits `pki`; this branch only forgets it.
    pki.catch(() => deps.perApp.delete(PKI));
    return pki;
  });
}

function caOptions(deps: Pick<AppDeps, 'config' | 'clock' | 'log'>) {
  return {
    dataDir: deps.config.dataDir,
    publicUrl: deps.config.publicUrl,
    masterKey: deps.config.masterKey,
    isProduction: deps.config.isProduction,
    now: () => deps.clock.now(),
    log: {
      info: (msg: string) => deps.log.info(msg),
      warn: (msg: string) => deps.log.warn(msg),
      error: (err: unknown, msg: string) => deps.log.error({ err }, msg),
    },
  };
}

/**
 * Starts making (first start) or checking the CA files of DATA_DIR/pki, before the app exists:
 * server/serve.ts starts it first and does not wait for it, so a fresh start's key generation (on the
 * thread pool) runs beside opening the database and building the app, and the server listens before it
 * ends. pkiFor waits for it, so every call that needs the CA waits until the hierarchy is complete.
 */
export function prepareCaFiles(deps: Pick<AppDeps, 'config' | 'clock' | 'log' | 'perApp'>): Promise<void> {
  const files = prepareCa(caOptions(deps));
  deps.perApp.set(CA_FILES, files);
  return files;
}

/** The certificate record of a serial the platform's CA issued, or undefined. */
export function certificateBySerial(deps: AppDeps, serial: string): Promise<CertRecord | undefined> {
  return new DbCertRepository(deps.db).findBySerial(serial);
}

/** The holder's certificate in force now (issued, unexpired, not revoked), or undefined. */
export function currentCertificate(deps: AppDeps, holder: CertHolder): Promise<CertRecord | undefined> {
  return new DbCertRepository(deps.db).findCurrent(holder, deps.clock.now());
}

/** Every certificate the CA issued to the holder, newest first. */
export const holderCertificates = (deps: AppDeps, holder: CertHolder): Promise<HolderCertificate[]> =>
  listHolderCertificates(deps.db, holder);

/** The serials of the holder's certificates still good at `at`. */
export const holderGoodSerials = (deps: AppDeps, holder: CertHolder, at: Date): Promise<string[]> =>
  listHolderGoodSerials(deps.db, holder, at);
