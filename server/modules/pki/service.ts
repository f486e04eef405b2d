import type { AppDeps } from '../../deps.ts';
import { createPki, type Pki } from '../../pki/pki.ts';
import { DbCertRepository } from './queries.ts';

const instances = new WeakMap<AppDeps, Promise<Pki>>();

/**
 * The one PKI of an app (per AppDeps): started on first call (CA files in DATA_DIR/pki, certificate
 * rows in the database) and shared after. Other modules (certificates of accounts, signing) use this
 * rather than starting their own, so the CA is loaded once.
 */
export function pkiFor(deps: AppDeps): Promise<Pki> {
  let pki = instances.get(deps);
  if (!pki) {
    pki = createPki({
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
    instances.set(deps, pki);
    // A failed start must not be cached: the next call tries again (and reports its own error).
    pki.catch(() => instances.delete(deps));
  }
  return pki;
}
