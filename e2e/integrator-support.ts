import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { APP_ORIGIN } from './embedding-support.ts';
import { contractPdf } from './signing-support.ts';

// The integrator's server in the journeys (issue 13): /open/v1 with an API key, nothing else.

export type Api = <T>(method: 'GET' | 'POST', path: string, data?: object) => Promise<T>;

/** The integrator's server: /open/v1 with the key only. */
export const integratorApi =
  (page: Page, apiKey: string): Api =>
  async <T>(method: 'GET' | 'POST', path: string, data?: object) => {
    const res = await page.request.fetch(`${APP_ORIGIN}/open/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}` },
      ...(data ? { data } : {}),
    });
    const body = (await res.json()) as { code: number; data: T };
    expect(body.code, `${method} ${path}: ${JSON.stringify(body)}`).toBe(0);
    return body.data;
  };

/** Upload, launch to one person, read the party, ask for its embedded-signing URL: the integrator's steps. */
export async function launchEmbedded(api: Api, title: string, signer: { name: string; phone: string }) {
  const pdf = readFileSync(await contractPdf()).toString('base64');
  const { documentId } = await api<{ documentId: string }>('POST', '/documents', {
    filename: 'contract.pdf',
    contentBase64: pdf,
  });
  const { flowId } = await api<{ flowId: string }>('POST', '/flows', {
    from: 'documents',
    title,
    documentIds: [documentId],
    steps: [
      {
        parties: [
          {
            kind: 'person',
            name: signer.name,
            phone: signer.phone,
            intent: 'sms',
            positions: [{ documentId, keyword: 'Party B' }],
          },
        ],
      },
    ],
  });
  const detail = await api<{ steps: { parties: { partyId: string }[] }[] }>('GET', `/flows/${flowId}`);
  const partyId = detail.steps[0].parties[0].partyId;
  const { url } = await api<{ url: string }>('POST', `/flows/${flowId}/parties/${partyId}/signing-url`, {});
  expect(url).toContain('/#/embed/sign?code=');
  return { flowId, partyId, documentId, url };
}
