import type { AppDeps } from '../../deps.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import { createPki, type Pki } from '../../pki/pki.ts';
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
    const pki = createPki({
      dataDir: deps.config.dataDir,
      publicUrl: deps.config.publicUrl,
      masterKey: deps.config.masterKey,
      isProduction: deps.config.isProduction,
      repository: new DbCertRepository(deps.db),
      now: () => deps.clock.now(),
      log: {
        info: (msg) => deps.log.info(msg),
        warn: (msg) => deps.log.warn(msg),
        error: (err, msg) => deps.log.error({ err }, msg),
      },
    });
    // A failed start must not be kept: the next call tries again (and reports its own error). The failure
    // itself reaches whoever awaits `pki`; this branch only forgets it.
    pki.catch(() => deps.perApp.delete(PKI));
    return pki;
  });
}
