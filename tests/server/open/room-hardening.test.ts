import { randomUUID } from 'node:crypto';
// Issue 23. H1: an embedded signing room proves only what it is told. Any registered person can make an API
// key, launch a flow to someone else's phone and open that party's room from the signing URL. The room may
// sign as the phone's account with the party's intent check (the integrator vouches, the code proves), but
// it never logs the browser in, never reaches another flow, and never makes an account, writes an identity or
// issues a certificate before the phone is proven here by a code (or the platform trusts the key to assert
// identities). Then every room call is walked with such a token. L1: a room's signing code signs only its own
// party. M2: nobody outside a room can ask, or use up, that room's codes.
import { beforeAll, describe, expect, test } from 'vitest';
import { getUserAgreement } from '#contract/calls/person.ts';
import {
  type AuditEntry,
  type RoomLogin,
  type SigningRoom,
  declineFlow,
  getAuditTrail,
  getFlowDetail,
  getSigningRoom,
  listPendingSignatures,
  roomAcceptAgreement,
  roomConfirmCompany,
  roomOpenCompany,
  roomProvePhone,
  roomRealName,
  sendSignSmsCode,
  setSigningPassword,
  signDocument,
  signingRoomLogin,
  signingRoomLoginByEmbed,
  sendLinkSmsCode,
  startRoomFaceAuth,
} from '#contract/calls/flow.ts';
import {
  AUDIT_REPORT_PATH,
  DOCUMENT_DOWNLOAD_PATH,
  SIGNED_PDF_PATH,
  getDocumentInfo,
} from '#contract/calls/document.ts';
import { SEAL_IMAGE_PATH } from '#contract/calls/seal.ts';
import { allCalls } from '#contract/calls/index-of-calls.ts';
import {
  FIELD_ATTACHMENT_PATH,
  removeRoomAttachment,
  saveRoomFields,
  uploadRoomAttachment,
} from '#contract/calls/fields.ts';
import { callPath } from '#contract/envelope.ts';
import { greyPng } from '../fixtures/png.ts';
import { Code } from '#contract/codes.ts';
import { listReassignCandidates, listReassignments, reassignParty } from '#contract/calls/reassign.ts';
import { addFlowComment, listFlowComments, setCommentThreadResolved } from '#contract/calls/comments.ts';
import { compareFlowRevisions, listFlowRevisions } from '#contract/calls/revisions.ts';
import { getRoomApprovals, requestSealApproval } from '#contract/calls/approval.ts';
import { UserType } from '#contract/enums.ts';
import { setKeyTrust } from '../../../server/modules/apikey/index.ts';
import { personOnboardingState } from '../../../server/modules/person/index.ts';
import { pkiFor } from '../../../server/modules/pki/index.ts';
import { findUserByPhone } from '../../../server/modules/session/index.ts';
import { type Agent, type CallResult, registerAndLogin, uniquePhone, appForFile } from '../helper.ts';
import {
  type Signer,
  contractPdf,
  drawnSignature,
  getBytes,
  linkFor,
  ok,
  personWithCert,
  sign,
} from '../fixtures/flow.ts';
import { sendSmsCode } from '#contract/calls/session.ts';
import { newIdNumber } from '../fixtures/person.ts';
import { makeKey, open } from '../fixtures/open.ts';

const t = appForFile();
let owner: Signer;
let attacker: Signer;
let ownerKey: string;
let attackerKey: { secret: string; keyId: string };
let version: string;

const codeOf = (url: string) => new URLSearchParams(url.split('?')[1]).get('code')!;
const noCookies = (res: CallResult) => expect(Object.keys(res.setCookies), 'cookies set').toEqual([]);

