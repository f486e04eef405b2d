// Company roles (issue 27): only the administrator or a contract handler launches and signs for the company, a
// handler seals only with the seals authorised to them now, a seal keeper manages only the seals they keep, and
// every change takes effect on the next call and is in the company's audit trail with who and when.
import { beforeAll, describe, expect, test } from 'vitest';
import { type Member, getCompanyMemberList, getCompanyStaffList } from '#contract/calls/company.ts';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import {
  type Seal,
  authoriseSeal,
  getUserCertSealList,
  listSealOperators,
  revokeSealAuthorisation,
  setSealStatus,
} from '#contract/calls/seal.ts';
import { type LoginInfo, getEsignLoginInfo } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { type FlowDetail, type RoomLogin, signingRoomLoginByEmbed } from '#contract/calls/flow.ts';
import { appForFile } from '../helper.ts';
import { openCompany, person } from '../fixtures/company.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  getBytes,
  ok,
  pendingRoom,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { hasTool, pdfsigReport } from '../fixtures/pdf-signing.ts';
import {
  auditTrail,
  companyMember,
  firstPage,
  launchForCompany,
  setKeepers,
  setRoles,
  tryLaunchForCompany,
} from '../fixtures/roles.ts';

const t = appForFile();
let company: TestCompany;
/** Holds the seal_keeper role and keeps the contract seal only. */
let keeper: Signer;

const DAY = 86_400_000;
const period = () => ({
  validFrom: new Date(t.clock.now().getTime() - 60_000).toISOString(),
  validTo: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
});
const roomsOf = async (flowId: string) => pendingRoom(company.operator.agent, flowId);

beforeAll(async () => {
  company = await companyWithSeals(t);
  keeper = await companyMember(t, company.admin.agent, company.id, '钱保管');
  await setRoles(company.admin.agent, keeper.userId, ['seal_keeper']);
  ok(await setKeepers(company.admin.agent, company.contractSealId, [keeper.userId]), 'keepers');
}, 120_000);

