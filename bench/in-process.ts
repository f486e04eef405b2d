// The app in this process on a fresh embedded database (PGlite in memory, blobs in a temporary folder), driven
// through app.inject by Browsers (signers.ts): what the flow and bulk benches measure on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, createHooks, createJobs } from '#server/app.ts';
import { PerApp } from '#server/lib/per-app.ts';
import { loadConfig } from '#server/config.ts';
import { closeDatabase, openDatabase } from '#server/db/database.ts';
import { type AppDeps, systemClock } from '#server/deps.ts';
import { OutboxMessenger, listOutbox } from '#server/messaging/messenger.ts';
import { LocalBlobStore } from '#server/storage/local-blob-store.ts';
import { Browser, type SignerKit } from './signers.ts';

export type InProcessApp = {
  app: FastifyInstance;
  deps: AppDeps;
  jobs: ReturnType<typeof createJobs>;
  kit: SignerKit;
  close(): Promise<void>;
};

/** `env` overrides the configuration (a bench's own allowance, say). */
export async function inProcessApp(prefix: string, env: Record<string, string> = {}): Promise<InProcessApp> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    SMS_MAX_PER_IP_HOUR: '100000',
    SMS_MAX_PER_PHONE_HOUR: '1000',
    FREE_SIGNING_ALLOWANCE: '2000',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const log = pino({ level: 'silent' });
  const db = await openDatabase(config);
  const jobs = createJobs({ db, log, config });
  const deps: AppDeps = {
    config,
    db,
    storage: new LocalBlobStore(join(dataDir, 'blobs')),
    log,
    clock: systemClock,
    hooks: createHooks(),
    jobs,
    perApp: new PerApp(),
    messenger: new OutboxMessenger({ db, log, clock: systemClock, isProduction: false }),
  };
  const app = await buildApp(deps);
  await app.ready();
  const kit: SignerKit = {
    newBrowser: () =>
      new Browser(async ({ url, headers, cookies, payload }) => {
        const res = await app.inject({ method: 'POST', url, headers, cookies, payload });
        const set = res.headers['set-cookie'];
        return {
          status: res.statusCode,
          setCookies: (Array.isArray(set) ? set : set ? [set] : []) as string[],
          body: res.body,
        };
      }),
    code: async (phone, purpose) => {
      const hit = (await listOutbox(db, { to: phone, limit: 10 })).find(
        (m) => m.code && m.purpose === purpose,
      );
      if (!hit?.code) throw new Error(`no ${purpose} code for ${phone}`);
      return hit.code;
    },
  };
  return {
    app,
    deps,
    jobs,
    kit,
    async close() {
      await app.close();
      await jobs.stop();
      await closeDatabase(db);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
