// What the flow refuses, through HTTP: bad uploads, out of turn, twice, after the deadline, after cancel
// or decline, another party's link or session, a seal not authorised to the caller, wrong or replayed SMS
// codes, a signer without certificate, another account's ids; an interrupted signature (failure between
// blob write and version move, and a storage failure); parallel parties of one step; parallel launches
// against the last quota unit; a tampered audit entry.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type FlowDetail,
  type RoomLogin,
  cancelFlow,
  declineFlow,
  getAuditTrail,
  getFlowDetail,
  getSigningRoom,
  getQuota,
  launchFlow,
  listLaunchedFlows,
  remindSigners,
  sendLinkSmsCode,
  sendSignSmsCode,
  signDocument,
  signingRoomLogin,
  signingRoomLoginByLinkCode,
} from '#contract/calls/flow.ts';
import { chooseUserList, chooseUserOperatorList } from '#contract/calls/company.ts';
import { deleteSeal } from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { type Agent, createTestApp, appForFile } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  getBytes,
  linkFor,
  ok,
  openByLink,
  personWithCert,
  setSigningFaults,
  sign,
  signCode,
  uploadPdf,
} from '../fixtures/flow.ts';

// The same signers get many codes over this file's flows: the per-phone limit is sms.test.ts's subject.
const t = appForFile({ FREE_SIGNING_ALLOWANCE: '30', SMS_MAX_PER_PHONE_HOUR: '100' });
let company: TestCompany;
let alice: Signer;
let bob: Signer;
let pdf: Uint8Array;

beforeAll(async () => {
  company = await companyWithSeals(t);
  alice = await personWithCert(t, '李四');
  bob = await personWithCert(t, '王五');
  pdf = await contractPdf(2);
}, 180_000);

/** Alice launches a flow with the given steps of persons (phones), one position each. */
async function launchPersons(steps: string[][], opts: { deadline?: string; initiator?: Agent } = {}) {
  const agent = opts.initiator ?? alice.agent;
  const doc = ok(await uploadPdf(agent, pdf), 'upload');
  const res = await agent.call<{ flowId: string }>(launchFlow, {
    userType: 0,
    title: 'refusal test',
    documentIds: [doc.documentId],
    deadline: opts.deadline,
    steps: steps.map((phones) => ({
      parties: phones.map((phone, i) => ({
        kind: 'person',
        name: 'signer',
        phone,
        positions: [
          { documentId: doc.documentId, page: 1, mm: { left: 20 + i * 50, top: 200, width: 40, height: 20 } },
        ],
      })),
    })),
  });
  expect(res.body.code, res.body.msg).toBe(0);
  return { flowId: res.body.data.flowId, documentId: doc.documentId };
}

async function detailOf(agent: Agent, flowId: string, userType = 0) {
  return ok(await agent.call<FlowDetail>(getFlowDetail, { userType, flowId }), 'detail');
}

async function roomFor(agent: Agent, flowId: string, phone: string): Promise<RoomLogin> {
  const d = await detailOf(agent, flowId);
  const partyId =
    d.mine.myPendingPartyIds[0] ??
    d.steps.flatMap((s) => s.parties).find((p) => p.phoneMasked.endsWith(phone.slice(-4)))!.partyId;
  return ok(await agent.call<RoomLogin>(signingRoomLogin, { userType: 0, flowId, partyId }), 'room');
}

