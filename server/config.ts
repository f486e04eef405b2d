import { resolve } from 'node:path';
import { z } from 'zod';
import { type AliyunMarketSettings, loadCompanyCheckSettings } from './config/company-check.ts';
import { type RealIdentitySettings, loadRealIdentitySettings } from './config/identity.ts';
import { type PackageSettings, loadPackageSettings } from './config/package.ts';
import { type PartnerSettings, loadPartnerSettings } from './config/partner.ts';
import { type SmsSettings, loadSmsSettings } from './config/sms.ts';

/**
 * Every setting of the server, read from the environment once at start and validated.
 * A bad value stops the start with a message that names the variable (STYLE.md: fail early, say which).
 */

const zBool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');
const zInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const zOptionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const zEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: zInt(0, 65535).default(8080),
  /** Unset: 127.0.0.1 (this machine only) outside production, 0.0.0.0 (every interface) in production. */
  HOST: zOptionalString,
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: zOptionalString.pipe(z.url({ message: 'must be an absolute http(s) URL' }).optional()),
  /** Unset: embedded PGlite in DATA_DIR/pg. `memory://`: in-memory PGlite (tests). Otherwise a PostgreSQL URL. */
  DATABASE_URL: zOptionalString.refine(
    (v) => v === undefined || v === 'memory://' || /^postgres(ql)?:\/\//.test(v),
    'must be a postgres:// or postgresql:// URL, or memory://',
  ),
  ESIGN_MASTER_KEY: zOptionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must have at least 32 characters',
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: zInt(1024, 100 * 1024 * 1024).default(1024 * 1024),
  UPLOAD_LIMIT_MB: zInt(1, 2048).default(50),
  /**
   * Bytes of upload bodies all requests in flight may hold at once (HTTP 503 beyond, issue 23); unset: room
   * for two of the largest upload (a PDF of UPLOAD_LIMIT_MB as base64 through /open/v1/documents).
   */
  UPLOAD_BUDGET_MB: zInt(1, 65_536).optional(),
  /** Uploads one account or API key may have in flight at once (HTTP 429 beyond). */
  UPLOADS_PER_CALLER: zInt(1, 1000).default(4),
  /** Starter allowance: signings each account may launch without a package, may be 0 (server/modules/package). */
  FREE_SIGNING_ALLOWANCE: zInt(0, 1_000_000).default(10),
  SESSION_IDLE_MINUTES: zInt(1, 7 * 24 * 60).default(120),
  CACHE_TTL_MS: zInt(0, 60_000).default(2000),
  /** Most live sessions one user may hold; a further login ends the oldest (it then answers 3000). */
  SESSION_MAX_PER_USER: zInt(1, 100).default(5),
  /** Behind a load balancer: trust X-Forwarded-For for the client address (rate limits). */
  TRUST_PROXY: zBool.default(false),
  SMS_CODE_TTL_SECONDS: zInt(30, 3600).default(300),
  SMS_RESEND_SECONDS: zInt(0, 3600).default(60),
  /** Codes one phone may receive per hour. */
  SMS_MAX_PER_PHONE_HOUR: zInt(1, 10_000).default(10),
  /** Codes one client address may request per hour. */
  SMS_MAX_PER_IP_HOUR: zInt(1, 100_000).default(30),
  /** Wrong codes that lock a phone, and for how long. */
  SMS_MAX_WRONG: zInt(1, 100).default(5),
  SMS_LOCK_MINUTES: zInt(1, 24 * 60).default(15),
  /** Login attempts per client address per 15 minutes, and failed logins per phone per 15 minutes. */
  LOGIN_MAX_PER_IP: zInt(1, 100_000).default(100),
  LOGIN_MAX_FAILED_PER_PHONE: zInt(1, 1000).default(10),
  /** Flood guard: requests per minute per client address on /v1 (0 = off). */
  RATE_LIMIT_PER_MINUTE: zInt(0, 1_000_000).default(0),
  /** Integrator API (/open/v1): requests per minute per API key, counted in the database (all instances). */
  OPEN_API_RATE_PER_MINUTE: zInt(1, 1_000_000).default(600),
  S3_ENDPOINT: zOptionalString,
  S3_BUCKET: zOptionalString,
  S3_REGION: zOptionalString,
  S3_ACCESS_KEY_ID: zOptionalString,
  S3_SECRET_ACCESS_KEY: zOptionalString,
  S3_PREFIX: zOptionalString,
  /** Who may frame the app (CSP frame-ancestors), space-separated: partner platforms embed it. */
  FRAME_ANCESTORS: z.string().min(1).default("'self'"),
  /** Folder of the built client; served at / when it holds index.html. */
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  /** E-mail of notices: smtp:// or smtps:// with credentials; unset, no e-mail is sent. */
  SMTP_URL: zOptionalString.refine(
    (v) => v === undefined || /^smtps?:\/\//.test(v),
    'must be an smtp:// or smtps:// URL',
  ),
  /** The sender of every e-mail, e.g. "e-Sign <no-reply@example.com>"; required with SMTP_URL. */
  MAIL_FROM: zOptionalString,
  /** Seconds between a job worker's polls of its queue (server/jobs); unset: 2 on PostgreSQL, 5 on PGlite. */
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(300).optional(),
  /**
   * Seconds after which a running job whose instance stopped refreshing it (killed) is failed and retried
   * elsewhere (pg-boss heartbeat; at least 10). A worker refreshes every half of it.
   */
  JOBS_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /**
   * Webhook URLs may be http and name loopback or private addresses (development, tests, e2e); unset: on
   * outside production, off in production (https to public addresses only; server/modules/webhook).
   */
  WEBHOOK_ALLOW_LOCAL: zBool.optional(),
  /** Seconds between the passes of the job supervisor (stale heartbeats, expiry) in each instance. */
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Development providers production may run with on purpose, comma-separated variable names. */
  ALLOW_DEVELOPMENT_PROVIDERS: zOptionalString,
  /** Identity checks (real name, face): Tencent Cloud faceid, Aliyun cloudauth, or the development one. */
  IDENTITY_PROVIDER: z.enum(['development', 'tencent', 'aliyun']).default('development'),
  /** Production refuses to start with the development identity provider unless this is set. */
  ALLOW_DEV_IDENTITY_PROVIDER: zBool.default(false),
  /** An ID number the development provider refuses, to show a failed check (a well-formed test number). */
  DEV_IDENTITY_REJECT_ID: z
    .string()
    .regex(/^\d{17}[\dX]$/, 'must be an 18-character ID number')
    .default('110101199003070011'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** Cookies get `Secure` when the public address is https. */
  isSecureCookies: boolean;
  database: { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };
  /** Undefined only in development/test; the PKI derives its key-encryption key from it. */
  masterKey: string | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  /** Bytes of upload bodies in flight in this process at most (UPLOAD_BUDGET_MB; server/http/upload-budget.ts). */
  uploadBudgetBytes: number;
  /** Uploads in flight per account or API key at most (UPLOADS_PER_CALLER). */
  uploadsPerCaller: number;
  freeSigningAllowance: number;
  sessionIdleMs: number;
  /** How long a cached session or login info may answer without a write seen here (0: no cache). */
  cacheTtlMs: number;
  sessionMaxPerUser: number;
  trustProxy: boolean;
  sms: {
    codeTtlSeconds: number;
    resendSeconds: number;
    maxPerPhoneHour: number;
    maxPerIpHour: number;
    maxWrong: number;
    lockMinutes: number;
  };
  login: { maxPerIp: number; maxFailedPerPhone: number };
  rateLimitPerMinute: number;
  /** Requests per minute per API key on /open/v1 (OPEN_API_RATE_PER_MINUTE). */
  openApiRatePerMinute: number;
  s3:
    | {
        endpoint: string;
        bucket: string;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        prefix: string;
      }
    | undefined;
  frameAncestors: string[];
  clientDir: string;
  /** Partner platforms and the central user centre (server/config/partner.ts). */
  partners: PartnerSettings;
  /** Packages, orders, payment notes, platform administrators (server/config/package.ts). */
  packages: PackageSettings;
  /** The SMS gateway (server/providers/sms): the development outbox or a real provider. */
  smsGateway: SmsSettings;
  /** SMTP for e-mailed notices; undefined: notices are not e-mailed. */
  mail: { url: string; from: string } | undefined;
  /**
   * Background jobs (server/jobs): seconds between a worker's polls of its queue; a running job's
   * heartbeat window (a killed instance's job is retried after it); the supervisor's pass interval.
   */
  jobs: { pollSeconds: number; heartbeatSeconds: number; superviseSeconds: number };
  /** Webhooks: whether URLs may be http or reach loopback/private addresses (never by default in production). */
  webhooks: { allowLocal: boolean };
  /** Variables (SMS_PROVIDER, IDENTITY_PROVIDER) whose development provider production may use. */
  allowDevelopmentProviders: string[];
  identity: {
    provider: 'development' | 'tencent' | 'aliyun';
    allowDevInProduction: boolean;
    devRejectIdNumber: string;
    /** IDENTITY_* of the real provider (server/config/identity.ts). */
    real?: RealIdentitySettings;
  };
  /** COMPANY_CHECK_PROVIDER=aliyun-market: the business-register check (server/providers/company). */
  companyCheck?: AliyunMarketSettings;
};