/** Uploads a contract and launches a one-party flow to `phone` with `key`: the flow, party and document. */
async function launchTo(
  key: string,
  phone: string,
  title: string,
  name: string | null = '受害人',
  /** whether the party fills a field (issue 28) */
  withField = false,
) {
  const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
    key,
    body: {
      filename: `${title}.pdf`,
      contentBase64: Buffer.from(await contractPdf(1, title)).toString('base64'),
    },
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const documentId = up.body.data.documentId;
  const launched = await open<{ flowId: string }>(t, 'POST', '/flows', {
    key,
    body: {
      from: 'documents',
      title,
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              ...(name ? { name } : {}),
              phone,
              intent: 'sms',
              positions: [{ documentId, keyword: 'Party B (signature):' }],
              ...(withField
                ? {
                    fields: [
                      {
                        key: 'scan',
                        label: 'Scan',
                        kind: 'attachment',
                        position: { documentId, page: 1, mm: { left: 20, top: 20, width: 60, height: 8 } },
                      },
                    ],
                  }
                : {}),
            },
          ],
        },
      ],
    },
  });
  expect(launched.status, JSON.stringify(launched.body)).toBe(201);
  const flowId = launched.body.data.flowId;
  const detail = await open<{ steps: { parties: { partyId: string }[] }[]; fields: { fieldId: string }[] }>(
    t,
    'GET',
    `/flows/${flowId}`,
    { key },
  );
  return {
    flowId,
    partyId: detail.body.data.steps[0].parties[0].partyId,
    documentId,
    fieldIds: detail.body.data.fields.map((f) => f.fieldId),
  };
}

/** Opens the party's room from an embedded-signing URL in a browser without cookies. */
async function embedRoom(
  key: string,
  flowId: string,
  partyId: string,
): Promise<{ agent: Agent; room: RoomLogin }> {
  const url = await open<{ url: string }>(t, 'POST', `/flows/${flowId}/parties/${partyId}/signing-url`, {
    key,
    body: {},
  });
  expect(url.status, JSON.stringify(url.body)).toBe(201);
  const agent = t.agent();
  const login = await agent.call<RoomLogin>(signingRoomLoginByEmbed, {
    userType: 0,
    embedCode: codeOf(url.body.data.url),
  });
  noCookies(login);
  return { agent, room: ok(login, 'embed login') };
}

const roomCall = <T>(agent: Agent, def: Parameters<Agent['call']>[0], roomToken: string, body: object = {}) =>
  agent.call<T>(def, { userType: 0, roomToken, ...body });

beforeAll(async () => {
  owner = await personWithCert(t, '周发起');
  attacker = await personWithCert(t, '钱攻击');
  ownerKey = (await makeKey(owner.agent, ['flows:read', 'flows:write'])).secret;
  attackerKey = await makeKey(attacker.agent, ['flows:read', 'flows:write']);
  version = ok(
    await t.agent().call<{ version: string }>(getUserAgreement, { userType: 0 }),
    'agreement',
  ).version;
}, 180_000);

