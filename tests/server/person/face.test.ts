import { describe, expect, it } from 'vitest';
import { getFaceAuthResult, getPersonalDetails, startFaceAuth } from '#contract/calls/person.ts';
import { Code } from '#contract/codes.ts';
import { type Agent, registerAndLogin, appForFile } from '../helper.ts';
import { passRealName } from '../fixtures/person.ts';

const t = appForFile();

type Started = { url: string; personCode: string };
type Result = { result: string; openFlag: string; signUrl: string | null; businessCode: string | null };

/** The provider's page URL carries the two return routes; the token is their 4th/5th path segment. */
function routesOf(started: Started) {
  const query = new URL(started.url, 'http://x').searchParams;
  return { passed: query.get('passed')!, failed: query.get('failed')! };
}
const tokenOfOpenAccountRoute = (route: string) => route.split('/').at(-1)!;

async function start(agent: Agent, body: Record<string, unknown>) {
  const res = await agent.call<Started>(startFaceAuth, { userType: 0, ...body });
  expect(res.body.code).toBe(0);
  return res.body.data;
}

/** Presses a button of the development provider's page (a form POST, like the browser). */
async function pressDevButton(started: Started, result: 'passed' | 'failed') {
  const routes = routesOf(started);
  return t.app.inject({
    method: 'POST',
    url: `/v1/person/dev-face/${started.personCode}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ result, ...routes }).toString(),
  });
}

describe('face recognition', () => {
  it('needs the real-name check first', async () => {
    const { agent } = await registerAndLogin(t);
    const res = await agent.call(startFaceAuth, { userType: 0, openFlag: 'openAccount' });
    expect(res.body).toMatchObject({ code: Code.Refused, msg: 'complete the real-name check first' });
  });

  it('a result URL without the signed callback is not a pass; a forged callback is refused', async () => {
    const { agent } = await registerAndLogin(t);
    await passRealName(t, agent);
    const started = await start(agent, { openFlag: 'openAccount' });
    expect(started.url).toMatch(/^\/v1\/person\/dev-face\//);
    const page = await t.app.inject({ method: 'GET', url: started.url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Development identity provider');

    const token = tokenOfOpenAccountRoute(routesOf(started).passed);
    // Someone opens /h5/v1/result/openAccount/<code>/<token> by hand: the server has decided nothing.
    const forged = await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token });
    expect(forged.body.data.result).toBe('pending');

    const badSig = await t.app.inject({
      method: 'POST',
      url: '/v1/person/face/callback',
      payload: {
        personCode: started.personCode,
        openFlag: 'openAccount',
        result: 'passed',
        sig: 'ab'.repeat(32),
      },
    });
    expect(badSig.statusCode).toBe(403);
    expect(badSig.json().code).toBe(Code.Refused);
    const unknownToken = await t.agent().call(getFaceAuthResult, { userType: 0, token: 'x'.repeat(32) });
    expect(unknownToken.body.code).toBe(Code.NotFound);
    expect((await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token })).body.data.result).toBe(
      'pending',
    );
  });

  it('passes only through the signed callback, once; the details record the face check', async () => {
    const { agent } = await registerAndLogin(t);
    await passRealName(t, agent);
    const started = await start(agent, { openFlag: 'openAccount' });
    const res = await pressDevButton(started, 'passed');
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/#\/h5\/v1\/result\/openAccount\//);
    const token = tokenOfOpenAccountRoute(location);
    const result = await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token });
    expect(result.body.data).toMatchObject({ result: 'passed', openFlag: 'openAccount' });
    const details = await agent.call<{ faceVerifiedAt: string | null }>(getPersonalDetails, { userType: 0 });
    expect(details.body.data.faceVerifiedAt).not.toBeNull();
    // a second press (a replayed callback) changes nothing
    const replay = await pressDevButton(started, 'failed');
    expect(replay.statusCode).toBe(404);
  });

  it('a failed check is failed, and expires when nobody calls back', async () => {
    const { agent } = await registerAndLogin(t);
    await passRealName(t, agent);
    const failed = await start(agent, { openFlag: 'openAccount' });
    const res = await pressDevButton(failed, 'failed');
    expect(String(res.headers.location)).toMatch(/^\/#\/h5\/v1\/resultFalse\/openAccount\//);
    const token = tokenOfOpenAccountRoute(String(res.headers.location));
    expect((await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token })).body.data.result).toBe(
      'failed',
    );

    const idle = await start(agent, { openFlag: 'openAccount' });
    t.clock.advance(11 * 60_000);
    const idleToken = tokenOfOpenAccountRoute(routesOf(idle).passed);
    expect(
      (await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token: idleToken })).body.data.result,
    ).toBe('expired');
  });

  it('signing room: the server hands out signUrl only after a pass', async () => {
    const { agent } = await registerAndLogin(t);
    await passRealName(t, agent);
    const body = {
      openFlag: 'signingRoom',
      businessCode: 'B-1',
      deviceType: 'h5',
      signUrl: '/h5/v1/signing_room?c=1',
    };
    const started = await start(agent, body);
    const passedRoute = routesOf(started).passed;
    expect(passedRoute).toMatch(/^\/#\/h5\/v1\/signingRoomFaceAuthResult\/passed\/B-1\/h5\//);
    const token = passedRoute.split('/')[8];
    const before = await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token });
    expect(before.body.data).toMatchObject({ result: 'pending', signUrl: null });
    await pressDevButton(started, 'passed');
    const after = await t.agent().call<Result>(getFaceAuthResult, { userType: 0, token });
    expect(after.body.data).toMatchObject({
      result: 'passed',
      signUrl: '/h5/v1/signing_room?c=1',
      businessCode: 'B-1',
    });

    const off = await agent.call(startFaceAuth, {
      userType: 0,
      openFlag: 'signingRoom',
      signUrl: 'https://evil.example/',
    });
    expect(off.body.code).toBe(Code.BadRequest);
    expect(off.body.msg).toMatch(/^signUrl: /);
  });

  it('the provider page only returns into the app', async () => {
    const { agent } = await registerAndLogin(t);
    await passRealName(t, agent);
    const started = await start(agent, { openFlag: 'openAccount' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/person/dev-face/${started.personCode}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        result: 'passed',
        passed: 'https://evil.example/',
        failed: 'x',
      }).toString(),
    });
    expect(res.statusCode).toBe(404);
  });
});
