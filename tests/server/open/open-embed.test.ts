// Embedded signing through the integrator API: the flow's initiator asks for a party's signing URL; the URL's
// one-time code opens that party's room without a login (an anonymous browser, as inside a partner's
// iframe), bound to the party's phone, whose SMS code still confirms the signature. Refusals: no key, another
// account's key (404), a party that cannot sign now (409), a code spent or expired (1312).
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type FlowDetail,
  type RoomLogin,
  getSigningRoom,
  signingRoomLoginByEmbed,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { appForFile } from '../helper.ts';
import { type Signer, contractPdf, ok, personWithCert, sign } from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';

const t = appForFile();
let launcher: Signer;
let first: Signer;
let second: Signer;
let key: string;
let otherKey: string;
let flowId: string;
let firstPartyId: string;
let secondPartyId: string;

const codeOf = (url: string) => new URLSearchParams(url.split('?')[1]).get('code')!;

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
  first = await personWithCert(t, '李四');
  second = await personWithCert(t, '赵六');
  const other = await personWithCert(t, '王五', { seal: false, cert: false });
  key = (await makeKey(launcher.agent, ['flows:read', 'flows:write'])).secret;
  otherKey = (await makeKey(other.agent, ['flows:read', 'flows:write'])).secret;
  const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
    key: (await makeKey(launcher.agent, ['flows:write'])).secret,
    body: { filename: '合同.pdf', contentBase64: Buffer.from(await contractPdf(1)).toString('base64') },
  });
  const documentId = up.body.data.documentId;
  const party = (s: Signer) => ({
    kind: 'person',
    name: s.name,
    phone: s.phone,
    intent: 'sms',
    positions: [{ documentId, keyword: 'Party B (signature):' }],
  });
  const launched = await open<{ flowId: string }>(t, 'POST', '/flows', {
    key,
    body: {
      from: 'documents',
      title: '嵌入签署',
      documentIds: [documentId],
      steps: [{ parties: [party(first)] }, { parties: [party(second)] }],
    },
  });
  expect(launched.status).toBe(201);
  flowId = launched.body.data.flowId;
  const detail = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key });
  firstPartyId = detail.body.data.steps[0].parties[0].partyId;
  secondPartyId = detail.body.data.steps[1].parties[0].partyId;
}, 180_000);

const signingUrl = (partyId: string, k?: string, body: object = {}) =>
  open<{ url: string; expiresAt: string }>(t, 'POST', `/flows/${flowId}/parties/${partyId}/signing-url`, {
    key: k,
    body,
  });

describe('the signing URL', () => {
  test('is refused without a key (401) and to another account (404, no data)', async () => {
    expect((await signingUrl(firstPartyId)).status).toBe(401);
    const other = await signingUrl(firstPartyId, otherKey);
    expect(other.status).toBe(404);
    expect(other.body.data).toBeNull();
  });

  test('is refused for a party whose turn has not come (409)', async () => {
    const res = await signingUrl(secondPartyId, key);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(Code.NotYourTurn);
  });

  test('opens the room once, without a login, and the party signs with an SMS code to its phone', async () => {
    const res = await signingUrl(firstPartyId, key, { fromPtCode: 'ZYPT' });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toMatch(/\/#\/embed\/sign\?code=[\w-]{40,}&fromPtCode=ZYPT$/);
    const code = codeOf(res.body.data.url);

    const browser = t.agent(); // no session: the partner's iframe
    const room = ok(
      await browser.call<RoomLogin>(signingRoomLoginByEmbed, { userType: 0, embedCode: code }),
      'embed login',
    );
    expect(room).toMatchObject({ flowId, partyId: firstPartyId });
    ok(await browser.call(getSigningRoom, { userType: 0, roomToken: room.roomToken }), 'room');

    const again = await t.agent().call(signingRoomLoginByEmbed, { userType: 0, embedCode: code });
    expect(again.body.code).toBe(Code.LinkInvalid);

    const signed = ok(await sign(t, browser, room, first.phone, { personSealId: first.sealId! }), 'sign');
    expect(signed.partyStatus).toBe('signed');
    const detail = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key });
    expect(detail.body.data.steps[0].parties[0].status).toBe('signed');
  });

  test('a URL not opened within 10 minutes no longer opens; a signed party gets none (409)', async () => {
    const res = await signingUrl(secondPartyId, key);
    expect(res.status).toBe(201);
    t.clock.advance(10 * 60 * 1000 + 1000);
    const late = await t
      .agent()
      .call(signingRoomLoginByEmbed, { userType: 0, embedCode: codeOf(res.body.data.url) });
    expect(late.body.code).toBe(Code.LinkInvalid);
    expect((await signingUrl(firstPartyId, key)).body.code).toBe(Code.AlreadySigned);
  });
});