describe('launching and signing need the handler role (or the administrator)', () => {
  test('a member without the handler role cannot upload or launch; with it again they can (next call)', async () => {
    const op = company.operator;
    await setRoles(company.admin.agent, op.userId, []);
    const info = ok(await op.agent.call<LoginInfo>(getEsignLoginInfo, { userType: 1 }), 'info');
    expect(info.roles).toEqual([]);
    const upload = await uploadPdf(op.agent, await contractPdf(1), 1);
    expect(upload.status).toBe(602);
    // An upload made while a handler, launched after the role went: refused too.
    await setRoles(company.admin.agent, op.userId, ['handler']);
    expect(ok(await op.agent.call<LoginInfo>(getEsignLoginInfo, { userType: 1 }), 'info').roles).toEqual([
      'handler',
    ]);
    const flowId = await launchForCompany(op.agent, company.id, op.phone);
    expect(flowId).toBeTruthy();
    await setRoles(company.admin.agent, op.userId, []);
    const refused = await tryLaunchForCompany(op.agent, company.id, op.phone);
    expect(refused.status).toBe(602);
    await setRoles(company.admin.agent, op.userId, ['handler']);
  }, 60_000);

  test('a member whose handler role was taken cannot sign the company party; given back, they seal (pdfsig)', async () => {
    const op = company.operator;
    const flowId = await launchForCompany(company.admin.agent, company.id, op.phone, '角色合同');
    const room = await roomsOf(flowId);
    await setRoles(company.admin.agent, op.userId, []);
    const refused = await sign(t, op.agent, room, op.phone, { companySealId: company.contractSealId });
    expect(refused.status).toBe(602);
    expect(refused.body.code).toBe(Code.Refused);
    await setRoles(company.admin.agent, op.userId, ['handler']);
    const signed = await sign(t, op.agent, room, op.phone, { companySealId: company.contractSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    if (!hasTool('pdfsig')) return;
    const [doc] = signed.body.data.documents;
    const pdf = await getBytes(company.admin.agent, `${SIGNED_PDF_PATH}/${flowId}/${doc.documentId}`);
    expect(pdf.status).toBe(200);
    const out = pdfsigReport(pdf.bytes, (await pkiFor(t.deps)).rootPem);
    expect(out).toMatch(/Signature is Valid/);
    expect(out).not.toMatch(/Signature is Invalid|Not Trusted/);
  }, 90_000);

  test('a handler without an authorisation of the seal cannot seal with it', async () => {
    const op = company.operator;
    const flowId = await launchForCompany(company.admin.agent, company.id, op.phone);
    const room = await roomsOf(flowId);
    // The contract party wants a contract seal: the finance seal is not theirs, and a revoked one stops at once.
    const list = ok(await op.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }), 'seals');
    expect(list.seals.map((s) => s.id)).toEqual([company.contractSealId]);
    const auth = list.seals[0].authorisations[0];
    ok(
      await company.admin.agent.call(revokeSealAuthorisation, { userType: 1, authorisationId: auth.id }),
      'revoke',
    );
    const refused = await sign(t, op.agent, room, op.phone, { companySealId: company.contractSealId });
    expect(refused.body.code).toBe(Code.SealNotUsable);
    ok(
      await company.admin.agent.call(authoriseSeal, {
        userType: 1,
        sealId: company.contractSealId,
        userIds: [op.userId],
        ...period(),
      }),
      'authorise again',
    );
    const signed = await sign(t, op.agent, room, op.phone, { companySealId: company.contractSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
  }, 60_000);
});

describe('through the integrator API', () => {
  test("the administrator's key launches; the signing URL's room signs the company party only for a handler", async () => {
    const op = company.operator;
    const key = (await makeKey(company.admin.agent, ['flows:read', 'flows:write'], 1)).secret;
    const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
      key,
      body: { filename: '合同.pdf', contentBase64: Buffer.from(await contractPdf(1)).toString('base64') },
    });
    const documentId = up.body.data.documentId;
    const launched = await open<{ flowId: string }>(t, 'POST', '/flows', {
      key,
      body: {
        from: 'documents',
        title: '接口合同',
        documentIds: [documentId],
        steps: [
          {
            parties: [
              {
                kind: 'company',
                companyId: company.id,
                operatorPhone: op.phone,
                applies: { companySealType: 102 },
                positions: [{ documentId, page: 1, mm: { left: 20, top: 200, width: 42, height: 42 } }],
              },
            ],
          },
        ],
      },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(201);
    const flowId = launched.body.data.flowId;
    const detail = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key });
    const partyId = detail.body.data.steps[0].parties[0].partyId;
    const url = await open<{ url: string }>(t, 'POST', `/flows/${flowId}/parties/${partyId}/signing-url`, {
      key,
      body: {},
    });
    expect(url.status).toBe(201);
    const embedCode = new URLSearchParams(url.body.data.url.split('?')[1]).get('code')!;
    const browser = t.agent();
    const room = ok(
      await browser.call<RoomLogin>(signingRoomLoginByEmbed, { userType: 0, embedCode }),
      'embed login',
    );
    await setRoles(company.admin.agent, op.userId, []);
    const refused = await sign(t, browser, room, op.phone, { companySealId: company.contractSealId });
    expect(refused.status).toBe(602);
    await setRoles(company.admin.agent, op.userId, ['handler']);
    const signed = await sign(t, browser, room, op.phone, { companySealId: company.contractSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
  }, 60_000);
});

describe('seal keepers', () => {
  test('a keeper enables, disables and authorises the seals they keep, and no other', async () => {
    const k = keeper.agent;
    const mine = ok(await k.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }), 'list').seals;
    expect(mine.map((s) => [s.id, s.canManage])).toEqual([[company.contractSealId, true]]);
    expect(mine[0].authorisations.map((a) => a.userId)).toContain(company.operator.userId);
    const handlers = ok(await k.call<{ userId: string }[]>(listSealOperators, { userType: 1 }), 'handlers');
    expect(handlers.map((h) => h.userId)).toContain(company.operator.userId);
    const off = await k.call<Seal>(setSealStatus, {
      userType: 1,
      sealId: company.contractSealId,
      status: 'disabled',
    });
    expect(off.body.code, off.body.msg).toBe(0);
    expect(off.body.data.status).toBe('disabled');
    ok(
      await k.call(setSealStatus, { userType: 1, sealId: company.contractSealId, status: 'enabled' }),
      'enable',
    );
    const granted = await k.call<Seal>(authoriseSeal, {
      userType: 1,
      sealId: company.contractSealId,
      userIds: [company.operator.userId],
      ...period(),
    });
    expect(granted.body.code, granted.body.msg).toBe(0);

    // Not theirs: the finance seal, by status, authorisation or revoking its authorisation.
    expect(
      (await k.call(setSealStatus, { userType: 1, sealId: company.financeSealId, status: 'disabled' }))
        .status,
    ).toBe(602);
    expect(
      (
        await k.call(authoriseSeal, {
          userType: 1,
          sealId: company.financeSealId,
          userIds: [company.operator.userId],
          ...period(),
        })
      ).status,
    ).toBe(602);
    const finance = ok(
      await company.admin.agent.call<Seal>(authoriseSeal, {
        userType: 1,
        sealId: company.financeSealId,
        userIds: [company.operator.userId],
        ...period(),
      }),
      'admin authorises finance',
    );
    const financeAuth = finance.authorisations.find((a) => a.userId === company.operator.userId)!;
    expect(
      (await k.call(revokeSealAuthorisation, { userType: 1, authorisationId: financeAuth.id })).status,
    ).toBe(602);
  }, 60_000);

  test('a keeper cannot name keepers; a non-keeper member cannot be named', async () => {
    expect((await setKeepers(keeper.agent, company.contractSealId, [keeper.userId])).status).toBe(602);
    const named = await setKeepers(company.admin.agent, company.financeSealId, [company.operator.userId]);
    expect(named.body.code).toBe(Code.Refused);
  });

  test('losing the seal_keeper role ends every keeping at the next call; the role back, the keeping is back', async () => {
    await setRoles(company.admin.agent, keeper.userId, []);
    const refused = await keeper.agent.call(setSealStatus, {
      userType: 1,
      sealId: company.contractSealId,
      status: 'disabled',
    });
    expect(refused.status).toBe(602);
    const list = ok(await keeper.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }), 'list');
    expect(list.seals).toEqual([]);
    await setRoles(company.admin.agent, keeper.userId, ['seal_keeper']);
    ok(
      await keeper.agent.call(setSealStatus, {
        userType: 1,
        sealId: company.contractSealId,
        status: 'enabled',
      }),
      'again',
    );
  });

  test('removing a keeper from a seal takes effect on their next call', async () => {
    ok(await setKeepers(company.admin.agent, company.contractSealId, []), 'no keepers');
    const refused = await keeper.agent.call(setSealStatus, {
      userType: 1,
      sealId: company.contractSealId,
      status: 'enabled',
    });
    expect(refused.status).toBe(602);
    const seal = ok(await setKeepers(company.admin.agent, company.contractSealId, [keeper.userId]), 'again');
    expect(seal.keeperUserIds).toEqual([keeper.userId]);
  });

  test("another company's seal is not found for its administrator, and refused to a keeper", async () => {
    const other = await person(t);
    await openCompany(t, other);
    expect((await setKeepers(other.agent, company.contractSealId, [])).body.code).toBe(Code.NotFound);
    const status = await other.agent.call(setSealStatus, {
      userType: 1,
      sealId: company.contractSealId,
      status: 'disabled',
    });
    expect(status.body.code).toBe(Code.NotFound);
  });
});

