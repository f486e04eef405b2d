import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLoginInfoFromJinshang, loginAsHy } from '#contract/calls/partner.ts';
import { type LoginInfo, getEsignLoginInfo, isHyCenterLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { HyLoginType } from '#contract/enums.ts';
import { type TestApp, createTestApp, registerAndLogin, uniquePhone, appForFile } from '../helper.ts';

const t = appForFile();

const ask = async (agent: ReturnType<TestApp['agent']>) =>
  (await agent.call<number>(isHyCenterLogin, { userType: 0 })).body.data;

describe('isHyCenterLogin and loginAsHy (development central user centre)', () => {
  it('answers 0 without a central login, 1 for a person login, 4 for a company login', async () => {
    const agent = t.agent();
    expect(await ask(agent)).toBe(HyLoginType.None);
    await agent.get(`/v1/dev/hy-login?phone=${uniquePhone()}`);
    expect(await ask(agent)).toBe(HyLoginType.Person);
    const company = t.agent();
    await company.get(
      `/v1/dev/hy-login?phone=${uniquePhone()}&company=${encodeURIComponent('示例科技有限公司')}`,
    );
    expect(await ask(company)).toBe(HyLoginType.Company);
    await company.get('/v1/dev/hy-logout');
    expect(await ask(company)).toBe(HyLoginType.None);
  });

  it('a forged or expired hy_session cookie is no login', async () => {
    const agent = t.agent();
    await agent.get(`/v1/dev/hy-login?phone=${uniquePhone()}`);
    const value = agent.cookies.get('hy_session')!;
    const [body, sig] = value.split('.');
    const other = JSON.parse(Buffer.from(body, 'base64url').toString());
    other.phone = uniquePhone();
    agent.cookies.set('hy_session', `${Buffer.from(JSON.stringify(other)).toString('base64url')}.${sig}`);
    expect(await ask(agent)).toBe(HyLoginType.None);
    agent.cookies.set('hy_session', value);
    expect(await ask(agent)).toBe(HyLoginType.Person);
    t.clock.advance(3 * 60 * 60 * 1000);
    expect(await ask(agent)).toBe(HyLoginType.None);
  });

  it('loginAsHy converts the central login into a session here, opening the account if needed', async () => {
    const phone = uniquePhone();
    const agent = t.agent();
    await agent.get(`/v1/dev/hy-login?phone=${phone}&name=${encodeURIComponent('王五')}`);
    const res = await agent.call<LoginInfo>(loginAsHy, { userType: 0 });
    expect(res.body).toMatchObject({ code: 0, data: { phone, userType: 0, loginState: 11 } });
    const check = await agent.call<LoginInfo>(getEsignLoginInfo, { userType: 0 });
    expect(check.body.data?.userId).toBe(res.body.data.userId);
    // Not a partner-token session.
    expect((await agent.call(getLoginInfoFromJinshang, { userType: 0 })).body.data).toBeNull();
  });

  it('loginAsHy reaches an existing account of that phone; a company login without a company here is a person session', async () => {
    const { phone, info } = await registerAndLogin(t);
    const agent = t.agent();
    await agent.get(`/v1/dev/hy-login?phone=${phone}&company=ACME`);
    const res = await agent.call<LoginInfo>(loginAsHy, { userType: 1 });
    expect(res.body.data.userId).toBe(info.userId);
    expect(res.body.data.userType).toBe(0);
  });

  it('loginAsHy without a central login is refused in both languages', async () => {
    const en = await t.agent().call(loginAsHy, { userType: 0 });
    expect(en.body).toMatchObject({ code: Code.CentralNotLoggedIn, msg: /reports no login/ });
    const zh = await t.agent().call(loginAsHy, { userType: 0 }, { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body.msg).toMatch(/统一用户中心未登录/);
  });
});

describe('no central user centre (HY_CENTER=none)', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ HY_CENTER: 'none' });
  });
  afterAll(() => off.close());

  it('isHyCenterLogin always answers 0 and the development login route does not exist', async () => {
    const agent = off.agent();
    const dev = await agent.get(`/v1/dev/hy-login?phone=${uniquePhone()}`);
    expect(dev.status).toBe(404);
    expect((await agent.call<number>(isHyCenterLogin, { userType: 0 })).body.data).toBe(0);
  });
});
