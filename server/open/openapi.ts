// The OpenAPI 3.1 document of the integrator API, built from the routes' own zod schemas (z.toJSONSchema,
// JSON Schema 2020-12, which OpenAPI 3.1 uses as is): what is documented is what is validated.
import { z } from 'zod';
import { API_KEY_SECRET_PREFIX, API_SCOPES } from '#contract/calls/apikey.ts';
import { Code } from '#contract/codes.ts';
import { OPEN_STATUS_OF_CODE } from './errors.ts';
import { IDEMPOTENT_REPLAY_HEADER, OPEN_PREFIX, type OpenRoute } from './route.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** `/flows/:flowId` -> `/flows/{flowId}`. */
const openApiPath = (path: string) => `${OPEN_PREFIX}${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

function parametersOf(route: OpenRoute): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

const ERROR_DESCRIPTION =
  'Every answer is `{code, msg, data}`: `code` 0 is success, any other code is a stable refusal code ' +
  '(listed in the Error schema) with `msg` in the language of Accept-Language (zh* Chinese, else English).';

const codeTable = () =>
  Object.entries(Code)
    .map(
      ([name, code]) =>
        `${code} ${name}${OPEN_STATUS_OF_CODE[code] ? ` (HTTP ${OPEN_STATUS_OF_CODE[code]})` : ''}`,
    )
    .join('; ');

/** The whole document. */
export function buildOpenApi(routes: readonly OpenRoute[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const isPost = route.method === 'POST';
    const ok = route.pdf
      ? {
          description: 'The PDF file.',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        }
      : {
          description: 'Success: `{code: 0, msg: "success", data}`.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['code', 'msg', 'data'],
                properties: {
                  code: { const: 0 },
                  msg: { type: 'string' },
                  data: jsonSchema(route.response, 'output'),
                },
              },
            },
          },
        };
    const errorRef = (description: string) => ({
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: `${route.description ? `${route.description}\n\n` : ''}Scope: \`${route.scope}\`.`,
      'x-scope': route.scope,
      security: [{ apiKey: [] }],
      parameters: [
        ...parametersOf(route),
        ...(isPost ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ],
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [String(route.status ?? 200)]: ok,
        '400': errorRef('The request failed its schema (code 1001; msg names the field).'),
        '401': errorRef('No API key, or an unknown or revoked one (code 2101).'),
        '403': errorRef(
          `The key lacks the scope ${route.scope} (code 2102), or the account may not do this.`,
        ),
        '404': errorRef('Not found, or not visible to the key’s account (code 1101).'),
        ...(isPost
          ? {
              '409': errorRef('The first request with this Idempotency-Key is still running (code 2104).'),
              '422': errorRef(
                'A business rule refused the request (code 1100 or a domain code), or the Idempotency-Key ' +
                  'was used with another request (code 2103).',
              ),
            }
          : { '422': errorRef('A business rule refused the request (code 1100 or a domain code).') }),
        '429': errorRef(
          route.upload
            ? 'Too many requests for this key, or too many of its uploads at once (code 1005); see Retry-After.'
            : 'Too many requests for this key (code 1005); see Retry-After.',
        ),
        ...(route.upload
          ? {
              '413': errorRef('The body is larger than the upload limit allows (code 1003).'),
              '503': errorRef(
                'The server is receiving too many uploads at once (code 1005); see Retry-After.',
              ),
            }
          : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-signature integrator API',
      version: '1',
      description:
        'Launch and follow signing flows from a partner server. Authenticate with an API key made on the ' +
        `workspace's API keys screen: \`Authorization: Bearer ${API_KEY_SECRET_PREFIX}…\`. A key acts as its ` +
        'account (a person, or a company) and sees exactly what that account sees; each route needs one scope ' +
        `(${API_SCOPES.join(', ')}). Requests per key are limited per minute (HTTP 429 with Retry-After). ` +
        'Every POST accepts an `Idempotency-Key` header: the same key with the same request gets the first ' +
        `answer again (header \`${IDEMPOTENT_REPLAY_HEADER}: true\`) for 24 hours; with another request, 422. ${ERROR_DESCRIPTION}`,
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${API_KEY_SECRET_PREFIX}…`,
          description: 'An API key secret, shown once when the key is made.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Any 1–200 visible ASCII characters (a UUID is a good choice). The first answer is kept 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'msg', 'data'],
          description: `${ERROR_DESCRIPTION} Codes: ${codeTable()}.`,
          properties: {
            code: { type: 'integer', description: 'Stable refusal code.' },
            msg: { type: 'string', description: 'What went wrong, for a person.' },
            data: {
              type: ['object', 'null'],
              description: 'null, or details of some refusals (e.g. `{retryAfterSeconds}` of a 429).',
            },
          },
        },
      },
    },
    security: [{ apiKey: [] }],
  };
}
