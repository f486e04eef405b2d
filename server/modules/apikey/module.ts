import { createApiKey, listApiKeys, revokeApiKey } from '#contract/calls/apikey.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import * as keys from './service.ts';

/** How often old idempotency records are pruned. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** API keys of the integrator API: the workspace's calls to create, list and revoke them. */
export const apiKeyModule: ServerModule = {
  name: 'apikey',
  register(app, deps) {
    registerCall(app, createApiKey, async ({ body, requireSession }) =>
      keys.create(deps, requireSession(), body),
    );
    registerCall(app, listApiKeys, async ({ requireSession }) => keys.list(deps, requireSession()));
    registerCall(app, revokeApiKey, async ({ body, requireSession }) =>
      keys.revoke(deps, requireSession(), body.keyId),
    );
    const timer = setInterval(() => {
      keys.pruneIdempotency(deps).catch((err) => deps.log.error({ err }, 'idempotency prune failed'));
    }, PRUNE_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
};