describe('H1: an embedded room onboards nobody before its phone is proven', () => {
  test('a phone without an account: no account, no identity, no session; the owner registers and signs later', async () => {
    const victim = uniquePhone();
    const loan = await launchTo(ownerKey, victim, 'confidential loan contract');
    const bait = await launchTo(attackerKey.secret, victim, 'bait');
    const { agent, room } = await embedRoom(attackerKey.secret, bait.flowId, bait.partyId);

    const view = ok(await roomCall<SigningRoom>(agent, getSigningRoom, room.roomToken), 'room');
    expect(view.onboarding.step).toBe('provePhone');
    expect(view.onboarding.isPhoneProven).toBe(false);
    expect(view.onboarding.hasAccount).toBe(false);

    const named = await roomCall(agent, roomRealName, room.roomToken, {
      name: '受害人',
      idNumber: newIdNumber(),
    });
    expect(named.body.code).toBe(Code.Refused);
    expect(named.body.msg).toMatch(/SMS code|短信验证码/);
    noCookies(named);
    const accepted = await roomCall(agent, roomAcceptAgreement, room.roomToken, { version });
    expect(accepted.body.code).toBe(Code.Refused);
    noCookies(accepted);
    expect(await findUserByPhone(t.db, victim)).toBeNull();

    // The browser has no session: nothing outside the room answers it.
    const pending = await agent.call(listPendingSignatures, { userType: 0 });
    expect(pending.body.code).toBe(Code.NotLoggedIn);
    expect(agent.sid).toBeUndefined();

    // The phone's owner registers (no 1203) and finds the loan contract to sign.
    const real = await registerAndLogin(t, { phone: victim });
    const list = ok(
      await real.agent.call<{ list: { flowId: string; title: string }[] }>(listPendingSignatures, {
        userType: 0,
      }),
      'pending',
    );
    expect(list.list.map((f) => f.flowId)).toContain(loan.flowId);
    // ... and signs it from the workspace: the room of a session proves the phone, so it onboards.
    const room2 = ok(
      await real.agent.call<RoomLogin>(signingRoomLogin, {
        userType: 0,
        flowId: loan.flowId,
        partyId: loan.partyId,
      }),
      'session room',
    );
    ok(
      await roomCall(real.agent, roomRealName, room2.roomToken, { name: '受害人', idNumber: newIdNumber() }),
      'name',
    );
    ok(await roomCall(real.agent, roomAcceptAgreement, room2.roomToken, { version }), 'accept');
    const signed = await sign(t, real.agent, room2, victim, { signaturePng: await drawnSignature() });
    expect(ok(signed, 'sign').flowStatus).toBe('completed');
  });

  test('a phone whose account has no real name: nothing written to it, no certificate', async () => {
    const victim = await registerAndLogin(t);
    const userId = victim.info.userId;
    const bait = await launchTo(attackerKey.secret, victim.phone, 'bait 2');
    const { agent, room } = await embedRoom(attackerKey.secret, bait.flowId, bait.partyId);
    const view = ok(await roomCall<SigningRoom>(agent, getSigningRoom, room.roomToken), 'room');
    expect(view.onboarding.step).toBe('provePhone');
    expect(view.signer.name).toBeNull();

    const named = await roomCall(agent, roomRealName, room.roomToken, {
      name: '受害人',
      idNumber: newIdNumber(),
    });
    expect(named.body.code).toBe(Code.Refused);
    const accepted = await roomCall(agent, roomAcceptAgreement, room.roomToken, { version });
    expect(accepted.body.code).toBe(Code.Refused);
    for (const r of [named, accepted]) noCookies(r);
    expect((await personOnboardingState(t.deps, userId)).realName).toBeNull();
    const pki = await pkiFor(t.deps);
    expect(await pki.current({ userType: UserType.Person, accountId: userId })).toBeUndefined();
  });

  test('a code to the phone proves it in the room: onboarding and signing work, still without a session', async () => {
    const signer = uniquePhone();
    const flow = await launchTo(ownerKey, signer, 'embedded newcomer', '孙新人');
    const { agent, room } = await embedRoom(ownerKey, flow.flowId, flow.partyId);
    const wrong = await roomCall(agent, roomProvePhone, room.roomToken, { smsCode: '000000' });
    expect(wrong.body.code).toBe(Code.SmsCodeInvalid);
    ok(await roomCall(agent, sendSignSmsCode, room.roomToken, { purpose: 'roomLogin' }), 'proof code');
    const proven = await roomCall<SigningRoom['onboarding']>(agent, roomProvePhone, room.roomToken, {
      smsCode: await t.smsCodeFor(signer, 'roomLogin'),
    });
    expect(ok(proven, 'prove').step).toBe('nameAuthentication');
    expect(proven.body.data.isPhoneProven).toBe(true);
    noCookies(proven);
    // Asking again once proven is refused, not sent.
    const again = await roomCall(agent, sendSignSmsCode, room.roomToken, { purpose: 'roomLogin' });
    expect(again.body.code).toBe(Code.Refused);

    ok(
      await roomCall(agent, roomRealName, room.roomToken, { name: '孙新人', idNumber: newIdNumber() }),
      'name',
    );
    const accepted = await roomCall<SigningRoom['onboarding']>(agent, roomAcceptAgreement, room.roomToken, {
      version,
    });
    expect(ok(accepted, 'accept').step).toBe('none');
    noCookies(accepted);
    expect(agent.sid).toBeUndefined();

    ok(await roomCall(agent, sendSignSmsCode, room.roomToken), 'sign code');
    const signed = await roomCall<{ flowStatus: string }>(agent, signDocument, room.roomToken, {
      smsCode: await t.smsCodeFor(signer, 'sign'),
      signaturePng: await drawnSignature(),
    });
    expect(ok(signed, 'sign').flowStatus).toBe('completed');
    noCookies(signed);
  });

  test('a key the platform trusts asserts the identity: onboarding without a code, recorded with the key', async () => {
    const trusted = await makeKey(owner.agent, ['flows:read', 'flows:write'], 0, 'trusted ERP');
    expect(trusted.assertsIdentity).toBe(false);
    const set = await setKeyTrust(t.deps, trusted.keyId, true);
    expect(set.assertsIdentity).toBe(true);
    const signer = uniquePhone();
    const flow = await launchTo(trusted.secret, signer, 'trusted onboarding', '李担保');
    const { agent, room } = await embedRoom(trusted.secret, flow.flowId, flow.partyId);
    const view = ok(await roomCall<SigningRoom>(agent, getSigningRoom, room.roomToken), 'room');
    expect(view.onboarding.step).toBe('nameAuthentication');
    expect(view.onboarding.isPhoneProven).toBe(true);
    ok(
      await roomCall(agent, roomRealName, room.roomToken, { name: '李担保', idNumber: newIdNumber() }),
      'name',
    );
    const accepted = await roomCall(agent, roomAcceptAgreement, room.roomToken, { version });
    ok(accepted, 'accept');
    noCookies(accepted);

    const trail = ok(
      await roomCall<{ entries: AuditEntry[] }>(agent, getAuditTrail, room.roomToken, {
        flowId: flow.flowId,
      }),
      'trail',
    );
    const viewed = trail.entries.filter((e) => e.event === 'view').map((e) => e.detail);
    expect(viewed.some((d) => d?.includes(trusted.keyId) && /identity asserted by the key/.test(d))).toBe(
      true,
    );
    // A key nobody trusted says which key vouched, without the assertion.
    const bait = await launchTo(attackerKey.secret, uniquePhone(), 'untrusted trail');
    const untrusted = await embedRoom(attackerKey.secret, bait.flowId, bait.partyId);
    ok(await roomCall(untrusted.agent, getSigningRoom, untrusted.room.roomToken), 'room');
    const trail2 = ok(
      await roomCall<{ entries: AuditEntry[] }>(untrusted.agent, getAuditTrail, untrusted.room.roomToken, {
        flowId: bait.flowId,
      }),
      'trail',
    );
    const detail = trail2.entries.find((e) => e.event === 'view')?.detail ?? '';
    expect(detail).toContain(attackerKey.keyId);
    expect(detail).not.toMatch(/asserted/);
  });
});

