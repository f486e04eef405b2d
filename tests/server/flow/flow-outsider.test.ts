// Issue 11: a person with no account signs from the link alone. Through HTTP: the room login proves the
// phone, the room's nameAuthentication step makes a normal account and records the real name (a name other
// than the launcher's is a clear stop the launcher sees), the userAgreement step issues the certificate and
// logs the browser in, then the person signs. Scoping: tokens of other rooms, expired rooms and links, a
// replayed code. The launcher's side: readiness at launch, each party's progress with times.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type FlowDetail,
  type RoomOnboarding,
  type SigningRoom,
  getFlowDetail,
  getSignerReadiness,
  getSigningRoom,
  launchFlow,
  listPendingSignatures,
  roomAcceptAgreement,
  roomConfirmCompany,
  roomOpenCompany,
  roomRealName,
  sendLinkSmsCode,
  signingRoomLoginByLinkCode,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { getEsignLoginInfo, type LoginInfo } from '#contract/calls/session.ts';
import { Agent, uniquePhone, appForFile } from '../helper.ts';
import { newCreditCode, paidAmount, wrongAmount } from '../fixtures/company.ts';
import { newIdNumber } from '../fixtures/person.ts';
import {
  type Signer,
  contractPdf,
  linkFor,
  ok,
  openByLink,
  personWithCert,
  sign,
  uploadPdf,
  userLogin,
  drawnSignature,
} from '../fixtures/flow.ts';

const t = appForFile();
let launcher: Signer;

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
}, 120_000);

async function launchTo(phone: string, name: string, deadline?: string) {
  const doc = ok(await uploadPdf(launcher.agent, await contractPdf(1)), 'upload');
  return ok(
    await launcher.agent.call<{ flowId: string }>(launchFlow, {
      userType: 0,
      title: '租赁合同 Lease',
      documentIds: [doc.documentId],
      deadline,
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name,
              phone,
              positions: [
                { documentId: doc.documentId, page: 1, mm: { left: 120, top: 220, width: 36, height: 18 } },
              ],
            },
          ],
        },
      ],
    }),
    'launch',
  ).flowId;
}