describe('member lists and the audit trail', () => {
  test('members carry their roles; the legal representative (the applicant as such, a member of that verified name) is marked', async () => {
    // A member whose verified real name is the registered legal representative's (openCompany: 张三).
    const rep = await companyMember(t, company.admin.agent, company.id, '张三');
    const members = await firstPage<Member>(company.admin.agent, getCompanyMemberList);
    const by = new Map(members.map((m) => [m.userId, m]));
    expect(by.get(company.admin.userId)).toMatchObject({ roles: ['admin'], isLegalRep: true });
    expect(by.get(company.operator.userId)).toMatchObject({ roles: ['handler'], isLegalRep: false });
    expect(by.get(keeper.userId)).toMatchObject({ roles: ['seal_keeper'], isLegalRep: false });
    expect(by.get(rep.userId)).toMatchObject({ roles: ['handler'], isLegalRep: true });
    const staff = ok(await keeper.agent.call<Member[]>(getCompanyStaffList, { userType: 1 }), 'staff');
    expect(staff.find((m) => m.userId === company.operator.userId)?.roles).toEqual(['handler']);
  });

  test('the audit trail lists each role and keeper change with who, whom and when', async () => {
    const trail = await auditTrail(company.admin.agent);
    const of = (kind: string) => trail.filter((e) => e.kind === kind);
    expect(of('role_revoked').length).toBeGreaterThanOrEqual(4);
    expect(of('role_granted').find((e) => e.subjectName === '钱保管')?.detail).toEqual({
      role: 'seal_keeper',
    });
    const kept = of('seal_keeper_granted');
    expect(kept.length).toBe(2);
    expect(kept[0]).toMatchObject({ actorName: '王管理', subjectName: '钱保管' });
    expect(kept[0].detail).toMatchObject({ sealId: company.contractSealId });
    expect(of('seal_keeper_revoked').length).toBe(1);
    for (const e of trail) expect(Number.isNaN(Date.parse(e.createdAt))).toBe(false);
  });
});
