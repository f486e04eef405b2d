// Helpers of the integrator API tests: make keys through the workspace call, send /open/v1 requests.
import { type ApiKey, type ApiScope, createApiKey } from '#contract/calls/apikey.ts';
import type { Agent, TestApp } from '../helper.ts';

export type OpenAnswer<T = unknown> = {
  status: number;
  body: { code: number; msg: string; data: T };
  headers: Record<string, unknown>;
  raw: Buffer;
};

/** A key of the agent's current account (userType 0 person, 1 company). */
export async function makeKey(agent: Agent, scopes: ApiScope[], userType = 0, name = 'test key') {
  const res = await agent.call<ApiKey & { secret: string }>(createApiKey, { userType, name, scopes });
  if (res.body.code !== 0) throw new Error(`createApiKey: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** One request to /open/v1 with a key (or none). */
export async function open<T = unknown>(
  t: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<OpenAnswer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.inject({
    method,
    url: `/open/v1${path}`,
    headers,
    payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  let body: OpenAnswer<T>['body'];
  try {
    body = res.json();
  } catch {
    body = { code: Number.NaN, msg: '', data: null as T };
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.rawPayload };
}