describe('uploads', () => {
  test('non-PDF, encrypted, damaged, empty and over-large files are refused with a reason', async () => {
    const a = alice.agent;
    const notPdf = await uploadPdf(a, new TextEncoder().encode('hello, not a pdf'));
    expect(notPdf.body.code).toBe(Code.DocumentRejected);
    expect(notPdf.body.msg).toMatch(/not a PDF/);
    const broken = await uploadPdf(a, pdf.subarray(0, Math.floor(pdf.length / 3)));
    expect(broken.body.code).toBe(Code.DocumentRejected);
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const enc = await PDFDocument.load(pdf);
    enc.encrypt({ userPassword: 'secret', ownerPassword: 'owner' });
    const encrypted = await uploadPdf(a, await enc.save());
    expect(encrypted.body.code).toBe(Code.DocumentRejected);
    expect(encrypted.body.msg).toMatch(/needs a password/);
    const big = await createTestApp({ UPLOAD_LIMIT_MB: '1' });
    try {
      const p = await personWithCert(big, '大文件', { seal: false, cert: false });
      const huge = new Uint8Array(1024 * 1024 + 10);
      huge.set(new TextEncoder().encode('%PDF-1.7\n'));
      const res = await uploadPdf(p.agent, huge);
      expect(res.body.code).not.toBe(0);
      expect(res.body.msg).toMatch(/1 MB/);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('placement errors (issue 11 edge 6)', () => {
  test('a position off its page, on a missing page or at a missing keyword names the signer it is about', async () => {
    const doc = ok(await uploadPdf(alice.agent, pdf), 'upload');
    const launch = (second: object, lang = 'en-US') =>
      alice.agent.call<{ flowId: string }>(
        launchFlow,
        {
          userType: 0,
          title: 'placement',
          documentIds: [doc.documentId],
          steps: [
            {
              parties: [
                {
                  kind: 'person',
                  name: '王五',
                  phone: bob.phone,
                  positions: [{ documentId: doc.documentId, page: 1, rect: [100, 100, 200, 150] }],
                },
              ],
            },
            { parties: [{ kind: 'person', name: '赵六', phone: '13900000066', positions: [second] }] },
          ],
        },
        { headers: { 'accept-language': lang } },
      );
    const offPage = await launch({ documentId: doc.documentId, page: 1, rect: [5000, 100, 5100, 150] });
    expect(offPage.body.code).toBe(Code.Refused);
    expect(offPage.body.msg).toBe('signer 赵六 (step 2): a signing position lies outside its page');
    const offPageZh = await launch(
      { documentId: doc.documentId, page: 1, rect: [5000, 100, 5100, 150] },
      'zh-CN',
    );
    expect(offPageZh.body.msg).toBe('签署方“赵六”（第 2 步）：签署位置超出了页面范围');
    const noPage = await launch({ documentId: doc.documentId, page: 9, rect: [100, 100, 200, 150] });
    expect(noPage.body.msg).toMatch(/^signer 赵六 \(step 2\): page 9 does not exist/);
    const noKeyword = await launch({ documentId: doc.documentId, keyword: '不存在的关键字' });
    expect(noKeyword.body.msg).toMatch(/^signer 赵六 \(step 2\): the keyword "不存在的关键字" was not found/);
  }, 60_000);
});

describe('signers chosen in the pickers', () => {
  test('a person and a company handler chosen by id get their links; bad picks are refused with a reason', async () => {
    const [bobPicked] = ok(
      await alice.agent.call<{ userId: string; phone: string }[]>(chooseUserList, {
        userType: 0,
        keyword: bob.phone,
      }),
      'person picker',
    );
    expect(bobPicked.phone).not.toBe(bob.phone); // masked: the launcher never sees the number
    // The company picker answers the company's administrators only (issue 23): its administrator picks.
    const handlers = ok(
      await company.admin.agent.call<{ userId: string; role: string }[]>(chooseUserOperatorList, {
        userType: 1,
        companyId: company.id,
      }),
      'company picker',
    );
    const operator = handlers.find((h) => h.userId === company.operator.userId)!;
    const position = (documentId: string) => [
      { documentId, page: 1, mm: { left: 20, top: 200, width: 40, height: 20 } },
    ];
    /** Launches on a fresh document; `parties` get their positions on it. */
    const launch = async (parties: object[]) => {
      const doc = ok(await uploadPdf(alice.agent, pdf), 'upload');
      return alice.agent.call<{ flowId: string }>(launchFlow, {
        userType: 0,
        title: 'picked signers',
        documentIds: [doc.documentId],
        steps: [{ parties: parties.map((p) => ({ ...p, positions: position(doc.documentId) })) }],
      });
    };
    const companyParty = {
      kind: 'company',
      companyId: company.id,
      operatorUserId: operator.userId,
      applies: { companySealType: 102 },
    };
    const launched = await launch([{ kind: 'person', name: 'Bob', userId: bobPicked.userId }, companyParty]);
    expect(launched.body.code, launched.body.msg).toBe(0);
    // The links went to the picked users' phones (the launcher sees them masked).
    const parties = (await detailOf(alice.agent, launched.body.data.flowId)).steps[0].parties;
    expect(parties.map((p) => p.phoneMasked.slice(-4))).toEqual([
      bob.phone.slice(-4),
      company.operator.phone.slice(-4),
    ]);
    expect(parties[0].phoneMasked).not.toBe(bob.phone);

    const neither = await launch([{ kind: 'person', name: 'Bob' }]);
    expect(neither.body.code).toBe(Code.BadRequest);
    expect(neither.body.msg).toMatch(/enter the signer phone or choose the signer/);
    const mismatch = await launch([
      { kind: 'person', name: 'Bob', userId: bobPicked.userId, phone: alice.phone },
    ]);
    expect(mismatch.body.code, mismatch.body.msg).toBe(Code.Refused);
    expect(mismatch.body.msg).toMatch(/does not belong to the chosen signer/);
    const notMember = await launch([{ ...companyParty, operatorUserId: bob.userId }]);
    expect(notMember.body.code, notMember.body.msg).toBe(Code.NotFound);
    expect(notMember.body.msg).toMatch(/no longer an active member/);
  }, 60_000);
});

describe('signing refusals', () => {
  test("a room opened by its link shows the signer's seal images; another room's token does not", async () => {
    await launchPersons([[alice.phone, bob.phone]]);
    const agent = t.agent(); // no session: the link and the SMS code are all this browser has
    const room = await openByLink(t, agent, alice.phone);
    const view = ok(
      await agent.call<{ seals: { sealId: string; pngUrl: string }[] }>(getSigningRoom, {
        userType: 0,
        roomToken: room.roomToken,
      }),
      'room',
    );
    const seal = view.seals.find((s) => s.sealId === alice.sealId);
    expect(seal).toBeTruthy();
    const image = await getBytes(agent, `${seal!.pngUrl}?roomToken=${encodeURIComponent(room.roomToken)}`);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    expect((await getBytes(agent, seal!.pngUrl)).status).not.toBe(200);
    const bobRoom = await openByLink(t, t.agent(), bob.phone);
    const foreign = await getBytes(
      agent,
      `${seal!.pngUrl}?roomToken=${encodeURIComponent(bobRoom.roomToken)}`,
    );
    expect(foreign.status).not.toBe(200);
    expect((await getBytes(agent, `${seal!.pngUrl}?roomToken=made-up`)).status).not.toBe(200);
  }, 60_000);

  test('a seal already in a contract that is still being signed cannot be deleted until it ends', async () => {
    const carol = await personWithCert(t, '赵六');
    const { flowId } = await launchPersons([[carol.phone], [bob.phone]], { initiator: carol.agent });
    const carolRoom = await openByLink(t, t.agent(), carol.phone);
    ok(await sign(t, t.agent(), carolRoom, carol.phone, { personSealId: carol.sealId! }), 'carol signs');
    const refused = await carol.agent.call(deleteSeal, { userType: 0, sealId: carol.sealId });
    expect(refused.body.code).toBe(Code.Refused);
    expect(refused.body.msg).toMatch(/not finished/);
    const bobRoom = await openByLink(t, t.agent(), bob.phone);
    ok(await sign(t, t.agent(), bobRoom, bob.phone, { personSealId: bob.sealId! }), 'bob signs');
    expect((await detailOf(carol.agent, flowId)).status).toBe('completed');
    expect((await carol.agent.call(deleteSeal, { userType: 0, sealId: carol.sealId })).body.code).toBe(0);
  }, 60_000);

  test('a party who just opened the room by its link may ask for the signing code at once; the login code does not sign', async () => {
    const { flowId } = await launchPersons([[bob.phone]]);
    const link = await linkFor(t, bob.phone);
    const agent = t.agent();
    ok(await agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: bob.phone }), 'link sms');
    const loginCode = await t.smsCodeFor(bob.phone, 'roomLogin');
    const room = ok(
      await agent.call<RoomLogin>(signingRoomLoginByLinkCode, {
        userType: 0,
        ...link,
        phone: bob.phone,
        smsCode: loginCode,
      }),
      'link login',
    );
    // No clock advance: the signing code is a different purpose from the login code, so no resend wait.
    ok(await agent.call(sendSignSmsCode, { userType: 0, roomToken: room.roomToken }), 'sign sms right away');
    const withLoginCode = await agent.call(signDocument, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: loginCode,
      personSealId: bob.sealId,
    });
    expect(withLoginCode.body.code).toBe(Code.SmsCodeInvalid);
    const signCodeNow = await t.smsCodeFor(bob.phone, 'sign');
    t.clock.advance(61_000);
    // The wrong attempt above counts; the right code still signs.
    const signed = await agent.call(signDocument, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: signCodeNow,
      personSealId: bob.sealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect((await detailOf(bob.agent, flowId)).status).toBe('completed');
  }, 60_000);

  test("out of turn, with another party's link, twice, and a wrong / replayed SMS code", async () => {
    const { flowId } = await launchPersons([[alice.phone], [bob.phone]]);
    // Bob's link does not exist yet (his step has not started): his session room says not his turn.
    const bobRoom = await roomFor(bob.agent, flowId, bob.phone);
    const early = await bob.agent.call(signDocument, {
      userType: 0,
      roomToken: bobRoom.roomToken,
      smsCode: '123456',
      personSealId: bob.sealId,
    });
    expect(early.body.code).toBe(Code.NotYourTurn);
    // Alice's link with Bob's phone: refused without telling anything.
    const link = await linkFor(t, alice.phone);
    const wrongPhone = await t.agent().call(sendLinkSmsCode, { userType: 0, ...link, phone: bob.phone });
    expect(wrongPhone.body.code).toBe(Code.LinkInvalid);
    const badLogin = await t
      .agent()
      .call(signingRoomLoginByLinkCode, { userType: 0, ...link, phone: bob.phone, smsCode: '000000' });
    expect(badLogin.body.code).toBe(Code.LinkInvalid);
    // Bob's session cannot open Alice's party.
    const aliceParty = (await detailOf(alice.agent, flowId)).steps[0].parties[0].partyId;
    const steal = await bob.agent.call(signingRoomLogin, { userType: 0, flowId, partyId: aliceParty });
    expect(steal.body.code).toBe(Code.NotFound);
    // Alice: a wrong code, then the right one, then the same code again.
    const room = await openByLink(t, t.agent(), alice.phone);
    const code = await signCode(t, t.agent(), room.roomToken, alice.phone);
    const wrong = await t.agent().call(signDocument, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: code === '111111' ? '222222' : '111111',
      personSealId: alice.sealId,
    });
    expect(wrong.body.code).toBe(Code.SmsCodeInvalid);
    const right = await t.agent().call(signDocument, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: code,
      personSealId: alice.sealId,
    });
    expect(right.body.code, right.body.msg).toBe(0);
    const twice = await t.agent().call(signDocument, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: code,
      personSealId: alice.sealId,
    });
    expect(twice.body.code).toBe(Code.AlreadySigned);
    // Bob's turn now; replaying Alice's used code on his room is refused.
    const bobRoom2 = await openByLink(t, t.agent(), bob.phone);
    const replay = await t.agent().call(signDocument, {
      userType: 0,
      roomToken: bobRoom2.roomToken,
      smsCode: code,
      personSealId: bob.sealId,
    });
    expect(replay.body.code).toBe(Code.SmsCodeInvalid);
    // Alice's person seal is not Bob's.
    const notHis = await sign(t, t.agent(), bobRoom2, bob.phone, { personSealId: alice.sealId! });
    expect(notHis.body.code).toBe(Code.SealNotUsable);
  }, 120_000);

  test('after the deadline, after cancel, after decline; another account sees NotFound', async () => {
    const soon = new Date(t.clock.now().getTime() + 10 * 60_000).toISOString();
    const a = await launchPersons([[bob.phone]], { deadline: soon });
    const roomA = await roomFor(bob.agent, a.flowId, bob.phone);
    t.clock.advance(11 * 60_000);
    const late = await bob.agent.call(signDocument, {
      userType: 0,
      roomToken: roomA.roomToken,
      smsCode: '123456',
      personSealId: bob.sealId,
    });
    expect(late.body.code).toBe(Code.DeadlinePassed);
    expect((await detailOf(alice.agent, a.flowId)).status).toBe('expired');

    const b = await launchPersons([[bob.phone]]);
    const roomB = await roomFor(bob.agent, b.flowId, bob.phone);
    ok(
      await alice.agent.call(cancelFlow, { userType: 0, flowId: b.flowId, reason: 'wrong terms' }),
      'cancel',
    );
    const afterCancel = await bob.agent.call(signDocument, {
      userType: 0,
      roomToken: roomB.roomToken,
      smsCode: '123456',
      personSealId: bob.sealId,
    });
    expect(afterCancel.body.code).toBe(Code.FlowClosed);
    expect(
      (await alice.agent.call(cancelFlow, { userType: 0, flowId: b.flowId, reason: 'again' })).body.code,
    ).toBe(Code.FlowClosed);

    const c = await launchPersons([[bob.phone, company.operator.phone]]);
    const roomC = await roomFor(bob.agent, c.flowId, bob.phone);
    ok(
      await bob.agent.call(declineFlow, { userType: 0, roomToken: roomC.roomToken, reason: 'price' }),
      'decline',
    );
    const afterDecline = await bob.agent.call(signDocument, {
      userType: 0,
      roomToken: roomC.roomToken,
      smsCode: '123456',
      personSealId: bob.sealId,
    });
    expect(afterDecline.body.code).toBe(Code.FlowClosed);
    expect((await detailOf(alice.agent, c.flowId)).status).toBe('declined');

    // Another account: NotFound for the flow, its audit trail, its documents; no cancel or remind.
    const other = company.admin.agent;
    expect((await other.call(getFlowDetail, { userType: 1, flowId: c.flowId })).body.code).toBe(
      Code.NotFound,
    );
    expect((await other.call(getAuditTrail, { userType: 1, flowId: c.flowId })).body.code).toBe(
      Code.NotFound,
    );
    expect((await other.call(cancelFlow, { userType: 1, flowId: c.flowId, reason: 'x' })).body.code).toBe(
      Code.NotFound,
    );
    expect((await other.call(remindSigners, { userType: 1, flowId: c.flowId })).body.code).toBe(
      Code.NotFound,
    );
    const dl = await getBytes(other, `/v1/account/api/csign/downloadDocument/${c.documentId}`);
    expect(dl.type).not.toMatch(/pdf/);
    // Quota: the three ended flows released their units.
    const quota = ok(await alice.agent.call<{ reserved: number }>(getQuota, { userType: 0 }), 'quota');
    const open = ok(
      await alice.agent.call<{ total: number }>(listLaunchedFlows, { userType: 0, status: 'signing' }),
      'open',
    );
    expect(quota.reserved).toBe(open.total);
  }, 120_000);

  test('a company seal not authorised to the operator, and a signer without certificate', async () => {
    const doc = ok(await uploadPdf(alice.agent, pdf), 'upload');
    const noCert = await personWithCert(t, '赵六', { cert: false });
    const res = await alice.agent.call<{ flowId: string }>(launchFlow, {
      userType: 0,
      title: 'company',
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'company',
              companyId: company.id,
              operatorPhone: company.operator.phone,
              applies: { companySealType: 102 },
              positions: [{ documentId: doc.documentId, page: 1, rect: [300, 100, 420, 220] }],
            },
            {
              kind: 'person',
              name: '赵六',
              phone: noCert.phone,
              positions: [{ documentId: doc.documentId, page: 2, rect: [100, 100, 200, 150] }],
            },
          ],
        },
      ],
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const opRoom = await openByLink(t, t.agent(), company.operator.phone);
    const finance = await sign(t, t.agent(), opRoom, company.operator.phone, {
      companySealId: company.financeSealId,
    });
    expect(finance.body.code).toBe(Code.SealNotUsable);
    const legal = await sign(t, t.agent(), opRoom, company.operator.phone, {
      companySealId: company.legalPersonSealId,
    });
    expect(legal.body.code).toBe(Code.SealNotUsable);
    const noCertRoom = await openByLink(t, t.agent(), noCert.phone);
    const refused = await sign(t, t.agent(), noCertRoom, noCert.phone, { personSealId: noCert.sealId! });
    expect(refused.body.code).toBe(Code.SignerNoCertificate);
    expect(refused.body.msg).toMatch(/open e-signature/);
  }, 120_000);
});

