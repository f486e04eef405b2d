// The JavaScript helper (contract/open/client.ts) against the real app: its fetch goes through app.inject,
// so every request it builds (Bearer key, JSON body, Idempotency-Key, query) meets the real server.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { OpenApiError, type OpenClient, openClient } from '#contract/open/client.ts';
import { type TestApp, appForFile } from '../helper.ts';
import { type Signer, contractPdf, personWithCert } from '../fixtures/flow.ts';
import { makeKey } from '../fixtures/open.ts';

const t = appForFile();
let launcher: Signer;
let signer: Signer;
let client: OpenClient;

/** fetch over app.inject. */
const injectFetch = (app: TestApp['app']): typeof fetch =>
  (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: init?.headers as Record<string, string>,
      payload: init?.body as string | undefined,
    });
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: res.headers as Record<string, string>,
    });
  }) as typeof fetch;

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
  signer = await personWithCert(t, '李四', { seal: false });
  const key = await makeKey(launcher.agent, ['flows:read', 'flows:write', 'documents:read']);
  client = openClient({ baseUrl: 'http://esign.test', apiKey: key.secret, fetch: injectFetch(t.app) });
}, 120_000);

describe('the JavaScript helper', () => {
  test('uploads, launches once for one idempotency key, reads and downloads', async () => {
    const doc = await client.uploadDocument({ filename: 'contract.pdf', bytes: await contractPdf(1) });
    const body = {
      from: 'documents' as const,
      title: 'Client contract',
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person' as const,
              name: signer.name,
              phone: signer.phone,
              positions: [{ documentId: doc.documentId, keyword: 'Party B (signature):' }],
            },
          ],
        },
      ],
    };
    const idem = randomUUID();
    const first = await client.launchFlow(body, idem);
    const again = await client.launchFlow(body, idem);
    expect(again.flowId).toBe(first.flowId);
    expect((await client.listFlows({ status: 'signing' })).total).toBe(1);
    const flow = await client.getFlow(first.flowId);
    expect(flow.steps[0].parties[0].status).toBe('pending');
    const bytes = await client.downloadDocument(doc.documentId);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });

  test('a refusal is an OpenApiError with the code and the HTTP status', async () => {
    const err = await client.getFlow(randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenApiError);
    expect((err as OpenApiError).status).toBe(404);
    expect((err as OpenApiError).code).toBe(1101);
    const scope = await client.listTemplates().catch((e: unknown) => e);
    expect((scope as OpenApiError).status).toBe(403);
  });
});
