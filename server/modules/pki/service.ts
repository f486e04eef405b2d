import type { AppDeps } from '../../deps.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import { createPki, type Pki, prepareCa } from '../../pki/pki.ts';
import { DbCertRepository } from './queries.ts';

/** The app's PKI, started on first use (deps.perApp). */
const PKI = definePerAppSlot<Promise<Pki>>('pki');

/**
 * The one PKI of an app (kept in deps.perApp): started on first call (CA files in DATA_DIR/pki, certificate
 * rows in the database) and shared after. Other modules (certificates of accounts, signing) use this
 * rather than starting their own, so the CA is loaded once.
 */
export function pkiFor(deps: AppDeps): Promise<Pki> {
  return deps.perApp.get(PKI, () => {
    const pki = createPki({ ...caOptions(deps), repository: new DbCertRepository(deps.db) });
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
 * The CA files of DATA_DIR/pki made (first start) or checked before the app exists: server/serve.ts runs
 * it beside opening the database, so a fresh start's key generation overlaps the database's start.
 */
export function prepareCaFiles(deps: Pick<AppDeps, 'config' | 'clock' | 'log'>): Promise<void> {
  return prepareCa(caOptions(deps));
}