describe('crash safety and concurrency', () => {
  test('a failure between blob write and version move, and a storage failure, leave the previous version', async () => {
    const { flowId, documentId } = await launchPersons([[bob.phone]]);
    const room = await roomFor(bob.agent, flowId, bob.phone);
    const before = (await getBytes(alice.agent, `/v1/account/api/csign/downloadDocument/${documentId}`))
      .bytes;
    setSigningFaults(t.deps, {
      afterBlobWrite: () => {
        throw new Error('killed after the blob write');
      },
    });
    const crashed = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
    setSigningFaults(t.deps, undefined);
    expect(crashed.body.code).toBe(Code.Internal);
    const same = (await getBytes(alice.agent, `/v1/account/api/csign/downloadDocument/${documentId}`)).bytes;
    expect(Buffer.from(same).equals(Buffer.from(before))).toBe(true);
    let d = await detailOf(alice.agent, flowId);
    expect(d.documents[0].signatureCount).toBe(0);
    expect(d.steps[0].parties[0].status).toBe('pending');

    const put = t.deps.storage.put.bind(t.deps.storage);
    t.deps.storage.put = async () => {
      throw new Error('disk full');
    };
    const noDisk = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
    t.deps.storage.put = put;
    expect(noDisk.body.code).toBe(Code.Internal);
    d = await detailOf(alice.agent, flowId);
    expect(d.documents[0].sha256).toBe(d.documents[0].sha256);
    expect(d.documents[0].signatureCount).toBe(0);

    const ok2 = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
    expect(ok2.body.code, ok2.body.msg).toBe(0);
    expect(ok2.body.data.flowStatus).toBe('completed');
    const trail = ok(
      await alice.agent.call<{ chains: { isIntact: boolean }[] }>(getAuditTrail, { userType: 0, flowId }),
      'trail',
    );
    expect(trail.chains.every((c) => c.isIntact)).toBe(true);
  }, 120_000);

  test('two parties of a parallel step signing at the same moment: both signatures kept, each appended', async () => {
    const carol = await personWithCert(t, '陈八');
    const { flowId, documentId } = await launchPersons([[bob.phone, carol.phone]]);
    const bobRoom = await openByLink(t, t.agent(), bob.phone);
    const carolRoom = await openByLink(t, t.agent(), carol.phone);
    const [c1, c2] = [
      await signCode(t, t.agent(), bobRoom.roomToken, bob.phone),
      await signCode(t, t.agent(), carolRoom.roomToken, carol.phone),
    ];
    const [r1, r2] = await Promise.all([
      t.agent().call<{ flowStatus: string }>(signDocument, {
        userType: 0,
        roomToken: bobRoom.roomToken,
        smsCode: c1,
        personSealId: bob.sealId,
      }),
      t.agent().call<{ flowStatus: string }>(signDocument, {
        userType: 0,
        roomToken: carolRoom.roomToken,
        smsCode: c2,
        personSealId: carol.sealId,
      }),
    ]);
    expect(r1.body.code, r1.body.msg).toBe(0);
    expect(r2.body.code, r2.body.msg).toBe(0);
    const d = await detailOf(alice.agent, flowId);
    expect(d.status).toBe('completed');
    expect(d.documents[0].signatureCount).toBe(2);
    const final = (
      await getBytes(alice.agent, `/v1/account/api/csign/downloadSignedPdf/${flowId}/${documentId}`)
    ).bytes;
    const { verifyPdf } = await import('#server/pdf/verify/verify-pdf.ts');
    const { pkiFor } = await import('#server/modules/pki/index.ts');
    const report = await verifyPdf(final, {
      trustAnchors: [(await pkiFor(t.deps)).ca.root.der],
      now: t.clock.now(),
    });
    expect(report.verdict).toBe('TOTAL_PASSED');
    expect(report.signatures).toHaveLength(3);
  }, 120_000);

  test('parallel launches against the last quota unit: exactly one wins', async () => {
    const p = await personWithCert(t, '孙七', { seal: false, cert: false });
    const quota = ok(await p.agent.call<{ remaining: number }>(getQuota, { userType: 0 }), 'quota');
    // Use all but one unit directly in the table, as earlier launches would have.
    await t.db.execute(
      sql`INSERT INTO signing_quotas (owner_type, owner_id, reserved) VALUES (0, ${p.userId}, ${quota.remaining - 1})`,
    );
    const docs = [];
    for (let i = 0; i < 4; i++) docs.push(ok(await uploadPdf(p.agent, pdf), 'upload').documentId);
    const results = await Promise.all(
      docs.map((documentId) =>
        p.agent.call(launchFlow, {
          userType: 0,
          title: 'race',
          documentIds: [documentId],
          steps: [
            {
              parties: [
                {
                  kind: 'person',
                  name: 'b',
                  phone: bob.phone,
                  positions: [{ documentId, page: 1, rect: [100, 100, 200, 150] }],
                },
              ],
            },
          ],
        }),
      ),
    );
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, Code.QuotaExhausted, Code.QuotaExhausted, Code.QuotaExhausted]);
    const after = ok(await p.agent.call<{ remaining: number }>(getQuota, { userType: 0 }), 'quota');
    expect(after.remaining).toBe(0);
  }, 120_000);

  test('a tampered audit entry is detected', async () => {
    const { flowId } = await launchPersons([[bob.phone]]);
    ok(await alice.agent.call(remindSigners, { userType: 0, flowId }), 'remind');
    let trail = ok(
      await alice.agent.call<{ chains: { isIntact: boolean }[] }>(getAuditTrail, { userType: 0, flowId }),
      'trail',
    );
    expect(trail.chains[0].isIntact).toBe(true);
    await t.db.execute(sql`UPDATE audit_entries SET ip = '10.6.6.6' WHERE flow_id = ${flowId} AND seq = 1`);
    trail = ok(
      await alice.agent.call<{ chains: { isIntact: boolean; brokenAtSeq: number | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'trail',
    );
    expect(trail.chains[0]).toMatchObject({ isIntact: false, brokenAtSeq: 1 });
  }, 60_000);
});
