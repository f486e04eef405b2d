// Test helper for server tests (fastify's demo test/helper.ts): a real app on a fresh database, driven
// through HTTP with app.inject, and a cookie-keeping agent that follows the client's transport rules. What
// the tests build on top of it (people, companies, flows, PDFs, stand-ins) is in ./fixtures/.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { scratchDatabase } from '../../scripts/scratch-database.ts';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import type { LoginInfo } from '#contract/calls/session.ts';
import { sendSmsCode, userRegister } from '#contract/calls/session.ts';
import { type CallDef, callPath } from '#contract/envelope.ts';
import {
  KEY_SUFFIX_HEADER,
  SESSION_COOKIE,
  TOKEN_COOKIE,
  XSRF_HEADER,
  keySuffixOf,
} from '#contract/transport.ts';
import { buildApp, createHooks, createJobs } from '#server/app.ts';
import { PerApp } from '#server/lib/per-app.ts';
import { loadConfig } from '#server/config.ts';
import { type Db, closeDatabase, openDatabase } from '#server/db/database.ts';
import type { AppDeps, Clock } from '#server/deps.ts';
import type { ServerModule } from '#server/modules/server-module.ts';
import { createMessenger } from '#server/messaging/create-messenger.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { openBlobStore } from '#server/storage/open-blob-store.ts';

export type TestClock = Clock & { advance(ms: number): void };

export type Envelope<T = unknown> = { code: number; msg: string; data: T };
export type CallResult<T = unknown> = {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
  /** Cookies the answer set (name -> value; '' when it cleared one). */
  setCookies: Record<string, string>;
};

export type TestApp = {
  app: FastifyInstance;
  deps: AppDeps;
  db: Db;
  clock: TestClock;
  /** A new browser: its own cookie jar, sending XSRF headers from its token cookie like src/api/http.ts. */
  agent(): Agent;
  /**
   * Runs the background jobs that are due by the test's clock, until none is (server/jobs): the cron sweeps
   * once, then every queued job whose time has come (retries included). Answers how many ran.
   */
  runDueJobs(): Promise<number>;
  /** The latest SMS code sent to a phone (for a purpose), read from the outbox. */
  smsCodeFor(phone: string, purpose?: string): Promise<string>;
  close(): Promise<void>;
};

/** Settings the tests run with; per-address limits are high because every inject comes from 127.0.0.1. */
const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  SMS_MAX_PER_IP_HOUR: '100000',
  LOGIN_MAX_PER_IP: '100000',
};

let phoneSeq = Math.floor(Math.random() * 90_000_000);
/** A phone number no other test of this process uses. */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `139${String(phoneSeq % 100_000_000).padStart(8, '0')}`;
}

/**
 * Where the test database lives: in-memory PGlite, or a fresh database on the PostgreSQL named by
 * TEST_DATABASE_URL (created here, dropped on close), so the same tests run on both engines.
 */
async function freshDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return { url: 'memory://', drop: async () => {} };
  return scratchDatabase(admin, `esign_test_${process.pid}`);
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: { modules?: ServerModule[] } = {},
): Promise<TestApp> {
  // A second app on the first one's database (DATABASE_URL given): two instances of one deployment.
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, drop: async () => {} }
    : await freshDatabaseUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-test-'));
  // The CA made once by global-setup.ts, copied rather than made again for every app; its keys are
  // sealed under the development master key, so a test that sets its own master key makes its own CA.
  const pkiTemplate = join(inject('pkiTemplateDir'), 'pki');
  if (existsSync(pkiTemplate) && !env.ESIGN_MASTER_KEY)
    cpSync(pkiTemplate, join(dataDir, 'pki'), { recursive: true });
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, DATABASE_URL: database.url, ...env });
  // Real time plus whatever the test moved it forward by.
  let offsetMs = 0;
  const clock: TestClock = {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
  const log = pino({ level: config.logLevel });
  const db = await openDatabase(config);
  // pg-boss on a clock of its own that runDueJobs sets to `clock`: nothing polls, nothing fires by itself.
  const jobs = createJobs({ db, log, config }, { extraModules: options.modules, manualClock: true });
  const deps: AppDeps = {
    config,
    db,
    storage: await openBlobStore(config),
    log,
    clock,
    hooks: createHooks(),
    jobs,
    perApp: new PerApp(),
    messenger: createMessenger({ config, db, log, clock, jobs }),
  };
  const app = await buildApp(deps, { extraModules: options.modules });
  await app.ready();
  return {
    app,
    deps,
    db,
    clock,
    agent: () => new Agent(app),
    runDueJobs: () => jobs.runDue(deps, clock.now()),
    smsCodeFor: async (phone, purpose) => {
      const messages = await listOutbox(db, { to: phone, limit: 20 });
      const hit = messages.find((m) => m.code && (!purpose || m.purpose === purpose));
      if (!hit?.code) throw new Error(`no SMS code in the outbox for ${phone}`);
      return hit.code;
    },
    close: async () => {
      await app.close();
      await jobs.stop();
      await closeDatabase(db);
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test file's app: created (with `env`) before the file's other beforeAll hooks run, closed after its
 * tests. Its members are read inside hooks and tests, never at the file's top level.
 */
export function appForFile(
  env: Record<string, string> = {},
  options: { modules?: ServerModule[] } = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(env, options);
  }, 120_000);
  afterAll(() => current?.close());
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!current) throw new Error('the test app is made in beforeAll: read it in a hook or a test');
      const value = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

function parseSetCookies(header: unknown): Record<string, string> {
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const out: Record<string, string> = {};
  for (const line of list as string[]) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = decodeURIComponent(pair.slice(eq + 1).trim());
    const isCleared = /max-age=0|expires=thu, 01 jan 1970/i.test(line);
    out[name] = isCleared ? '' : value;
  }
  return out;
}

