// /open/v1/openapi.json is an OpenAPI 3.1 document made from the routes' zod schemas: every route is in it
// with its scope and the API-key security scheme, every schema compiles as JSON Schema 2020-12, and the
// reference page lists every route.
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { OPEN_ROUTES } from '#server/open/index.ts';
import { appForFile } from '../helper.ts';

const t = appForFile();
let doc: {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  security: unknown[];
};

beforeAll(async () => {
  const res = await t.app.inject({ method: 'GET', url: '/open/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

const pathOf = (p: string) => `/open/v1${p.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

describe('openapi.json', () => {
  test('is OpenAPI 3.1 with a bearer API-key scheme required everywhere', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  test('passes the OpenAPI 3.1 schema (the specification’s own JSON Schema)', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The check can fail: a document with a broken operation does not pass.
    const broken = { ...doc, paths: { '/x': { get: { responses: 'none' } } } };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  test('lists every route with its scope, security and a unique operationId', () => {
    const ids = new Set<string>();
    expect(OPEN_ROUTES.length).toBeGreaterThanOrEqual(10);
    for (const route of OPEN_ROUTES) {
      const op = doc.paths[pathOf(route.path)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op['x-scope']).toBe(route.scope);
      expect(op.security).toEqual([{ apiKey: [] }]);
      expect(ids.has(route.operationId)).toBe(false);
      ids.add(route.operationId);
    }
    const launch = doc.paths['/open/v1/flows'].post as {
      requestBody: { content: { 'application/json': { schema: { oneOf?: unknown[]; anyOf?: unknown[] } } } };
      parameters: { $ref?: string }[];
    };
    const body = launch.requestBody.content['application/json'].schema;
    expect((body.oneOf ?? body.anyOf)?.length).toBe(2);
    expect(launch.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
  });

  test('every schema in it compiles as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let count = 0;
    const visit = (node: unknown, key = ''): void => {
      if (!node || typeof node !== 'object') return;
      if (key === 'schema' && !('$ref' in node)) {
        ajv.compile(node as object);
        count++;
        return;
      }
      for (const [k, v] of Object.entries(node)) visit(v, k);
    };
    visit(doc.paths);
    expect(count).toBeGreaterThan(20);
  });

  test('the reference page shows every route, and needs no script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/open/v1/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const route of OPEN_ROUTES) expect(res.body).toContain(pathOf(route.path));
    expect(res.body).not.toContain('<script');
  });
});
