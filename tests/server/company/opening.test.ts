import { describe, expect, it } from 'vitest';
import {
  POWER_OF_ATTORNEY_FILE_PATH,
  applyCompanyEsign,
  confirmCompanyMicroPayment,
  getCompanyApply,
  getCompanyCaCert,
  sendCompanyMicroPayment,
  switchAccount,
  uploadPowerOfAttorney,
  type CompanyApply,
} from '#contract/calls/company.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { appForFile } from '../helper.ts';
import {
  newCreditCode,
  openCompany,
  paidAmount,
  person,
  tinyPng,
  upload,
  wrongAmount,
} from '../fixtures/company.ts';

const t = appForFile();

const apply = (extra: Record<string, unknown> = {}) => ({
  userType: 0,
  companyName: '杭州测试科技有限公司',
  creditCode: newCreditCode(),
  legalRepName: '张三',
  applicantRole: 'legal_rep',
  ...extra,
});

describe('company opening', () => {
  it('refuses a bad credit code with a field-level message', async () => {
    const p = await person(t);
    const good = newCreditCode();
    const wrongCheck = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    const r1 = await p.agent.call(applyCompanyEsign, apply({ creditCode: wrongCheck }));
    expect(r1.body.code).toBe(Code.BadRequest);
    expect(r1.body.msg).toMatch(/^creditCode: .*check character/);
    const r2 = await p.agent.call(applyCompanyEsign, apply({ creditCode: '9133010' }));
    expect(r2.body.msg).toMatch(/^creditCode: .*18 characters/);
    const r3 = await p.agent.call(
      applyCompanyEsign,
      apply({ creditCode: `${good.slice(0, 10)}IOSVZ${good.slice(15)}` }),
    );
    expect(r3.body.msg).toMatch(/^creditCode: .*except I, O, S, V, Z/);
    // Lower case and spaces are what a user means: normalised, then checked.
    const r4 = await p.agent.call<CompanyApply>(
      applyCompanyEsign,
      apply({ creditCode: ` ${good.toLowerCase()} ` }),
    );
    expect(r4.body.code).toBe(0);
    expect(r4.body.data.creditCode).toBe(good);
  });

  it('opens a company by its legal representative: amount only in the outbox, then admin + certificate', async () => {
    const p = await person(t);
    const body = apply();
    const applied = await p.agent.call<CompanyApply>(applyCompanyEsign, body);
    expect(applied.body.data).toMatchObject({
      status: 'pending',
      provider: 'development',
      isPaymentSent: false,
    });
    const companyId = applied.body.data.companyId;
    const sent = await p.agent.call<CompanyApply>(sendCompanyMicroPayment, { userType: 0, companyId });
    expect(sent.body.data).toMatchObject({ isPaymentSent: true, attemptsLeft: 3 });
    const amount = await paidAmount(t, body.creditCode as string);
    expect(Number(amount)).toBeGreaterThanOrEqual(0.01);
    expect(Number(amount)).toBeLessThanOrEqual(0.99);
    expect(JSON.stringify(sent.body)).not.toContain(amount);
    const ok = await p.agent.call<CompanyApply>(confirmCompanyMicroPayment, {
      userType: 0,
      companyId,
      amount,
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.status).toBe('verified');

    const sw = await p.agent.call<LoginInfo>(switchAccount, { userType: 0, targetUserType: 1, companyId });
    expect(sw.body.data).toMatchObject({
      userType: 1,
      companyId,
      companyName: body.companyName,
      isAdmin: true,
      hasCaCert: true,
      hasOperator: true,
    });
    const cert = await p.agent.call<{ pem: string; subject: string }>(getCompanyCaCert, { userType: 1 });
    expect(cert.body.data.pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(cert.body.data.subject).toContain(body.companyName as string);
  });

  it('refuses a second company with the credit code of a verified one', async () => {
    const first = await person(t);
    const code = newCreditCode();
    await openCompany(t, first, { creditCode: code });
    const second = await person(t);
    const r = await second.agent.call(applyCompanyEsign, apply({ creditCode: code }));
    expect(r.body.code).toBe(Code.Refused);
    expect(r.body.msg).toContain('already opened');
  });

  it('of two pending applications with one code, only the first confirmed is verified', async () => {
    const a = await person(t);
    const b = await person(t);
    const code = newCreditCode();
    const ra = await a.agent.call<CompanyApply>(applyCompanyEsign, apply({ creditCode: code }));
    const rb = await b.agent.call<CompanyApply>(applyCompanyEsign, apply({ creditCode: code }));
    await a.agent.call(sendCompanyMicroPayment, { userType: 0, companyId: ra.body.data.companyId });
    const amountA = await paidAmount(t, code);
    await b.agent.call(sendCompanyMicroPayment, { userType: 0, companyId: rb.body.data.companyId });
    const amountB = await paidAmount(t, code);
    const okA = await a.agent.call(confirmCompanyMicroPayment, {
      userType: 0,
      companyId: ra.body.data.companyId,
      amount: amountA,
    });
    expect(okA.body.code).toBe(0);
    const okB = await b.agent.call(confirmCompanyMicroPayment, {
      userType: 0,
      companyId: rb.body.data.companyId,
      amount: amountB,
    });
    expect(okB.body.code).toBe(Code.Refused);
  });

  it('three wrong amounts end the payment; a new one must be sent', async () => {
    const p = await person(t);
    const body = apply();
    const { companyId } = (await p.agent.call<CompanyApply>(applyCompanyEsign, body)).body.data;
    const confirm = (amount: string) =>
      p.agent.call<CompanyApply>(confirmCompanyMicroPayment, { userType: 0, companyId, amount });
    expect((await confirm('0.10')).body.code).toBe(Code.Refused); // nothing sent yet
    await p.agent.call(sendCompanyMicroPayment, { userType: 0, companyId });
    const right = await paidAmount(t, body.creditCode as string);
    const w1 = await confirm(wrongAmount(right));
    expect(w1.body.msg).toMatch(/; 2 attempts left$/);
    const w2 = await confirm(wrongAmount(right));
    expect(w2.body.msg).toMatch(/; 1 attempt left$/);
    const w3 = await confirm(wrongAmount(right));
    expect(w3.body.msg).toMatch(/3 times.*send a new micro-payment/);
    // The old amount no longer counts, even when right.
    const late = await confirm(right);
    expect(late.body.code).toBe(Code.Refused);
    expect(late.body.msg).toContain('send the payment first');
    await p.agent.call(sendCompanyMicroPayment, { userType: 0, companyId });
    const fresh = await paidAmount(t, body.creditCode as string);
    expect((await confirm(fresh)).body.data.status).toBe('verified');
  });

  it('answers in Chinese when asked', async () => {
    const p = await person(t);
    const { companyId } = (await p.agent.call<CompanyApply>(applyCompanyEsign, apply())).body.data;
    const r = await p.agent.call(
      confirmCompanyMicroPayment,
      { userType: 0, companyId, amount: '0.10' },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(r.body.msg).toBe('没有待确认的打款，请先发起打款');
  });

  it("another user's application is not found", async () => {
    const owner = await person(t);
    const other = await person(t);
    const { companyId } = (await owner.agent.call<CompanyApply>(applyCompanyEsign, apply())).body.data;
    const r = await other.agent.call(sendCompanyMicroPayment, { userType: 0, companyId });
    expect(r.body.code).toBe(Code.NotFound);
    const g = await other.agent.call(getCompanyApply, { userType: 0, companyId });
    expect(g.body.data).toBeNull();
  });
});

describe('agent with a power-of-attorney letter', () => {
  const url = callPath(uploadPowerOfAttorney);

  it('needs the letter; refuses non-images and oversized files; checks magic bytes', async () => {
    const p = await person(t);
    const body = apply({ applicantRole: 'agent' });
    const { companyId } = (await p.agent.call<CompanyApply>(applyCompanyEsign, body)).body.data;
    const early = await p.agent.call(sendCompanyMicroPayment, { userType: 0, companyId });
    expect(early.body.code).toBe(Code.Refused);
    expect(early.body.msg).toContain('power-of-attorney');

    const text = await upload(
      p.agent,
      url,
      { userType: '0', companyId },
      {
        bytes: new TextEncoder().encode('not an image at all'),
        filename: 'letter.png',
        type: 'image/png',
      },
    );
    expect(text.body.code).toBe(Code.Refused);
    expect(text.body.msg).toContain('PNG, JPG or PDF');

    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(tinyPng());
    const tooBig = await upload(p.agent, url, { userType: '0', companyId }, { bytes: big });
    expect(tooBig.body.code).toBe(Code.Refused);
    expect(tooBig.body.msg).toContain('10 MB');

    const noXsrf = await p.agent.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      cookies: Object.fromEntries(p.agent.cookies),
      payload: '--x--\r\n',
    });
    expect(noXsrf.json().code).toBe(Code.XsrfRejected);

    const png = tinyPng();
    const ok = await upload<CompanyApply>(p.agent, url, { userType: '0', companyId }, { bytes: png });
    expect(ok.body.data).toMatchObject({ hasPowerOfAttorney: true, powerOfAttorneyType: 'image/png' });
    const file = await p.agent.get(`${POWER_OF_ATTORNEY_FILE_PATH}/${companyId}?ts=1`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');

    const stranger = await person(t);
    const theirs = await upload(stranger.agent, url, { userType: '0', companyId }, { bytes: png });
    expect(theirs.body.code).toBe(Code.NotFound);
    const peek = await stranger.agent.get(`${POWER_OF_ATTORNEY_FILE_PATH}/${companyId}`);
    expect(peek.body.code).toBe(Code.NotFound);

    const sent = await p.agent.call(sendCompanyMicroPayment, { userType: 0, companyId });
    expect(sent.body.code).toBe(0);
  });

  it('the administrator replaces the letter after opening; an operator may not', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const ok = await upload<CompanyApply>(
      admin.agent,
      url,
      { userType: '1', companyId: company.id },
      {
        bytes: pdf,
        filename: 'letter.pdf',
        type: 'application/pdf',
      },
    );
    expect(ok.body.data.powerOfAttorneyType).toBe('application/pdf');
    const file = await admin.agent.get(`${POWER_OF_ATTORNEY_FILE_PATH}/${company.id}`);
    expect(file.text.startsWith('%PDF-')).toBe(true);
  });
});

describe('certificate read', () => {
  it('a person session acting for no company is refused', async () => {
    const p = await person(t);
    const r = await p.agent.call(getCompanyCaCert, { userType: 0 });
    expect(r.body.code).toBe(Code.Refused);
    expect(r.status).not.toBe(HttpStatus.NoPermission);
  });
});