const detail = async (flowId: string) =>
  ok(await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');

describe('a person with no account signs from the link alone', () => {
  const phone = uniquePhone();
  const name = '王小明';
  const outsider = () => new Agent(t.app);
  let agent: Agent;
  let flowId: string;
  let roomToken: string;

  test('at launch the launcher sees the phone has no account yet', async () => {
    const r = ok(
      await launcher.agent.call<{ signers: { hasAccount: boolean; isRealNameDone: boolean }[] }>(
        getSignerReadiness,
        { userType: 0, signers: [{ phone }, { phone: launcher.phone }] },
      ),
      'readiness',
    );
    expect(r.signers).toEqual([
      { hasAccount: false, isRealNameDone: false, hasCertificate: false, isCompanyOpen: null },
      { hasAccount: true, isRealNameDone: true, hasCertificate: true, isCompanyOpen: null },
    ]);
    flowId = await launchTo(phone, name);
    const p = (await detail(flowId)).steps[0].parties[0];
    expect(p.progress).toBe('sent');
    expect(p.sentAt).not.toBeNull();
  });

  test('another phone opening the link is refused and told nothing about the party', async () => {
    const link = await linkFor(t, phone);
    const res = await outsider().call(sendLinkSmsCode, { userType: 0, ...link, phone: uniquePhone() });
    expect(res.body.code).toBe(Code.LinkInvalid);
    expect(res.body.msg).not.toContain(phone.slice(-4));
  });

  test('the room opens at the nameAuthentication step, name expected, phone masked', async () => {
    agent = outsider();
    roomToken = (await openByLink(t, agent, phone)).roomToken;
    const room = ok(await agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken }), 'room');
    expect(room.canSign).toBe(true);
    expect(room.onboarding).toMatchObject({
      step: 'nameAuthentication',
      hasAccount: false,
      isRealNameDone: false,
      hasCertificate: false,
      expectedName: name,
      phoneMasked: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
    });
    const p = (await detail(flowId)).steps[0].parties[0];
    expect(p.progress).toBe('opened');
    expect(p.openedAt).not.toBeNull();
  });

  test('the agreement step before the real name is refused', async () => {
    const res = await agent.call(roomAcceptAgreement, { userType: 0, roomToken, version: '1' });
    expect(res.body.code).toBe(Code.Refused);
  });

  test('a name other than the launcher typed is a clear stop, and the launcher sees it', async () => {
    const res = await agent.call(
      roomRealName,
      { userType: 0, roomToken, name: '王小红', idNumber: newIdNumber() },
      { headers: { 'accept-language': 'en' } },
    );
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toContain('王小红');
    expect(res.body.msg).toContain(name);
    const p = (await detail(flowId)).steps[0].parties[0];
    expect(p.progress).toBe('onboarding');
    expect(p.onboardingAt).not.toBeNull();
    expect(p.onboardingProblem?.zh).toContain('王小红');
    expect(p.onboardingProblem?.en).toContain('differs');
    // No account was made by the refused attempt.
    const r = ok(
      await launcher.agent.call<{ signers: { hasAccount: boolean }[] }>(getSignerReadiness, {
        userType: 0,
        signers: [{ phone }],
      }),
      'readiness',
    );
    expect(r.signers[0].hasAccount).toBe(false);
  });

  test('the right name makes a normal account with a real name; the agreement issues the certificate', async () => {
    const after = ok(
      await agent.call<RoomOnboarding>(roomRealName, {
        userType: 0,
        roomToken,
        name,
        idNumber: newIdNumber(),
      }),
      'real name',
    );
    expect(after).toMatchObject({
      step: 'userAgreement',
      hasAccount: true,
      isRealNameDone: true,
      realName: name,
    });
    expect((await detail(flowId)).steps[0].parties[0].onboardingProblem).toBeNull();
    const again = await agent.call(roomRealName, { userType: 0, roomToken, name, idNumber: newIdNumber() });
    expect(again.body.code).toBe(Code.Refused);
    const outdated = await agent.call(roomAcceptAgreement, { userType: 0, roomToken, version: 'v0-old' });
    expect(outdated.body.code).toBe(Code.Refused);
    expect(agent.sid).toBeUndefined();
    const done = ok(
      await agent.call<RoomOnboarding>(roomAcceptAgreement, {
        userType: 0,
        roomToken,
        version: after.agreementVersion,
      }),
      'agreement',
    );
    expect(done).toMatchObject({ step: 'none', hasCertificate: true, isAgreementAccepted: true });
    // The browser is logged in to the new account, a normal one: login info, the pending list.
    expect(agent.sid).toBeDefined();
    const info = ok(await agent.call<LoginInfo>(getEsignLoginInfo, { userType: 0 }), 'login info');
    expect(info.name).toBe(name);
    const pending = ok(
      await agent.call<{ list: { flowId: string }[] }>(listPendingSignatures, { userType: 0 }),
      'pending',
    );
    expect(pending.list.map((x) => x.flowId)).toContain(flowId);
  });

  test('back in the room the person signs; the launcher sees it signed with its time', async () => {
    const room = ok(await agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken }), 'room');
    expect(room.signer.hasCertificate).toBe(true);
    expect(room.onboarding.step).toBe('none');
    const res = await sign(t, agent, { roomToken } as never, phone, { signaturePng: await drawnSignature() });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.flowStatus).toBe('completed');
    const d = await detail(flowId);
    expect(d.status).toBe('completed');
    expect(d.steps[0].parties[0]).toMatchObject({ progress: 'signed', signedByName: name });
    const r = ok(
      await launcher.agent.call<{ signers: object[] }>(getSignerReadiness, {
        userType: 0,
        signers: [{ phone }],
      }),
      'readiness',
    );
    expect(r.signers[0]).toEqual({
      hasAccount: true,
      isRealNameDone: true,
      hasCertificate: true,
      isCompanyOpen: null,
    });
  }, 60_000);
});

