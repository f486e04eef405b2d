// Issue 6: an operator invitation goes out through the configured SMS gateway like the other notices
// (the Aliyun stand-in here), with its own optional template: the company's name and the invitation's link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompanyInvitation, addCompanyOperator } from '#contract/calls/company.ts';
import { type LoginInfo, sendSmsCode, userRegister } from '#contract/calls/session.ts';
import { type Agent, type TestApp, TEST_PASSWORD, createTestApp, uniquePhone } from '../helper.ts';
import { openCompany } from '../fixtures/company.ts';
import { type StandIn, aliyunStandIn } from '../fixtures/sms-stand-ins.ts';

const KEY_ID = 'LTAI-invitation-key';
const KEY_SECRET = 'invitation-secret';

let stand: StandIn;
let t: TestApp;

beforeAll(async () => {
  stand = await aliyunStandIn({ [KEY_ID]: KEY_SECRET });
  t = await createTestApp({
    SMS_PROVIDER: 'aliyun',
    SMS_ENDPOINT: stand.url,
    SMS_ACCESS_KEY_ID: KEY_ID,
    SMS_ACCESS_KEY_SECRET: KEY_SECRET,
    SMS_SIGN_NAME: '电子签章',
    SMS_TEMPLATE_CODE: 'SMS_100000001',
    SMS_TEMPLATE_COMPANY_INVITATION: 'SMS_600000006',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stand?.close();
});

/** Registers through the gateway: the code is read from what the stand-in received. */
async function register(): Promise<{ agent: Agent; userId: string; phone: string; password: string }> {
  const agent = t.agent();
  const phone = uniquePhone();
  expect((await agent.call(sendSmsCode, { userType: 0, phone, purpose: 'register' })).body.code).toBe(0);
  const smsCode = (stand.received.at(-1)!.params as Record<string, string>).code;
  const reg = await agent.call<LoginInfo>(userRegister, {
    userType: 0,
    phone,
    password: TEST_PASSWORD,
    smsCode,
  });
  expect(reg.body.code).toBe(0);
  return { agent, userId: reg.body.data.userId, phone, password: TEST_PASSWORD };
}

describe('the invitation SMS through a real gateway', () => {
  it('is sent with the invitation template: the company and the link to the invitation', async () => {
    const admin = await register();
    const company = await openCompany(t, admin);
    const phone = uniquePhone();
    const invited = await admin.agent.call<CompanyInvitation>(addCompanyOperator, { userType: 1, phone });
    expect(invited.body.code, invited.body.msg).toBe(0);
    const sms = stand.received.at(-1)!;
    expect(sms).toMatchObject({ phone, templateId: 'SMS_600000006' });
    const params = sms.params as Record<string, string>;
    expect(params.name).toBe(company.name);
    expect(params.link).toMatch(new RegExp(`/#/companyInvitation/${invited.body.data.invitationId}$`));
  });
});