describe('every room call with an embedded room token reaches only its own flow and party', () => {
  test('the walk', async () => {
    // The owner's flow to a person with a certificate, who signs nothing here; the attacker's to the same phone.
    const party = await personWithCert(t, '吴签署');
    const theirs = await launchTo(ownerKey, party.phone, 'their contract', '吴签署', true);
    expect(theirs.fieldIds).toHaveLength(1);
    const theirField = theirs.fieldIds[0];
    const mine = await launchTo(attackerKey.secret, party.phone, 'my contract', '吴签署');
    const { agent, room } = await embedRoom(attackerKey.secret, mine.flowId, mine.partyId);
    const token = room.roomToken;
    const auditOf = async (flowId: string) =>
      ok(await owner.agent.call<{ entries: AuditEntry[] }>(getAuditTrail, { userType: 0, flowId }), 'trail')
        .entries.length;
    const theirAuditBefore = await auditOf(theirs.flowId);
    const answers: CallResult[] = [];
    const call = async <T>(def: Parameters<Agent['call']>[0], body: object = {}) => {
      const res = await roomCall<T>(agent, def, token, body);
      answers.push(res);
      return res;
    };
    const notFound = (res: CallResult) =>
      expect([Code.NotFound], JSON.stringify(res.body)).toContain(res.body.code);

    // Each call of the contract that takes a roomToken is walked below (a new one must be added here).
    const walked = new Map<string, () => Promise<void>>([
      [
        getSigningRoom.name,
        async () => {
          const view = ok(await call<SigningRoom>(getSigningRoom), 'room');
          expect(view.flow.flowId).toBe(mine.flowId);
          expect(view.party.partyId).toBe(mine.partyId);
          expect(view.documents.map((d) => d.documentId)).toEqual([mine.documentId]);
          // Not proven: the account's real name stays unknown to the room.
          expect(view.signer.name).toBeNull();
        },
      ],
      [
        getFlowDetail.name,
        async () => {
          notFound(await call(getFlowDetail, { flowId: theirs.flowId }));
          expect(
            ok(await call<{ flowId: string }>(getFlowDetail, { flowId: mine.flowId }), 'detail').flowId,
          ).toBe(mine.flowId);
        },
      ],
      [
        getAuditTrail.name,
        async () => {
          notFound(await call(getAuditTrail, { flowId: theirs.flowId }));
          ok(await call(getAuditTrail, { flowId: mine.flowId }), 'own trail');
        },
      ],
      [
        getDocumentInfo.name,
        async () => {
          notFound(await call(getDocumentInfo, { documentId: theirs.documentId }));
          ok(await call(getDocumentInfo, { documentId: mine.documentId }), 'own document');
        },
      ],
      [
        sendSignSmsCode.name,
        async () => {
          ok(await call(sendSignSmsCode), 'sign code');
          t.clock.advance(61_000);
          ok(await call(sendSignSmsCode, { purpose: 'signingPassword' }), 'password code');
          t.clock.advance(61_000);
        },
      ],
      [
        setSigningPassword.name,
        async () => {
          const res = await call(setSigningPassword, { smsCode: '000000', password: 'Sign-pass-1' });
          expect(res.body.code).toBe(Code.SmsCodeInvalid);
        },
      ],
      [
        startRoomFaceAuth.name,
        async () => {
          const res = await call(startRoomFaceAuth, { deviceType: 'pc', signUrl: '/signingRoom' });
          expect(res.body.code).toBe(Code.Refused);
        },
      ],
      [
        roomProvePhone.name,
        async () => {
          expect((await call(roomProvePhone, { smsCode: '000000' })).body.code).toBe(Code.SmsCodeInvalid);
        },
      ],
      [
        roomRealName.name,
        async () => {
          const res = await call(roomRealName, { name: '吴签署', idNumber: newIdNumber() });
          expect(res.body.code).toBe(Code.Refused);
        },
      ],
      [
        roomAcceptAgreement.name,
        async () => expect((await call(roomAcceptAgreement, { version })).body.code).toBe(Code.Refused),
      ],
      [
        roomOpenCompany.name,
        async () => {
          const res = await call(roomOpenCompany, {
            creditCode: '91110000100000000X',
            legalRepName: '吴签署',
          });
          expect(res.body.code).toBe(Code.Refused);
        },
      ],
      [
        roomConfirmCompany.name,
        async () => expect((await call(roomConfirmCompany, { amount: '0.12' })).body.code).toBe(Code.Refused),
      ],
      [
        getRoomApprovals.name,
        async () => {
          // A person's party has no company seal to approve: nothing of any company shows.
          expect(ok(await call<{ seals: unknown[] }>(getRoomApprovals), 'approvals').seals).toEqual([]);
        },
      ],
      [
        requestSealApproval.name,
        async () => {
          // No company party here: asking to use any seal is refused, nothing is created or told.
          const res = await call(requestSealApproval, { sealId: randomUUID() });
          expect(res.body.code).toBe(Code.Refused);
        },
      ],
      [
        signDocument.name,
        async () => {
          // The party's own signing code of the owner's flow does not sign here, nor the reverse (L1).
          const res = await call(signDocument, { smsCode: '000000', personSealId: party.sealId });
          expect(res.body.code).toBe(Code.SmsCodeInvalid);
        },
      ],
      // Fields the signer fills (issue 28): the other flow's field is not found for this room.
      [
        saveRoomFields.name,
        async () => notFound(await call(saveRoomFields, { values: { [theirField]: 'x' } })),
      ],
      [
        uploadRoomAttachment.name,
        async () => {
          const res = await agent.upload(
            callPath(uploadRoomAttachment),
            { userType: '0', roomToken: token, fieldId: theirField },
            { bytes: greyPng(8, 100), filename: 'scan.png', type: 'image/png' },
          );
          answers.push(res);
          notFound(res);
        },
      ],
      [
        removeRoomAttachment.name,
        async () => notFound(await call(removeRoomAttachment, { fieldId: theirField })),
      ],
      // Reassign (issue 29): the other flow's party is not found for this room, nor is it handed over.
      [
        listReassignCandidates.name,
        async () => {
          notFound(await call(listReassignCandidates, { flowId: theirs.flowId, partyId: theirs.partyId }));
          // Its own party's neither, while the embedded room's phone is not proven.
          const own = await call(listReassignCandidates, { flowId: mine.flowId, partyId: mine.partyId });
          expect(own.body.code).toBe(Code.Refused);
        },
      ],
      [
        listReassignments.name,
        async () => {
          notFound(await call(listReassignments, { flowId: theirs.flowId }));
          ok(await call(listReassignments, { flowId: mine.flowId }), 'own history');
        },
      ],
      [
        reassignParty.name,
        async () => {
          const to = { name: '冒名', phone: uniquePhone() };
          notFound(
            await call(reassignParty, { flowId: theirs.flowId, partyId: theirs.partyId, to, reason: 'walk' }),
          );
          notFound(
            await call(reassignParty, { flowId: mine.flowId, partyId: theirs.partyId, to, reason: 'walk' }),
          );
          const own = await call(reassignParty, {
            flowId: mine.flowId,
            partyId: mine.partyId,
            to,
            reason: 'walk',
          });
          expect(own.body.code).toBe(Code.Refused);
        },
      ],
      // Comments and versions (issue 29): the other flow's are neither read nor written through this room.
      [
        listFlowComments.name,
        async () => {
          notFound(await call(listFlowComments, { flowId: theirs.flowId }));
          ok(await call(listFlowComments, { flowId: mine.flowId }), 'own comments');
        },
      ],
      [
        addFlowComment.name,
        async () => notFound(await call(addFlowComment, { flowId: theirs.flowId, body: 'walk' })),
      ],
      [
        setCommentThreadResolved.name,
        async () =>
          notFound(
            await call(setCommentThreadResolved, {
              flowId: theirs.flowId,
              threadId: randomUUID(),
              resolved: true,
            }),
          ),
      ],
      [
        listFlowRevisions.name,
        async () => {
          notFound(await call(listFlowRevisions, { flowId: theirs.flowId }));
          ok(await call(listFlowRevisions, { flowId: mine.flowId }), 'own versions');
        },
      ],
      [
        compareFlowRevisions.name,
        async () =>
          notFound(
            await call(compareFlowRevisions, {
              flowId: theirs.flowId,
              documentId: randomUUID(),
              older: 1,
              newer: 1,
            }),
          ),
      ],
      [
        declineFlow.name,
        async () => {
          ok(await call(declineFlow, { reason: 'walk' }), 'decline');
        },
      ],
    ]);
    const roomCalls = allCalls
      .filter((c) => {
        const shape = (c.request as unknown as { shape?: Record<string, unknown> }).shape;
        return shape !== undefined && 'roomToken' in shape;
      })
      .map((c) => c.name)
      .sort();
    expect([...walked.keys()].sort()).toEqual(roomCalls);
    for (const step of walked.values()) await step();

    // The GET routes that take ?roomToken=: the other flow's files and its owner's seal are not found.
    const q = `roomToken=${encodeURIComponent(token)}`;
    for (const url of [
      `${DOCUMENT_DOWNLOAD_PATH}/${theirs.documentId}?${q}`,
      `${DOCUMENT_DOWNLOAD_PATH}/${theirs.documentId}?version=original&${q}`,
      `${SIGNED_PDF_PATH}/${theirs.flowId}/${theirs.documentId}?${q}`,
      `${AUDIT_REPORT_PATH}/${theirs.flowId}?${q}`,
      `${SEAL_IMAGE_PATH}/${owner.sealId}.png?${q}`,
      `${FIELD_ATTACHMENT_PATH}/${theirField}?${q}`,
    ]) {
      // The spec's envelope, never the file: 1101 for the other flow, 1100 for a seal that is not the room's.
      const res = await getBytes(agent, url);
      expect(res.type, url).toMatch(/application\/json/);
      const body = JSON.parse(Buffer.from(res.bytes).toString()) as { code: number; data: unknown };
      expect([Code.NotFound, Code.Refused], url).toContain(body.code);
      expect(body.data).toBeNull();
    }
    const own = await getBytes(agent, `${DOCUMENT_DOWNLOAD_PATH}/${mine.documentId}?${q}`);
    expect(own.type).toMatch(/application\/pdf/);

    // No answer set a cookie; the owner's flow is untouched: still signing, its party pending, no new entry.
    for (const res of answers) noCookies(res);
    const detail = ok(
      await owner.agent.call<{ status: string; steps: { parties: { status: string }[] }[] }>(getFlowDetail, {
        userType: 0,
        flowId: theirs.flowId,
      }),
      'their detail',
    );
    expect(detail.status).toBe('signing');
    expect(detail.steps[0].parties[0].status).toBe('pending');
    expect(await auditOf(theirs.flowId)).toBe(theirAuditBefore);
  });
});

