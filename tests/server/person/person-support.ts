// Helpers of the person tests: valid ID numbers and the real-name step through the real calls.
import { randomInt } from 'node:crypto';
import { authIdNamePhone } from '#contract/calls/person.ts';
import { sendSmsCode } from '#contract/calls/session.ts';
import { idCheckChar } from '#contract/rules/id-number.ts';
import type { Agent, TestApp } from '../helper.ts';
import { uniquePhone } from '../helper.ts';

/** A well-formed ID number (GB 11643 check character) no other test uses, born on `birth` (YYYYMMDD). */
export function newIdNumber(birth = `19${randomInt(50, 99)}0${randomInt(1, 9)}1${randomInt(0, 9)}`): string {
  const first17 = `110105${birth}${String(randomInt(0, 1000)).padStart(3, '0')}`;
  return first17 + idCheckChar(first17);
}

/** Sends a realName SMS code to `phone` and reads it from the outbox. */
export async function realNameCode(
  t: TestApp,
  agent: Agent,
  phone: string,
  purpose = 'realName',
): Promise<string> {
  const sent = await agent.call(sendSmsCode, { userType: 0, phone, purpose });
  if (sent.body.code !== 0) throw new Error(`sendSmsCode: ${JSON.stringify(sent.body)}`);
  return t.smsCodeFor(phone, purpose);
}

/** Passes the real-name check for the agent's account; answers what was used. */
export async function passRealName(t: TestApp, agent: Agent, name = '张三') {
  const phone = uniquePhone();
  const idNumber = newIdNumber();
  const smsCode = await realNameCode(t, agent, phone);
  const res = await agent.call(authIdNamePhone, { userType: 0, name, idNumber, phone, smsCode });
  if (res.body.code !== 0) throw new Error(`authIdNamePhone: ${JSON.stringify(res.body)}`);
  return { name, idNumber, phone };
}
