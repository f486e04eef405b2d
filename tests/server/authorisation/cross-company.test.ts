// Cross-company grants (issue 27, e签宝's 跨企业授权用印): company A grants company B some of its seals by a
// `company` letter that B's administrator accepts; then B's administrator or handler seals A's party with a
// granted seal. The signature is A's (A's certificate, valid in pdfsig with A as its signer) and the sign audit
// entry names the letter. Refused: a seal the letter does not grant (1306), before acceptance, after revocation,
// after expiry, a member of a third company, B's member without the administrator or handler role (or whose
// handler role was taken, on the next call). The launcher's readiness check follows the grant. A's seal-use
// approval still applies: A's approver decides.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  type Letter,
  acceptAuthorisationLetter,
  listAuthorisationLetters,
  revokeAuthorisationLetter,
} from '#contract/calls/authorisation.ts';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { type SigningRoom, getAuditTrail, getSignerReadiness, getSigningRoom } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import type { Agent, TestApp } from '../helper.ts';
import { appForFile } from '../helper.ts';
import {
  type ApprovalCompany,
  askApproval,
  companyWithApprovers,
  decide,
  launchForCompany,
  memberWithRoles,
  savePolicy,
} from '../fixtures/approval.ts';
import { tryIssueLetter } from '../fixtures/authorisation.ts';
import { setRoles } from '../fixtures/roles.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  getBytes,
  ok,
  openByLink,
  sign,
} from '../fixtures/flow.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';

const t: TestApp = appForFile({ FREE_SIGNING_ALLOWANCE: '100', SMS_MAX_PER_PHONE_HOUR: '100' });
const MINUTE = 60_000;
/** The grantor (with an approver), the grantee, a third company, and the grantee's member without roles. */
let grantor: ApprovalCompany;
let grantee: TestCompany;
let third: TestCompany;
let plainMember: Signer;

beforeAll(async () => {
  grantor = await companyWithApprovers(t, ['钱审批']);
  grantee = await companyWithSeals(t, '孙管理');
  third = await companyWithSeals(t, '李管理');
  plainMember = await memberWithRoles(t, grantee, '周成员', []);
}, 240_000);

// Every test starts without a grant in force: the grantor's letters are revoked after each.
afterEach(async () => {
  const { list } = ok(
    await grantor.admin.agent.call<{ list: Letter[] }>(listAuthorisationLetters, {
      userType: 1,
      pageNum: 1,
      pageSize: 100,
    }),
    'letters',
  );
  for (const l of list)
    if (l.state !== 'revoked')
      ok(
        await grantor.admin.agent.call(revokeAuthorisationLetter, { userType: 1, letterId: l.letterId }),
        'revoke',
      );
});

/** A `company` letter of the grantor's seals to the grantee (valid `minutes` from now), accepted unless said. */
async function grant(sealIds: string[], opts: { accept?: boolean; minutes?: number } = {}): Promise<Letter> {
  const now = t.clock.now();
  const letter = ok(
    await tryIssueLetter(t, grantor, {
      kind: 'company',
      sealIds,
      granteeCompanyName: grantee.name,
      purpose: '集团代签子公司合同',
      validFrom: new Date(now.getTime() - 60_000).toISOString(),
      validTo: new Date(now.getTime() + (opts.minutes ?? 30 * 24 * 60) * MINUTE).toISOString(),
    }),
    'company letter',
  );
  if (opts.accept === false) return letter;
  return ok(
    await grantee.admin.agent.call<Letter>(acceptAuthorisationLetter, {
      userType: 1,
      letterId: letter.letterId,
    }),
    'accept',
  );
}

/** A flow of the grantor's company party (any company seal) addressed to `who`, and their room by link. */
async function roomFor(who: Signer, title: string) {
  const { flowId, documentId } = await launchForCompany(grantor, {
    handlerPhone: who.phone,
    title,
    applies: { anyCompanySeal: true },
  });
  const room = await openByLink(t, who.agent, who.phone);
  return { flowId, documentId, room };
}

