import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.ts';
import { Hooks } from './lib/hooks.ts';
import type { Db } from './db/database.ts';
import { type AnyJobDefinition, Jobs } from './jobs/pg-boss-jobs.ts';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installTransport } from './http/session-gate.ts';
import { OPEN_PREFIX, registerOpenApi } from './open/index.ts';
import { approvalModule } from './modules/approval/module.ts';
import { certModule } from './modules/cert/module.ts';
import { companyModule } from './modules/company/module.ts';
import { devModule } from './modules/dev/module.ts';
import { documentModule } from './modules/document/module.ts';
import { flowModule } from './modules/flow/module.ts';
import { monitorModule } from './modules/monitor/module.ts';
import { packageModule } from './modules/package/module.ts';
import type { ServerModule } from './modules/server-module.ts';
import { personModule } from './modules/person/module.ts';
import { partnerModule } from './modules/partner/module.ts';
import { frameAncestorsOf } from './modules/platform/index.ts';
import { platformModule } from './modules/platform/module.ts';
import { pkiModule } from './modules/pki/module.ts';
import { sealModule } from './modules/seal/module.ts';
import { sessionModule } from './modules/session/module.ts';
import { verifyModule } from './modules/verify/module.ts';
import { signConfigModule } from './modules/sign-config/module.ts';
import { templateModule } from './modules/template/module.ts';
import { messagingModule } from './modules/messaging/module.ts';
import { apiKeyModule } from './modules/apikey/module.ts';
import { webhookModule } from './modules/webhook/module.ts';
import { authorisationModule } from './modules/authorisation/module.ts';
import { bulkModule } from './modules/bulk/module.ts';

/**
 * The server's domains, in registration order. A new domain adds ONE line here, e.g.
 *   pkiModule,   // import { pkiModule } from './modules/pki/module.ts';
 */
const modules: readonly ServerModule[] = [
  monitorModule,
  sessionModule,
  pkiModule,
  personModule,
  sealModule,
  companyModule,
  partnerModule,
  platformModule,
  documentModule,
  approvalModule,
  flowModule,
  certModule,
  verifyModule,
  packageModule,
  signConfigModule,
  templateModule,
  messagingModule,
  apiKeyModule,
  authorisationModule,
  webhookModule,
  bulkModule,
  devModule,
];

/**
 * The hooks of one app (lib/hooks.ts) with every module's listeners, in the modules' order. Whoever builds
 * AppDeps (serve.ts, the test helper, scripts) calls this once, so that services called without HTTP
 * (scripts, benches) tell the same listeners.
 */
export function createHooks(extraModules: readonly ServerModule[] = []): Hooks {
  const hooks = new Hooks();
  for (const module of [...modules, ...extraModules]) module.listen?.(hooks);
  return hooks;
}

/**
 * The job system of one app with every module's job definitions (server/jobs). Whoever builds AppDeps
 * calls it once, like createHooks; serve.ts starts the workers after listen, tests run due jobs by hand
 * (`manualClock`: pg-boss follows the test's clock).
 */
export function createJobs(
  deps: { db: Db; log: Logger; config: Pick<Config, 'jobs'> },
  options: { extraModules?: readonly ServerModule[]; manualClock?: boolean } = {},
): Jobs<AppDeps> {
  const definitions: AnyJobDefinition<AppDeps>[] = [];
  for (const module of [...modules, ...(options.extraModules ?? [])])
    definitions.push(...(module.jobs ?? []));
  return new Jobs(deps, definitions, { ...deps.config.jobs, manualClock: options.manualClock });
}

/**
 * Builds the HTTP app from its deps without listening: serve.ts listens, tests use app.inject.
 * `extraModules` (tests) are registered after the product's own.
 */
export async function buildApp(
  deps: AppDeps,
  options: { extraModules?: readonly ServerModule[] } = {},
): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Request start/end lines only when debugging; refusals and failures are logged by the error handler.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  installTransport(app);
  installErrorHandling(app, ['/v1', OPEN_PREFIX]);

  await app.register(fastifyCookie);
  const isHttps = config.isSecureCookies;
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // pdf.js may compile WebAssembly decoders; no eval otherwise.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // pdf.js runs its worker from a same-origin asset or a blob: URL.
        workerSrc: ["'self'", 'blob:'],
        // antd writes its CSS-in-JS styles inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'blob:', 'data:'],
        frameSrc: ["'self'", 'blob:'],
        formAction: ["'self'"],
        // Partner platforms embed the product (SPEC §1): 'self', FRAME_ANCESTORS and every PARTNER_<CODE>_ORIGINS.
        frameAncestors: frameAncestorsOf(config),
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // frame-ancestors above decides who may frame the app; X-Frame-Options cannot express a list.
    frameguard: false,
    strictTransportSecurity: isHttps ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  });
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 10, fields: 50, fieldSize: config.bodyLimitBytes },
  });
  if (config.rateLimitPerMinute > 0) {
    await app.register(fastifyRateLimit, { max: config.rateLimitPerMinute, timeWindow: 60_000 });
  }

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'E-signature platform API',
        version: '1',
        description:
          'Every call is a POST with a JSON body answered with HTTP 200 and {code, msg, data}; code 0 is success. ' +
          'Session codes: 2000 not logged in, 3000 logged in elsewhere, 4000 account disabled; HTTP 601 session ' +
          'timed out, 602 no permission. With a session, send the token cookie in x-xsrf-token and keySuffixOf(token) in keysuffix.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', staticCSP: false });

  for (const module of [...modules, ...(options.extraModules ?? [])]) {
    await app.register(async (scope) => module.register(scope, deps));
  }
  // The integrator REST API (/open/v1, API keys; server/open/), built on the modules' index.ts.
  await registerOpenApi(app, deps);

  if (existsSync(join(config.clientDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      prefix: '/',
      index: ['index.html'],
      // The build writes .br and .gz beside each file (vite.config.ts): sent when the browser accepts them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, path) {
        // Vite names built assets by content hash: they never change and may be cached for a year.
        if (/[/\\]assets[/\\]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else if (/\.html(\.(br|gz))?$/.test(path)) res.header('cache-control', 'no-cache');
        else res.header('cache-control', 'public, max-age=3600');
      },
    });
  }
  return app;
}