describe("a company party's handler opens the company from the room, then seals", () => {
  const phone = uniquePhone();
  const handler = '刘法人';
  const creditCode = newCreditCode();
  const companyName = `未开通测试${creditCode.slice(-6)}有限公司`;
  let agent: Agent;
  let roomToken: string;
  let flowId: string;

  const party = (extra: object) => ({
    kind: 'company',
    companyName,
    operatorPhone: phone,
    operatorName: handler,
    applies: { companySealType: 102 },
    ...extra,
  });

  test('a company that has not opened e-signature is refused unless invited to open it', async () => {
    const doc = ok(await uploadPdf(launcher.agent, await contractPdf(1)), 'upload');
    const positions = [
      { documentId: doc.documentId, page: 1, mm: { left: 20, top: 200, width: 42, height: 42 } },
    ];
    const launch = (p: object) =>
      launcher.agent.call<{ flowId: string }>(launchFlow, {
        userType: 0,
        title: '采购合同',
        documentIds: [doc.documentId],
        steps: [{ parties: [{ ...p, positions }] }],
      });
    expect((await launch(party({}))).body.code).toBe(Code.Refused);
    const r = ok(
      await launcher.agent.call<{ signers: { isCompanyOpen: boolean | null }[] }>(getSignerReadiness, {
        userType: 0,
        signers: [{ phone, companyName }],
      }),
      'readiness',
    );
    expect(r.signers[0].isCompanyOpen).toBe(false);
    flowId = ok(await launch(party({ inviteToOpen: true })), 'launch').flowId;
  });

  test('the handler onboards: real name, then the company step; signing before is refused', async () => {
    agent = new Agent(t.app);
    roomToken = (await openByLink(t, agent, phone)).roomToken;
    const room = ok(await agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken }), 'room');
    expect(room.onboarding.step).toBe('nameAuthentication');
    expect(room.onboarding.company).toMatchObject({ name: companyName, isOpen: false });
    const early = await agent.call(roomOpenCompany, {
      userType: 0,
      roomToken,
      creditCode,
      legalRepName: handler,
    });
    expect(early.body.code).toBe(Code.Refused);
    const next = ok(
      await agent.call<RoomOnboarding>(roomRealName, {
        userType: 0,
        roomToken,
        name: handler,
        idNumber: newIdNumber(),
      }),
      'real name',
    );
    expect(next.step).toBe('openCompany');
    const signEarly = await sign(t, agent, { roomToken } as never, phone, {});
    expect(signEarly.body.code).toBe(Code.SignerNoCertificate);
  }, 60_000);

  test('the legal-person check: only the legal representative opens it; a wrong amount is refused', async () => {
    const other = await agent.call(roomOpenCompany, {
      userType: 0,
      roomToken,
      creditCode,
      legalRepName: '王别人',
    });
    expect(other.body.code).toBe(Code.Refused);
    expect(other.body.msg).toContain('王别人');
    const sent = ok(
      await agent.call<RoomOnboarding>(roomOpenCompany, {
        userType: 0,
        roomToken,
        creditCode,
        legalRepName: handler,
      }),
      'open',
    );
    expect(sent.company).toMatchObject({ isOpen: false, isPaymentSent: true, creditCode });
    const amount = await paidAmount(t, creditCode);
    const wrong = await agent.call(roomConfirmCompany, {
      userType: 0,
      roomToken,
      amount: wrongAmount(amount),
    });
    expect(wrong.body.code).toBe(Code.Refused);
    expect(agent.sid).toBeUndefined();
    const done = ok(
      await agent.call<RoomOnboarding>(roomConfirmCompany, { userType: 0, roomToken, amount }),
      'confirm',
    );
    expect(done).toMatchObject({ step: 'none', company: { isOpen: true } });
    expect(agent.sid).toBeDefined();
  }, 60_000);

  test('the handler seals with the contract seal issued on opening; the flow completes', async () => {
    const room = ok(await agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken }), 'room');
    expect(room.party.companyId).not.toBeNull();
    const seal = room.seals.find((s) => s.sealType === 102);
    expect(seal).toBeDefined();
    const res = await sign(t, agent, { roomToken } as never, phone, { companySealId: seal!.sealId });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.flowStatus).toBe('completed');
    const d = await detail(flowId);
    expect(d.steps[0].parties[0]).toMatchObject({ progress: 'signed', companyName });
    const again = await agent.call(roomOpenCompany, {
      userType: 0,
      roomToken,
      creditCode,
      legalRepName: handler,
    });
    expect(again.body.code).toBe(Code.AlreadySigned);
  }, 60_000);
});