const roomOf = (agent: Agent, roomToken: string) =>
  agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken }).then((r) => ok(r, 'room'));

const signDetails = async (flowId: string) =>
  ok(
    await grantor.admin.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
      userType: 1,
      flowId,
    }),
    'trail',
  ).entries.filter((e) => e.event === 'sign');

describe('sealing under a cross-company grant', () => {
  test('the grantee’s handler sees and seals with the granted seal only; the signature is the grantor’s (pdfsig); the trail names the letter', async () => {
    const letter = await grant([grantor.contractSealId]);
    const handler = grantee.operator;
    const { flowId, documentId, room } = await roomFor(handler, '子公司采购合同');
    const seen = await roomOf(handler.agent, room.roomToken);
    // The room offers the granted seal with its grant, and asks the grantee's handler to join nothing.
    expect(seen.seals.map((s) => s.sealId)).toEqual([grantor.contractSealId]);
    expect(seen.seals[0].grant).toEqual({ companyName: grantor.name, letterNumber: letter.number });
    expect(seen.onboarding.step).toBe('none');
    expect(seen.signer.hasCertificate).toBe(true);
    const image = await getBytes(handler.agent, `${seen.seals[0].pngUrl}?roomToken=${room.roomToken}`);
    expect(image.status).toBe(200);
    // A seal of the grantor the letter does not grant: the clear seal-not-usable code.
    const notGranted = await sign(t, handler.agent, room, handler.phone, {
      companySealId: grantor.financeSealId,
    });
    expect(notGranted.body.code, notGranted.body.msg).toBe(Code.SealNotUsable);
    const signed = await sign(t, handler.agent, room, handler.phone, {
      companySealId: grantor.contractSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    const [entry] = await signDetails(flowId);
    expect(entry.detail).toContain(`seals ${grantor.contractSealId}`);
    expect(entry.detail).toContain(`letter ${letter.number}`);
    const pdf = await getBytes(grantor.admin.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(pdf.status).toBe(200);
    const out = pdfsigReport(pdf.bytes, (await pkiFor(t.deps)).rootPem);
    if (out !== null) {
      expect(out, out).toContain('Signature is Valid.');
      expect(out, out).not.toMatch(/Signature is Invalid|Not Trusted/);
      expect(out, out).toContain(`Signer Certificate Common Name: ${grantor.name}`);
    }
  }, 120_000);

  test('before acceptance, after revocation and after expiry the grantee’s handler is refused (the next call)', async () => {
    const handler = grantee.operator;
    const pending = await grant([grantor.contractSealId], { accept: false });
    const { room } = await roomFor(handler, '未接受的授权');
    expect((await roomOf(handler.agent, room.roomToken)).seals).toEqual([]);
    const before = await sign(t, handler.agent, room, handler.phone, {
      companySealId: grantor.contractSealId,
    });
    expect(before.status).toBe(602);
    expect(before.body.code).toBe(Code.Refused);
    // Accepted: the seal shows; revoked by the grantor: gone, and the signature refused.
    ok(
      await grantee.admin.agent.call(acceptAuthorisationLetter, { userType: 1, letterId: pending.letterId }),
      'accept',
    );
    expect((await roomOf(handler.agent, room.roomToken)).seals.map((s) => s.sealId)).toEqual([
      grantor.contractSealId,
    ]);
    ok(
      await grantor.admin.agent.call(revokeAuthorisationLetter, { userType: 1, letterId: pending.letterId }),
      'revoke',
    );
    expect((await roomOf(handler.agent, room.roomToken)).seals).toEqual([]);
    const revoked = await sign(t, handler.agent, room, handler.phone, {
      companySealId: grantor.contractSealId,
    });
    expect(revoked.body.code).toBe(Code.Refused);
    // A grant for five minutes, past its end (the sessions stay live).
    await grant([grantor.contractSealId], { minutes: 5 });
    const short = await roomFor(handler, '过期的授权');
    t.clock.advance(5 * MINUTE);
    expect((await roomOf(handler.agent, short.room.roomToken)).seals).toEqual([]);
    const expired = await sign(t, handler.agent, short.room, handler.phone, {
      companySealId: grantor.contractSealId,
    });
    expect(expired.body.code).toBe(Code.Refused);
  }, 120_000);

  test('a member of a third company, and the grantee’s member who is neither administrator nor handler, are refused', async () => {
    await grant([grantor.contractSealId]);
    for (const who of [third.operator, plainMember]) {
      const { room } = await roomFor(who, '无权代签');
      expect((await roomOf(who.agent, room.roomToken)).seals).toEqual([]);
      const refused = await sign(t, who.agent, room, who.phone, { companySealId: grantor.contractSealId });
      expect(refused.status).toBe(602);
      expect(refused.body.code).toBe(Code.Refused);
    }
  }, 120_000);

  test('the launcher’s readiness check and the grantee’s administrator follow the grant; a handler role taken stops it at once', async () => {
    await grant([grantor.contractSealId]);
    const readiness = async (phone: string) =>
      ok(
        await grantor.admin.agent.call<{ signers: { sealTypes?: number[]; hasNeededSeal?: boolean }[] }>(
          getSignerReadiness,
          { userType: 1, signers: [{ phone, companyId: grantor.id, companySealType: 102 }] },
        ),
        'readiness',
      ).signers[0];
    expect(await readiness(grantee.operator.phone)).toMatchObject({ sealTypes: [102], hasNeededSeal: true });
    expect(await readiness(third.operator.phone)).toMatchObject({ sealTypes: [], hasNeededSeal: false });
    // The grantee's administrator may seal with it too.
    const admin = await roomFor(grantee.admin, '管理员代签');
    expect((await roomOf(grantee.admin.agent, admin.room.roomToken)).seals.map((s) => s.sealId)).toEqual([
      grantor.contractSealId,
    ]);
    // The grantee takes its handler's role: the next call refuses, given back it seals.
    const handler = grantee.operator;
    const { room } = await roomFor(handler, '角色收回');
    await setRoles(grantee.admin.agent, handler.userId, []);
    try {
      const refused = await sign(t, handler.agent, room, handler.phone, {
        companySealId: grantor.contractSealId,
      });
      expect(refused.status).toBe(602);
    } finally {
      await setRoles(grantee.admin.agent, handler.userId, ['handler']);
    }
    const signed = await sign(t, handler.agent, room, handler.phone, {
      companySealId: grantor.contractSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
  }, 120_000);

  test('the grantor’s seal-use approval still applies: its approver decides, then the grantee’s handler seals', async () => {
    const approver = grantor.approvers[0];
    const saved = await savePolicy(grantor.admin.agent, {
      sealId: grantor.contractSealId,
      mode: 'one',
      approverIds: [approver.userId],
    });
    expect(saved.body.code, saved.body.msg).toBe(0);
    try {
      const letter = await grant([grantor.contractSealId]);
      const handler = grantee.operator;
      const { flowId, room } = await roomFor(handler, '需审批的代签');
      const unapproved = await sign(t, handler.agent, room, handler.phone, {
        companySealId: grantor.contractSealId,
      });
      expect(unapproved.body.code).toBe(Code.SealApprovalRequired);
      const asked = await askApproval(handler.agent, room.roomToken, grantor.contractSealId);
      expect(asked.body.code, asked.body.msg).toBe(0);
      ok(await decide(approver.agent, asked.body.data.approvalId, 'approve'), 'approve');
      const signed = await sign(t, handler.agent, room, handler.phone, {
        companySealId: grantor.contractSealId,
      });
      expect(signed.body.code, signed.body.msg).toBe(0);
      const [entry] = await signDetails(flowId);
      expect(entry.detail).toContain(`approval ${asked.body.data.approvalId}`);
      expect(entry.detail).toContain(`letter ${letter.number}`);
    } finally {
      await savePolicy(grantor.admin.agent, { sealId: grantor.contractSealId, mode: 'none' });
    }
  }, 120_000);
});