describe("L1 and M2: a room's codes are its own party's", () => {
  test("L1: a signing code asked in one flow's room does not sign another; the entry names its sending", async () => {
    const signer = await personWithCert(t, '郑两份');
    const one = await launchTo(ownerKey, signer.phone, 'flow one', '郑两份');
    const two = await launchTo(ownerKey, signer.phone, 'flow two', '郑两份');
    const roomOf = async (f: { flowId: string; partyId: string }) =>
      ok(
        await signer.agent.call<RoomLogin>(signingRoomLogin, {
          userType: 0,
          flowId: f.flowId,
          partyId: f.partyId,
        }),
        'room',
      ).roomToken;
    const r1 = await roomOf(one);
    const r2 = await roomOf(two);
    const before = t.clock.now().getTime();
    ok(await roomCall(signer.agent, sendSignSmsCode, r1), 'code of flow one');
    const code = await t.smsCodeFor(signer.phone, 'sign');
    const sealed = { personSealId: signer.sealId };
    const crossed = await roomCall(signer.agent, signDocument, r2, { smsCode: code, ...sealed });
    expect(crossed.body.code).toBe(Code.SmsCodeInvalid);
    // The code is still good where it was asked.
    const signed = await roomCall<{ flowStatus: string }>(signer.agent, signDocument, r1, {
      smsCode: code,
      ...sealed,
    });
    expect(ok(signed, 'sign').flowStatus).toBe('completed');
    const trail = ok(
      await owner.agent.call<{ entries: AuditEntry[] }>(
        getAuditTrail,
        { userType: 0, flowId: one.flowId },
        { headers: { 'accept-language': 'en-US' } },
      ),
      'trail',
    );
    const entry = trail.entries.find((e) => e.event === 'sign')!;
    const sent = /\(code sent (\S+)\)/.exec(entry.detail ?? '');
    expect(sent, entry.detail ?? '').not.toBeNull();
    const sentAt = Date.parse(sent![1]);
    expect(sentAt).toBeGreaterThanOrEqual(before - 1000);
    expect(sentAt).toBeLessThanOrEqual(t.clock.now().getTime());
  });

  test("M2: the public call sends no room code, and spending its allowance leaves the room's codes", async () => {
    const phone = uniquePhone();
    const stranger = t.agent();
    for (const purpose of ['sign', 'roomLogin'])
      expect((await stranger.call(sendSmsCode, { userType: 0, phone, purpose })).body.code, purpose).toBe(
        Code.BadRequest,
      );
    const flow = await launchTo(ownerKey, phone, 'codes of my own');
    const link = await linkFor(t, phone);
    // A stranger uses up every public allowance of that phone (login and password-reset codes). The hourly
    // counts are fixed windows: 30 tries, a minute apart, reach the limit even across one window's end.
    for (const purpose of ['login', 'resetPassword']) {
      let limited = false;
      for (let i = 0; i < 30 && !limited; i++) {
        const res = await stranger.call(sendSmsCode, { userType: 0, phone, purpose });
        limited =
          res.body.code === Code.RateLimited && !(res.body.data as { retryAfterSeconds?: number } | null);
        t.clock.advance(61_000);
      }
      expect(limited, purpose).toBe(true);
    }
    // The signer's link login still gets its code.
    const linkCode = await t.agent().call(sendLinkSmsCode, { userType: 0, ...link, phone });
    expect(linkCode.body.code).toBe(Code.Ok);

    // Each party's room codes are counted for that party: another flow's room exhausting its own leaves them.
    const other = await launchTo(attackerKey.secret, phone, 'noisy');
    const noisy = await embedRoom(attackerKey.secret, other.flowId, other.partyId);
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await roomCall(noisy.agent, sendSignSmsCode, noisy.room.roomToken);
      limited =
        res.body.code === Code.RateLimited && !(res.body.data as { retryAfterSeconds?: number } | null);
      t.clock.advance(61_000);
    }
    expect(limited).toBe(true);
    const mine = await embedRoom(ownerKey, flow.flowId, flow.partyId);
    ok(await roomCall(mine.agent, sendSignSmsCode, mine.room.roomToken), 'own room code');
  });
});
