import { describe, expect, it } from 'vitest';
import { allCalls } from '#contract/calls/index-of-calls.ts';
import { Code } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { appForFile } from './helper.ts';

const t = appForFile();

// The contract and the server cannot drift apart: every call the contract lists has a route that
// applies the transport rules (userType first, then the session for calls that need one).
describe('every call of the contract is served', () => {
  it.each(allCalls.map((def) => [def.name, def] as const))('%s', async (_name, def) => {
    const missing = await t.agent().call(callPath(def), {});
    expect(missing.status, `${callPath(def)} is not registered`).not.toBe(404);
    expect(missing.body.code).toBe(Code.UserTypeInvalid);
    if (def.auth) {
      const anon = await t.agent().call(callPath(def), { userType: 0 });
      expect(anon.body.code).toBe(Code.NotLoggedIn);
    }
  });

  it('OpenAPI documents every call', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    for (const def of allCalls) expect(doc.paths[callPath(def)]?.post, def.name).toBeDefined();
  });
});