/** One browser: keeps cookies; by default sends x-xsrf-token and keysuffix from its token cookie. */
export class Agent {
  readonly app: FastifyInstance;
  readonly cookies = new Map<string, string>();

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  get token(): string | undefined {
    return this.cookies.get(TOKEN_COOKIE);
  }

  get sid(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }

  /** POSTs a call. `xsrf: false` leaves the XSRF headers out; `headers` adds or overrides headers. */
  async call<T = unknown>(
    def: Pick<CallDef, 'name' | 'prefix'> | string,
    body: unknown,
    opts: {
      xsrf?: boolean;
      headers?: Record<string, string>;
      raw?: string | Buffer;
      contentType?: string;
    } = {},
  ): Promise<CallResult<T>> {
    const url = typeof def === 'string' ? def : callPath(def);
    const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
    const token = this.token;
    if (opts.xsrf !== false && token) {
      headers[XSRF_HEADER] = token;
      headers[KEY_SUFFIX_HEADER] = keySuffixOf(token);
    }
    Object.assign(headers, opts.headers);
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers,
      cookies: Object.fromEntries(this.cookies),
      payload: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    return this.absorb<T>(res);
  }

  /** POSTs a multipart form (text fields, then an optional `file` part) with the XSRF headers, like the client's uploads. */
  async upload<T = unknown>(
    url: string,
    fields: Record<string, string>,
    file?: { bytes: Uint8Array; filename?: string; type?: string },
    headers?: Record<string, string>,
  ): Promise<CallResult<T>> {
    const boundary = `----test${Math.random().toString(16).slice(2)}`;
    const parts: Buffer[] = [];
    for (const [k, v] of Object.entries(fields))
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    if (file) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'upload.bin'}"\r\n` +
            `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        Buffer.from(file.bytes),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return this.call<T>(url, undefined, {
      raw: Buffer.concat(parts),
      contentType: `multipart/form-data; boundary=${boundary}`,
      headers,
    });
  }

  async get<T = unknown>(url: string): Promise<CallResult<T> & { text: string }> {
    const res = await this.app.inject({ method: 'GET', url, cookies: Object.fromEntries(this.cookies) });
    return { ...this.absorb<T>(res), text: res.body };
  }

  private absorb<T>(res: {
    statusCode: number;
    body: string;
    headers: Record<string, unknown>;
  }): CallResult<T> {
    const setCookies = parseSetCookies(res.headers['set-cookie']);
    for (const [name, value] of Object.entries(setCookies)) {
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    let body: Envelope<T>;
    try {
      body = JSON.parse(res.body) as Envelope<T>;
    } catch {
      body = { code: Number.NaN, msg: res.body, data: null as T };
    }
    return { status: res.statusCode, body, headers: res.headers, setCookies };
  }
}

export const TEST_PASSWORD = 'Passw0rd-test';

/** Registers a new person through the real calls (SMS code read from the outbox); the agent is logged in. */
export async function registerAndLogin(
  t: TestApp,
  opts: { phone?: string; password?: string; agent?: Agent } = {},
): Promise<{ agent: Agent; phone: string; password: string; info: LoginInfo }> {
  const phone = opts.phone ?? uniquePhone();
  const password = opts.password ?? TEST_PASSWORD;
  const agent = opts.agent ?? t.agent();
  const sent = await agent.call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
  if (sent.body.code !== 0) throw new Error(`sendSmsCode failed: ${JSON.stringify(sent.body)}`);
  const smsCode = await t.smsCodeFor(phone, 'register');
  const reg = await agent.call<LoginInfo>(userRegister, { userType: 0, phone, password, smsCode });
  if (reg.body.code !== 0) throw new Error(`userRegister failed: ${JSON.stringify(reg.body)}`);
  return { agent, phone, password, info: reg.body.data };
}
