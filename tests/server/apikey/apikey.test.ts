// API keys through the workspace calls: a person's and a company administrator's keys, the secret shown
// once and stored only as a hash, revocation, and refusals for operators and other accounts.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { type ApiKey, createApiKey, listApiKeys, revokeApiKey } from '#contract/calls/apikey.ts';
import { switchAccount } from '#contract/calls/company.ts';
import { inviteAndAccept, openCompany, person } from '../fixtures/company.ts';
import { type Agent, appForFile } from '../helper.ts';

type Created = ApiKey & { secret: string };

const t = appForFile();
let alice: Agent;
let admin: Agent;
let operator: Agent;

beforeAll(async () => {
  alice = (await person(t)).agent;
  const adminPerson = await person(t);
  admin = adminPerson.agent;
  const company = await openCompany(t, adminPerson);
  const op = await person(t);
  operator = op.agent;
  await inviteAndAccept(admin, op);
  const sw = await operator.call(switchAccount, { userType: 0, targetUserType: 1, companyId: company.id });
  expect(sw.body.code).toBe(0);
}, 60_000);

describe('API keys', () => {
  test('a person creates a key: the secret once, then only its prefix; the table holds only a hash', async () => {
    const res = await alice.call<Created>(createApiKey, {
      userType: 0,
      name: 'ERP',
      scopes: ['flows:read', 'flows:write'],
    });
    expect(res.body.code).toBe(0);
    const key = res.body.data;
    expect(key.secret).toMatch(/^esk_live_[A-Za-z0-9_-]{32}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBe('esk_live_'.length + 4);
    expect(key.lastUsedAt).toBeNull();

    const listed = await alice.call<{ list: (ApiKey & { secret?: string })[] }>(listApiKeys, { userType: 0 });
    expect(listed.body.data.list.map((k) => k.keyId)).toEqual([key.keyId]);
    expect(listed.body.data.list[0].secret).toBeUndefined();
    expect(listed.body.data.list[0].scopes).toEqual(['flows:read', 'flows:write']);

    const stored = (await t.db.execute(sql`SELECT * FROM api_keys WHERE id = ${key.keyId}`)) as {
      rows: unknown[];
    };
    const text = JSON.stringify(stored.rows);
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain(key.secret.slice(9));
  });

  test('a company key is made by its administrator; an operator is refused (602)', async () => {
    const made = await admin.call<Created>(createApiKey, {
      userType: 1,
      name: 'Partner',
      scopes: ['templates:read'],
    });
    expect(made.body.code).toBe(0);
    const listed = await admin.call<{ list: ApiKey[] }>(listApiKeys, { userType: 1 });
    expect(listed.body.data.list.map((k) => k.name)).toEqual(['Partner']);

    const refused = await operator.call(createApiKey, { userType: 1, name: 'Mine', scopes: ['flows:read'] });
    expect(refused.status).toBe(602);
    expect((await operator.call(listApiKeys, { userType: 1 })).status).toBe(602);
  });

  test('revoking: another account’s key is not found; a revoked key shows when it was revoked', async () => {
    const made = await alice.call<Created>(createApiKey, {
      userType: 0,
      name: 'Old',
      scopes: ['flows:read'],
    });
    const keyId = made.body.data.keyId;
    const foreign = await admin.call(revokeApiKey, { userType: 1, keyId });
    expect(foreign.body.code).toBe(1101);

    const revoked = await alice.call<ApiKey>(revokeApiKey, { userType: 0, keyId });
    expect(revoked.body.code).toBe(0);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    const again = await alice.call(revokeApiKey, { userType: 0, keyId });
    expect(again.body.code).toBe(1100);
    const listed = await alice.call<{ list: ApiKey[] }>(listApiKeys, { userType: 0 });
    expect(listed.body.data.list.find((k) => k.keyId === keyId)?.revokedAt).not.toBeNull();
  });

  test('a key needs a name and at least one known scope', async () => {
    const none = await alice.call(createApiKey, { userType: 0, name: 'x', scopes: [] });
    expect(none.body.code).toBe(1001);
    const unknown = await alice.call(createApiKey, { userType: 0, name: 'x', scopes: ['admin:all'] });
    expect(unknown.body.code).toBe(1001);
  });
});