describe('scoping', () => {
  test("another room's token, an expired room, an expired link and a replayed code are refused", async () => {
    const phone = uniquePhone();
    const flowId = await launchTo(
      phone,
      '赵六',
      new Date(t.clock.now().getTime() + 3 * 3600_000).toISOString(),
    );
    const agent = new Agent(t.app);
    const link = await linkFor(t, phone);
    ok(await agent.call(sendLinkSmsCode, { userType: 0, ...link, phone }), 'link sms');
    const smsCode = await t.smsCodeFor(phone, 'roomLogin');
    const room = ok(
      await agent.call<{ roomToken: string }>(signingRoomLoginByLinkCode, {
        userType: 0,
        ...link,
        phone,
        smsCode,
      }),
      'login',
    );
    // The same code again: replayed.
    const replay = await agent.call(signingRoomLoginByLinkCode, { userType: 0, ...link, phone, smsCode });
    expect(replay.body.code).toBe(Code.SmsCodeInvalid);
    // A made-up token names no room.
    const forged = await agent.call(roomRealName, {
      userType: 0,
      roomToken: 'x'.repeat(43),
      name: '赵六',
      idNumber: newIdNumber(),
    });
    expect(forged.body.code).toBe(Code.RoomTokenInvalid);
    // The room of this flow cannot onboard for the launcher's flows: it acts only on its own party.
    const other = (await detail(flowId)).steps[0].parties[0];
    expect(other.onboardingAt).toBeNull();
    // Past the room's lifetime (2 h): refused.
    t.clock.advance(2 * 3600_000 + 1000);
    const expiredRoom = await agent.call(roomRealName, {
      userType: 0,
      roomToken: room.roomToken,
      name: '赵六',
      idNumber: newIdNumber(),
    });
    expect(expiredRoom.body.code).toBe(Code.RoomTokenInvalid);
    // Past the flow's deadline: a new room login works, onboarding is refused (the flow expired).
    t.clock.advance(3600_000);
    ok(await agent.call(sendLinkSmsCode, { userType: 0, ...link, phone }), 'link sms 2');
    const code2 = await t.smsCodeFor(phone, 'roomLogin');
    const r2 = ok(
      await agent.call<{ roomToken: string }>(signingRoomLoginByLinkCode, {
        userType: 0,
        ...link,
        phone,
        smsCode: code2,
      }),
      'login 2',
    );
    const late = await agent.call(roomRealName, {
      userType: 0,
      roomToken: r2.roomToken,
      name: '赵六',
      idNumber: newIdNumber(),
    });
    expect([Code.DeadlinePassed, Code.FlowClosed]).toContain(late.body.code);
    // The launcher's session idled out with the clock: log in again, then the flow shows expired.
    ok(
      await launcher.agent.call(userLogin, {
        userType: 0,
        phone: launcher.phone,
        password: launcher.password,
      }),
      'relogin',
    );
    expect((await detail(flowId)).status).toBe('expired');
  }, 60_000);

  test('readiness needs a login', async () => {
    const anon = await new Agent(t.app).call(getSignerReadiness, {
      userType: 0,
      signers: [{ phone: uniquePhone() }],
    });
    expect(anon.body.code).toBe(Code.NotLoggedIn);
  });
});
