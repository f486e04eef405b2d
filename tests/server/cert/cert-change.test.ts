import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CertChangeInfo,
  getCertChangeInfo,
  reissueCaCert,
  renewCaCert,
  sendCertChangeSmsCode,
} from '#contract/calls/cert.ts';
import { switchAccount } from '#contract/calls/company.ts';
import { getPersonCaCert, type PersonCert } from '#contract/calls/person.ts';
import { type LoginInfo, sendSmsCode, updateLoginUserInfoCache, userLogin } from '#contract/calls/session.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { companies } from '#server/db/schema/company.ts';
import { personIdentities } from '#server/db/schema/person.ts';
import { inviteAndAccept, openCompany, person } from '../fixtures/company.ts';
import { type CallResult, createTestApp, registerAndLogin, type TestApp } from '../helper.ts';
import {
  CERT_TEST_ENV,
  certChangeCode,
  crlListsSerial,
  openedPerson,
  relyingParty,
} from '../fixtures/cert.ts';

type Renewed = { certificate: CertChangeInfo['history'][number]; previousSerial: string };
type Reissued = {
  certificate: CertChangeInfo['history'][number];
  revokedSerials: string[];
  revocationReason: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestApp;
let rp: Awaited<ReturnType<typeof relyingParty>>;

beforeAll(async () => {
  t = await createTestApp(CERT_TEST_ENV);
  rp = await relyingParty(t);
});
afterAll(async () => {
  rp?.close();
  await t?.close();
});

const infoOf = async (agent: Parameters<typeof certChangeCode>[1], userType = 0) => {
  const res = await agent.call<CertChangeInfo>(getCertChangeInfo, { userType });
  expect(res.body.code, res.body.msg).toBe(0);
  return res.body.data;
};

const expect602 = (res: CallResult) => {
  expect(res.status).toBe(HttpStatus.NoPermission);
  expect(res.body.code).not.toBe(0);
};

describe('renewing a person certificate', () => {
  it('issues a new serial with the same subject; the old one stays good on OCSP; login info keeps hasCaCert', async () => {
    const p = await openedPerson(t, '赵六');
    const before = await infoOf(p.agent);
    expect(before.current).toMatchObject({
      serial: p.cert.serial,
      commonName: '赵六',
      status: 'good',
      isCurrent: true,
      revocationReason: null,
    });
    expect(before.current?.issuer).toMatch(/Issuing CA/);
    expect(before.daysLeft).toBeGreaterThanOrEqual(363);
    expect(before.isRenewalAdvised).toBe(false);
    expect(before.isNameChanged).toBe(false);
    expect(before.canChange).toBe(true);
    expect(before.history).toEqual([]);
    expect(before.phoneMasked).toBe(`${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`);

    const code = await certChangeCode(t, p.agent, p.phone);
    const renewed = await p.agent.call<Renewed>(renewCaCert, { userType: 0, smsCode: code });
    expect(renewed.body.code, renewed.body.msg).toBe(0);
    const fresh = renewed.body.data.certificate;
    expect(renewed.body.data.previousSerial).toBe(p.cert.serial);
    expect(fresh.serial).not.toBe(p.cert.serial);
    expect(fresh.subject).toBe(p.cert.subject);
    expect(fresh.isCurrent).toBe(true);

    // The person certificate call and the screen both show the new one; the old one is history, still good.
    const current = await p.agent.call<PersonCert>(getPersonCaCert, { userType: 0 });
    expect(current.body.data.serial).toBe(fresh.serial);
    const after = await infoOf(p.agent);
    expect(after.current?.serial).toBe(fresh.serial);
    expect(after.history).toMatchObject([{ serial: p.cert.serial, status: 'good', isCurrent: false }]);
    const oldVerdict = await rp.ocsp(p.cert.pem);
    expect(oldVerdict).toContain('Response verify OK');
    expect(oldVerdict).toContain('cert: good');
    expect(await rp.ocsp(current.body.data.pem)).toMatch(/cert: good/);

    const login = await p.agent.call<LoginInfo>(updateLoginUserInfoCache, { userType: 0 });
    expect(login.body.data.hasCaCert).toBe(true);

    // A code confirms one change only.
    const replay = await p.agent.call(renewCaCert, { userType: 0, smsCode: code });
    expect(replay.body.code).toBe(Code.SmsCodeInvalid);
  });

  it('advises renewal when fewer than 30 days are left', async () => {
    const p = await openedPerson(t);
    t.clock.advance(340 * DAY_MS);
    try {
      // The session has long timed out by then: log in again.
      const again = await p.agent.call(userLogin, { userType: 0, phone: p.phone, password: p.password });
      expect(again.body.code, again.body.msg).toBe(0);
      const info = await infoOf(p.agent);
      expect(info.daysLeft).toBeLessThan(30);
      expect(info.isRenewalAdvised).toBe(true);
    } finally {
      t.clock.advance(-340 * DAY_MS);
    }
  });
});

describe('revoking and reissuing', () => {
  it('key compromise: every still-valid certificate is revoked on OCSP and listed on the CRL; a new one is issued', async () => {
    const p = await openedPerson(t, '孙七');
    const renewed = await p.agent.call<Renewed>(renewCaCert, {
      userType: 0,
      smsCode: await certChangeCode(t, p.agent, p.phone),
    });
    const second = renewed.body.data.certificate.serial;
    const secondPem = (await p.agent.call<PersonCert>(getPersonCaCert, { userType: 0 })).body.data.pem;

    const res = await p.agent.call<Reissued>(reissueCaCert, {
      userType: 0,
      reason: 'keyCompromise',
      smsCode: await certChangeCode(t, p.agent, p.phone),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.revocationReason).toBe('keyCompromise');
    expect(res.body.data.revokedSerials.sort()).toEqual([p.cert.serial, second].sort());
    const fresh = res.body.data.certificate;
    expect(fresh.serial).not.toBe(second);
    expect(fresh.commonName).toBe('孙七');

    for (const pem of [p.cert.pem, secondPem]) {
      const verdict = await rp.ocsp(pem);
      expect(verdict).toContain('Response verify OK');
      expect(verdict).toContain('cert: revoked');
      expect(verdict).toMatch(/Reason: keyCompromise/);
    }
    const newPem = (await p.agent.call<PersonCert>(getPersonCaCert, { userType: 0 })).body.data.pem;
    expect(await rp.ocsp(newPem)).toContain('cert: good');

    const crl = await rp.crlText();
    expect(crl).toMatch(/verify OK/);
    expect(crlListsSerial(crl, p.cert.serial)).toBe(true);
    expect(crlListsSerial(crl, second)).toBe(true);
    expect(crlListsSerial(crl, fresh.serial)).toBe(false);
    expect(crl).toMatch(/Key Compromise/);

    const info = await infoOf(p.agent);
    expect(info.current?.serial).toBe(fresh.serial);
    expect(info.history).toHaveLength(2);
    for (const h of info.history) {
      expect(h).toMatchObject({ status: 'revoked', revocationReason: 'keyCompromise', isCurrent: false });
      expect(h.revokedAt).not.toBeNull();
    }
    const login = await p.agent.call<LoginInfo>(updateLoginUserInfoCache, { userType: 0 });
    expect(login.body.data.hasCaCert).toBe(true);
  });

  it('"name changed" with an unchanged verified name is refused (in both languages) and keeps the code usable', async () => {
    const p = await openedPerson(t);
    const code = await certChangeCode(t, p.agent, p.phone);
    const en = await p.agent.call(reissueCaCert, { userType: 0, reason: 'nameChanged', smsCode: code });
    expect(en.body.code).toBe(Code.Refused);
    expect(en.body.msg).toMatch(/real-name verification again with your new name/);
    const zh = await p.agent.call(
      reissueCaCert,
      { userType: 0, reason: 'nameChanged', smsCode: code },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.msg).toMatch(/重新完成实名认证/);
    expect((await infoOf(p.agent)).current?.serial).toBe(p.cert.serial);

    // The refusal came before the code was used: the same code still confirms another reason.
    const ok = await p.agent.call<Reissued>(reissueCaCert, {
      userType: 0,
      reason: 'cessationOfOperation',
      smsCode: code,
    });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(await rp.ocsp(p.cert.pem)).toMatch(/cert: revoked[\s\S]*Reason: cessationOfOperation/);
  });

  it('"name changed" after the verified name changed: the new certificate carries the new name, the old is affiliationChanged', async () => {
    const p = await openedPerson(t, '周八');
    // Stands in for a renewed real-name verification under a new name (the person module's step): the
    // stored verified name is what this module reads.
    await t.db
      .update(personIdentities)
      .set({ realName: '周八八' })
      .where(eq(personIdentities.userId, p.userId));
    const info = await infoOf(p.agent);
    expect(info).toMatchObject({ currentName: '周八八', isNameChanged: true });

    const res = await p.agent.call<Reissued>(reissueCaCert, {
      userType: 0,
      reason: 'nameChanged',
      smsCode: await certChangeCode(t, p.agent, p.phone),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.certificate.commonName).toBe('周八八');
    expect(res.body.data.certificate.subject).toContain('CN=周八八');
    expect(res.body.data.revocationReason).toBe('affiliationChanged');
    expect(await rp.ocsp(p.cert.pem)).toMatch(/cert: revoked[\s\S]*Reason: affiliationChanged/);
    expect((await infoOf(p.agent)).isNameChanged).toBe(false);
  });
});

describe('refusals', () => {
  it('a wrong SMS code changes nothing', async () => {
    const p = await openedPerson(t);
    const right = await certChangeCode(t, p.agent, p.phone);
    const wrong = right === '000000' ? '000001' : '000000';
    const renew = await p.agent.call(renewCaCert, { userType: 0, smsCode: wrong });
    expect(renew.body.code).toBe(Code.SmsCodeInvalid);
    const reissue = await p.agent.call(reissueCaCert, {
      userType: 0,
      reason: 'keyCompromise',
      smsCode: wrong,
    });
    expect(reissue.body.code).toBe(Code.SmsCodeInvalid);
    const info = await infoOf(p.agent);
    expect(info.current?.serial).toBe(p.cert.serial);
    expect(info.history).toEqual([]);
    expect(await rp.ocsp(p.cert.pem)).toContain('cert: good');
    // A code sent to the same phone for another purpose does not confirm a change either.
    await p.agent.call(sendSmsCode, { userType: 0, phone: p.phone, purpose: 'resetPassword' });
    const otherPurpose = await t.smsCodeFor(p.phone, 'resetPassword');
    const other = await p.agent.call(renewCaCert, { userType: 0, smsCode: otherPurpose });
    expect(other.body.code).toBe(Code.SmsCodeInvalid);
    expect((await infoOf(p.agent)).current?.serial).toBe(p.cert.serial);
    const malformed = await p.agent.call(renewCaCert, { userType: 0, smsCode: 'abc' });
    expect(malformed.body.code).toBe(Code.BadRequest);
  });

  it('an unknown reason is refused by the schema', async () => {
    const p = await openedPerson(t);
    const res = await p.agent.call(reissueCaCert, { userType: 0, reason: 'caCompromise', smsCode: '123456' });
    expect(res.body.code).toBe(Code.BadRequest);
  });

  it('a person without a certificate is told to open e-signature first', async () => {
    const { agent } = await registerAndLogin(t);
    const info = await infoOf(agent);
    expect(info.current).toBeNull();
    expect(info.daysLeft).toBeNull();
    expect(info.isRenewalAdvised).toBe(false);
    for (const res of [
      await agent.call(sendCertChangeSmsCode, { userType: 0 }),
      await agent.call(renewCaCert, { userType: 0, smsCode: '123456' }),
      await agent.call(reissueCaCert, { userType: 0, reason: 'keyCompromise', smsCode: '123456' }),
    ]) {
      expect(res.body.code).toBe(Code.Refused);
      expect(res.body.msg).toMatch(/no valid certificate.*open e-signature first/);
    }
  });

  it('without a session: 2000', async () => {
    const res = await t.agent().call(getCertChangeInfo, { userType: 0 });
    expect(res.body.code).toBe(Code.NotLoggedIn);
  });
});

describe('company certificates', () => {
  it('an operator reads the company certificate but gets 602 for every change; the administrator renews and reissues', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const opPerson = await person(t);
    await inviteAndAccept(admin.agent, opPerson);
    const sw = await opPerson.agent.call(switchAccount, {
      userType: 0,
      targetUserType: 1,
      companyId: company.id,
    });
    expect(sw.body.code, sw.body.msg).toBe(0);

    const seen = await infoOf(opPerson.agent, 1);
    expect(seen).toMatchObject({
      userType: 1,
      role: 'operator',
      canChange: false,
      currentName: company.name,
    });
    expect(seen.current?.commonName).toBe(company.name);
    expect602(await opPerson.agent.call(sendCertChangeSmsCode, { userType: 1 }));
    expect602(await opPerson.agent.call(renewCaCert, { userType: 1, smsCode: '123456' }));
    expect602(
      await opPerson.agent.call(reissueCaCert, { userType: 1, reason: 'keyCompromise', smsCode: '123456' }),
    );

    const first = await infoOf(admin.agent, 1);
    expect(first).toMatchObject({ role: 'admin', canChange: true });
    const renewed = await admin.agent.call<Renewed>(renewCaCert, {
      userType: 1,
      smsCode: await certChangeCode(t, admin.agent, admin.phone, 1),
    });
    expect(renewed.body.code, renewed.body.msg).toBe(0);
    expect(renewed.body.data.previousSerial).toBe(first.current?.serial);

    // The unchanged company name refuses "name changed"; once the name changed, the reissue carries it.
    const code = await certChangeCode(t, admin.agent, admin.phone, 1);
    const same = await admin.agent.call(reissueCaCert, { userType: 1, reason: 'nameChanged', smsCode: code });
    expect(same.body.code).toBe(Code.Refused);
    expect(same.body.msg).toMatch(/company's name is the same/);
    const newName = `${company.name}（更名）`;
    // Stands in for a company rename through verification (not built yet): the stored name is what counts.
    await t.db.update(companies).set({ name: newName }).where(eq(companies.id, company.id));
    const res = await admin.agent.call<Reissued>(reissueCaCert, {
      userType: 1,
      reason: 'nameChanged',
      smsCode: code,
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.certificate.subject).toContain(`O=${newName}`);
    expect(res.body.data.revokedSerials).toHaveLength(2);

    const after = await infoOf(opPerson.agent, 1);
    expect(after.current?.serial).toBe(res.body.data.certificate.serial);
    expect(after.history.map((h) => h.revocationReason)).toEqual([
      'affiliationChanged',
      'affiliationChanged',
    ]);
    const login = await admin.agent.call<LoginInfo>(updateLoginUserInfoCache, { userType: 1 });
    expect(login.body.data.hasCaCert).toBe(true);
  });
});