export class ConfigError extends Error {}

/**
 * The largest body of an upload: a PDF of `uploadLimitBytes` as base64 in the JSON of
 * `POST /open/v1/documents` (4/3 of its size, with room for line breaks) plus the other fields.
 */
export const largestUploadBodyBytes = (uploadLimitBytes: number): number =>
  Math.ceil(uploadLimitBytes * 1.4) + 4096;

/** Reads and validates the settings; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = zEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction && !e.ESIGN_MASTER_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  ESIGN_MASTER_KEY: required in production (at least 32 characters); it encrypts the private keys at rest',
    );
  }
  if (e.S3_ENDPOINT) {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !e[k]);
    if (missing.length > 0)
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((k) => `  ${k}: required when S3_ENDPOINT is set`).join('\n')}`,
      );
    if (!/^https?:\/\//.test(e.S3_ENDPOINT))
      throw new ConfigError('Invalid configuration:\n  S3_ENDPOINT: must be an http(s) URL');
  }
  const partners = loadPartnerSettings(env, isProduction);
  if (!partners.ok)
    throw new ConfigError(`Invalid configuration:\n${partners.issues.map((i) => `  ${i}`).join('\n')}`);
  const smsGateway = loadSmsSettings(env);
  if (!smsGateway.ok)
    throw new ConfigError(`Invalid configuration:\n${smsGateway.issues.map((i) => `  ${i}`).join('\n')}`);
  if (e.SMTP_URL && !e.MAIL_FROM)
    throw new ConfigError('Invalid configuration:\n  MAIL_FROM: required when SMTP_URL is set');
  const identityIssues: string[] = [];
  const realIdentity =
    e.IDENTITY_PROVIDER === 'development'
      ? undefined
      : loadRealIdentitySettings(env, e.IDENTITY_PROVIDER, identityIssues);
  const companyCheck = loadCompanyCheckSettings(env, identityIssues);
  if (identityIssues.length)
    throw new ConfigError(`Invalid configuration:\n${identityIssues.map((i) => `  ${i}`).join('\n')}`);
  const uploadLimitBytes = e.UPLOAD_LIMIT_MB * 1024 * 1024;
  const largestUpload = largestUploadBodyBytes(uploadLimitBytes);
  const uploadBudgetBytes = e.UPLOAD_BUDGET_MB ? e.UPLOAD_BUDGET_MB * 1024 * 1024 : 2 * largestUpload;
  if (uploadBudgetBytes < largestUpload)
    throw new ConfigError(
      `Invalid configuration:\n  UPLOAD_BUDGET_MB: must be at least ${Math.ceil(largestUpload / 1024 / 1024)}, room for one upload of UPLOAD_LIMIT_MB (${e.UPLOAD_LIMIT_MB}) as base64`,
    );
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const packages = loadPackageSettings(env, publicUrl);
  if (!packages.ok)
    throw new ConfigError(`Invalid configuration:\n${packages.issues.map((i) => `  ${i}`).join('\n')}`);
  let database: Config['database'];
  if (e.DATABASE_URL === undefined) database = { kind: 'pglite', dataDir: resolve(dataDir, 'pg') };
  else if (e.DATABASE_URL === 'memory://') database = { kind: 'pglite', dataDir: null };
  else database = { kind: 'postgres', url: e.DATABASE_URL };

  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    // Development listens on this machine only: its outbox hands out SMS codes (issue 16).
    host: e.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    publicUrl,
    isSecureCookies: publicUrl.startsWith('https://'),
    database,
    masterKey: e.ESIGN_MASTER_KEY,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadLimitBytes,
    uploadBudgetBytes,
    uploadsPerCaller: e.UPLOADS_PER_CALLER,
    freeSigningAllowance: e.FREE_SIGNING_ALLOWANCE,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    cacheTtlMs: e.CACHE_TTL_MS,
    sessionMaxPerUser: e.SESSION_MAX_PER_USER,
    trustProxy: e.TRUST_PROXY,
    // The embedded database is one connection that requests share: its workers poll less often.
    jobs: {
      pollSeconds: e.JOBS_POLL_SECONDS ?? (database.kind === 'pglite' ? 5 : 2),
      heartbeatSeconds: e.JOBS_HEARTBEAT_SECONDS,
      superviseSeconds: e.JOBS_SUPERVISE_SECONDS,
    },
    webhooks: { allowLocal: e.WEBHOOK_ALLOW_LOCAL ?? !isProduction },
    sms: {
      codeTtlSeconds: e.SMS_CODE_TTL_SECONDS,
      resendSeconds: e.SMS_RESEND_SECONDS,
      maxPerPhoneHour: e.SMS_MAX_PER_PHONE_HOUR,
      maxPerIpHour: e.SMS_MAX_PER_IP_HOUR,
      maxWrong: e.SMS_MAX_WRONG,
      lockMinutes: e.SMS_LOCK_MINUTES,
    },
    login: { maxPerIp: e.LOGIN_MAX_PER_IP, maxFailedPerPhone: e.LOGIN_MAX_FAILED_PER_PHONE },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    openApiRatePerMinute: e.OPEN_API_RATE_PER_MINUTE,
    s3: e.S3_ENDPOINT
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION ?? 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          // A folder inside the bucket: always ends with '/' when set.
          prefix: e.S3_PREFIX ? `${e.S3_PREFIX.replace(/^\/+|\/+$/g, '')}/` : '',
        }
      : undefined,
    frameAncestors: e.FRAME_ANCESTORS.split(/\s+/).filter(Boolean),
    clientDir: resolve(e.CLIENT_DIR),
    partners: partners.value,
    packages: packages.value,
    identity: {
      provider: e.IDENTITY_PROVIDER,
      allowDevInProduction: e.ALLOW_DEV_IDENTITY_PROVIDER,
      devRejectIdNumber: e.DEV_IDENTITY_REJECT_ID,
      real: realIdentity,
    },
    smsGateway: smsGateway.value,
    mail: e.SMTP_URL && e.MAIL_FROM ? { url: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    allowDevelopmentProviders: (e.ALLOW_DEVELOPMENT_PROVIDERS ?? '')
      .split(/[\s,]+/)
      .map((v) => v.trim().toUpperCase())
      .filter(Boolean),
    companyCheck,
  };
}
