// Authorisation letters (issue 27): the administrator issues a letter after an SMS code to their own phone; the
// letter is a PDF signed with the COMPANY's certificate (valid in pdfsig, the company named as the signer), kept,
// listed and revocable (the PDF stays); the company's audit trail records issue and revocation; another company's
// letter is 1101; a member letter authorises the seal with it, names itself in the sign audit entry, and revoking
// either the letter or the seal authorisation ends both.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type Letter,
  acceptAuthorisationLetter,
  authoriseSealWithLetters,
  getAuthorisationLetter,
  issueAuthorisationLetter,
  listAuthorisationLetters,
  revokeAuthorisationLetter,
  sendLetterSmsCode,
} from '#contract/calls/authorisation.ts';
import { getCompanyAuditTrail } from '#contract/calls/company.ts';
import { type LoginInfo, getEsignLoginInfo } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { getAuditTrail, launchFlow } from '#contract/calls/flow.ts';
import { type Seal, revokeSealAuthorisation, getUserCertSealList } from '#contract/calls/seal.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { appForFile } from '../helper.ts';
import { autoSignLetter, letterCode, tryIssueLetter, twoPartyTemplate } from '../fixtures/authorisation.ts';
import {
  type TestCompany,
  companyWithSeals,
  contractPdf,
  getBytes,
  ok,
  pendingRoom,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';
import { companyMember } from '../fixtures/roles.ts';
import { pdfText } from '../fixtures/template.ts';
import { makeKey, open } from '../fixtures/open.ts';

// The administrator asks many intent codes in this file: more than an hour's allowance of one phone.
const t = appForFile({ FREE_SIGNING_ALLOWANCE: '100', SMS_MAX_PER_PHONE_HOUR: '100' });
let company: TestCompany;
let other: TestCompany;
let templateId: string;

beforeAll(async () => {
  company = await companyWithSeals(t);
  other = await companyWithSeals(t, '钱管理');
  templateId = await twoPartyTemplate(company, '自动签模板');
}, 180_000);

const period = () => {
  const now = t.clock.now();
  return {
    validFrom: new Date(now.getTime() - 60_000).toISOString(),
    validTo: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
  };
};

describe('issuing a letter', () => {
  test('needs the SMS code sent to the administrator: a wrong code is refused and nothing is issued', async () => {
    await letterCode(t, company);
    const wrong = await tryIssueLetter(
      t,
      company,
      { kind: 'auto_sign', sealIds: [company.contractSealId], templateIds: [templateId], ...period() },
      '000000',
    );
    expect(wrong.body.code).toBe(Code.SmsCodeInvalid);
    const listed = ok(
      await company.admin.agent.call<{ total: number }>(listAuthorisationLetters, { userType: 1 }),
      'list',
    );
    expect(listed.total).toBe(0);
  });

  test('an operator cannot ask the code nor issue; they may list (only letters granted to them)', async () => {
    const op = company.operator.agent;
    expect((await op.call(sendLetterSmsCode, { userType: 1 })).body.code).not.toBe(0);
    const issued = await op.call(issueAuthorisationLetter, {
      userType: 1,
      kind: 'auto_sign',
      sealIds: [company.contractSealId],
      templateIds: [templateId],
      smsCode: '123456',
      ...period(),
    });
    expect(issued.body.code).not.toBe(0);
    expect(issued.body.data).toBeNull();
    expect((await op.call(listAuthorisationLetters, { userType: 1 })).body.code).toBe(0);
  });

  test('an automatic-signing letter names one seal and a template or key; another company’s template is refused', async () => {
    const noScope = await tryIssueLetter(t, company, {
      kind: 'auto_sign',
      sealIds: [company.contractSealId],
      ...period(),
    });
    expect(noScope.body.code).toBe(Code.Refused);
    const legal = await tryIssueLetter(t, company, {
      kind: 'auto_sign',
      sealIds: [company.legalPersonSealId],
      templateIds: [templateId],
      ...period(),
    });
    expect(legal.body.code).toBe(Code.Refused);
    const theirs = await twoPartyTemplate(other, '别家模板');
    const foreign = await tryIssueLetter(t, company, {
      kind: 'auto_sign',
      sealIds: [company.contractSealId],
      templateIds: [theirs],
      ...period(),
    });
    expect(foreign.body.code).toBe(Code.Refused);
  }, 60_000);

  test('the letter PDF is signed by the company: valid in pdfsig, the company its signer; listed; audit trail', async () => {
    const letter = await autoSignLetter(t, company, { templateIds: [templateId], maxUses: 10 });
    expect(letter.number).toMatch(/^SQ-\d{4}-\d{6}$/);
    expect(letter.state).toBe('active');
    expect(letter.templates.map((x) => x.templateId)).toEqual([templateId]);
    const pdf = await getBytes(company.admin.agent, letter.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toContain('application/pdf');
    const pki = await pkiFor(t.deps);
    const out = pdfsigReport(pdf.bytes, pki.rootPem, 'letter.pdf');
    if (out !== null) {
      expect(out, out).toContain('Signature is Valid.');
      expect(out, out).toContain('Certificate is Trusted.');
      expect(out, out).toContain(`Signer Certificate Common Name: ${company.name}`);
    }
    const listed = ok(
      await company.admin.agent.call<{ list: Letter[] }>(listAuthorisationLetters, { userType: 1 }),
      'list',
    );
    expect(listed.list.map((l) => l.letterId)).toContain(letter.letterId);
    const events = ok(
      await company.admin.agent.call<{ list: { kind: string; detail: unknown }[] }>(getCompanyAuditTrail, {
        userType: 1,
      }),
      'events',
    );
    expect(events.list.map((e) => e.kind)).toContain('letter_issued');
  }, 60_000);

  test('the legal representative, a handler and not the administrator, issues and revokes; the letter says so', async () => {
    // A member whose verified real name is the registered legal representative's (openCompany: 张三).
    const rep = await companyMember(t, company.admin.agent, company.id, '张三');
    const info = ok(await rep.agent.call<LoginInfo>(getEsignLoginInfo, { userType: 1 }), 'info');
    expect(info).toMatchObject({ isAdmin: false, isLegalRep: true });
    const handler = ok(
      await company.operator.agent.call<LoginInfo>(getEsignLoginInfo, { userType: 1 }),
      'handler info',
    );
    expect(handler.isLegalRep).toBe(false);
    const letter = ok(
      await tryIssueLetter(
        t,
        company,
        {
          kind: 'member',
          sealIds: [company.financeSealId],
          granteeUserId: company.operator.userId,
          ...period(),
        },
        undefined,
        rep,
      ),
      'issue by the legal representative',
    );
    expect(letter.issuedByName).toBe('张三');
    const pdf = await getBytes(rep.agent, letter.pdfUrl);
    expect(pdfText(pdf.bytes)).toContain('legal representative');
    // The whole list is theirs to read, as the administrator's (the letter is granted to someone else).
    const listed = ok(
      await rep.agent.call<{ list: Letter[] }>(listAuthorisationLetters, { userType: 1 }),
      'list',
    );
    expect(listed.list.map((l) => l.letterId)).toContain(letter.letterId);
    ok(
      await rep.agent.call(revokeAuthorisationLetter, {
        userType: 1,
        letterId: letter.letterId,
        reason: '到期',
      }),
      'revoke',
    );
  }, 60_000);

  test('another company’s letter is 1101 to read, download and revoke', async () => {
    const letter = await autoSignLetter(t, company, { templateIds: [templateId] });
    const them = other.admin.agent;
    expect(
      (await them.call(getAuthorisationLetter, { userType: 1, letterId: letter.letterId })).body.code,
    ).toBe(Code.NotFound);
    expect(
      (await them.call(revokeAuthorisationLetter, { userType: 1, letterId: letter.letterId })).body.code,
    ).toBe(Code.NotFound);
    const download = await getBytes(them, letter.pdfUrl);
    expect(download.type).not.toContain('pdf');
    expect(JSON.parse(Buffer.from(download.bytes).toString()).code).toBe(Code.NotFound);
  }, 60_000);

  test('revoking keeps the PDF, is recorded, and cannot happen twice', async () => {
    const letter = await autoSignLetter(t, company, { templateIds: [templateId] });
    const revoked = ok(
      await company.admin.agent.call<Letter>(revokeAuthorisationLetter, {
        userType: 1,
        letterId: letter.letterId,
        reason: '合作结束',
      }),
      'revoke',
    );
    expect(revoked.state).toBe('revoked');
    expect(revoked.revokeReason).toBe('合作结束');
    expect((await getBytes(company.admin.agent, letter.pdfUrl)).status).toBe(200);
    const again = await company.admin.agent.call(revokeAuthorisationLetter, {
      userType: 1,
      letterId: letter.letterId,
    });
    expect(again.body.code).toBe(Code.Refused);
    const events = ok(
      await company.admin.agent.call<{ list: { kind: string }[] }>(getCompanyAuditTrail, { userType: 1 }),
      'events',
    );
    expect(events.list.map((e) => e.kind)).toContain('letter_revoked');
  }, 60_000);
});

describe('member letters', () => {
  test('the seal authorisation comes with the letter; a sealed contract names it; revoking the seal authorisation ends the letter', async () => {
    const letter = ok(
      await tryIssueLetter(t, company, {
        kind: 'member',
        sealIds: [company.financeSealId],
        granteeUserId: company.operator.userId,
        purpose: '财务结算',
        ...period(),
      }),
      'member letter',
    );
    expect(letter.granteeUserId).toBe(company.operator.userId);
    // The operator now may use the finance seal: they seal a contract with it.
    const doc = ok(await uploadPdf(company.admin.agent, await contractPdf(1), 1), 'upload');
    const flowId = ok(
      await company.admin.agent.call<{ flowId: string }>(launchFlow, {
        userType: 1,
        title: '结算单',
        documentIds: [doc.documentId],
        steps: [
          {
            parties: [
              {
                kind: 'company',
                companyId: company.id,
                operatorUserId: company.operator.userId,
                applies: { companySealType: 103 },
                positions: [
                  { documentId: doc.documentId, page: 1, mm: { left: 20, top: 200, width: 42, height: 42 } },
                ],
              },
            ],
          },
        ],
      }),
      'launch',
    ).flowId;
    const room = await pendingRoom(company.operator.agent, flowId);
    const signed = await sign(t, company.operator.agent, room, company.operator.phone, {
      companySealId: company.financeSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const trail = ok(
      await company.admin.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 1,
        flowId,
      }),
      'trail',
    );
    expect(trail.entries.find((e) => e.event === 'sign')?.detail).toContain(letter.number);
    // Revoking the seal authorisation (the seal screen) revokes the letter too.
    const { seals } = ok(
      await company.admin.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }),
      'seals',
    );
    const auth = seals
      .find((s) => s.id === company.financeSealId)
      ?.authorisations.find((a) => a.userId === company.operator.userId);
    expect(auth).toBeDefined();
    ok(
      await company.admin.agent.call(revokeSealAuthorisation, { userType: 1, authorisationId: auth!.id }),
      'revoke auth',
    );
    const after = ok(
      await company.admin.agent.call<Letter>(getAuthorisationLetter, {
        userType: 1,
        letterId: letter.letterId,
      }),
      'letter',
    );
    expect(after.state).toBe('revoked');
  }, 90_000);
});

describe('the authorize page', () => {
  test('authorising a seal to an operator issues their letter with one code; revoking the letter ends the seal authorisation', async () => {
    const code = await letterCode(t, company);
    const { letters } = ok(
      await company.admin.agent.call<{ letters: Letter[] }>(authoriseSealWithLetters, {
        userType: 1,
        sealId: company.contractSealId,
        userIds: [company.operator.userId],
        smsCode: code,
        ...period(),
      }),
      'authorise with letters',
    );
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      kind: 'member',
      granteeUserId: company.operator.userId,
      state: 'active',
    });
    const authorisedTo = async () =>
      ok(await company.admin.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }), 'seals')
        .seals.find((s) => s.id === company.contractSealId)
        ?.authorisations.map((a) => a.userId);
    expect(await authorisedTo()).toContain(company.operator.userId);
    // The code was spent: the same code does not issue again.
    const again = await company.admin.agent.call(authoriseSealWithLetters, {
      userType: 1,
      sealId: company.contractSealId,
      userIds: [company.operator.userId],
      smsCode: code,
      ...period(),
    });
    expect(again.body.code).toBe(Code.SmsCodeInvalid);
    ok(
      await company.admin.agent.call(revokeAuthorisationLetter, {
        userType: 1,
        letterId: letters[0].letterId,
      }),
      'revoke letter',
    );
    expect(await authorisedTo()).not.toContain(company.operator.userId);
  }, 60_000);
});

describe('company letters', () => {
  test('a company grants a seal to another company, which accepts; both trails record it; a third party cannot accept', async () => {
    const pending = ok(
      await tryIssueLetter(t, company, {
        kind: 'company',
        sealIds: [company.contractSealId],
        granteeCompanyName: other.name,
        purpose: '集团采购',
        ...period(),
      }),
      'company letter',
    );
    expect(pending.state).toBe('pending');
    expect(pending.granteeName).toBe(other.name);
    const seen = ok(
      await other.admin.agent.call<{ list: Letter[] }>(listAuthorisationLetters, { userType: 1 }),
      'their list',
    ).list.find((l) => l.letterId === pending.letterId);
    expect(seen?.isMine).toBe(false);
    // The issuer cannot accept its own grant.
    expect(
      (await company.admin.agent.call(acceptAuthorisationLetter, { userType: 1, letterId: pending.letterId }))
        .body.code,
    ).toBe(Code.Refused);
    const accepted = ok(
      await other.admin.agent.call<Letter>(acceptAuthorisationLetter, {
        userType: 1,
        letterId: pending.letterId,
      }),
      'accept',
    );
    expect(accepted.state).toBe('active');
    for (const admin of [company.admin.agent, other.admin.agent]) {
      const events = ok(
        await admin.call<{ list: { kind: string }[] }>(getCompanyAuditTrail, { userType: 1 }),
        'events',
      );
      expect(events.list.map((e) => e.kind)).toContain('letter_accepted');
    }
  }, 60_000);
});

describe('integrators', () => {
  test('GET /open/v1/authorisations lists the key’s company’s letters with their state; another company’s is 1101', async () => {
    const letter = await autoSignLetter(t, company, { templateIds: [templateId], maxUses: 3 });
    const key = await makeKey(company.admin.agent, ['authorisations:read'], 1);
    const page = await open<{
      list: { letterId: string; number: string; state: string; maxUses: number }[];
      total: number;
    }>(t, 'GET', '/authorisations?pageSize=50', { key: key.secret });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const mine = page.body.data.list.find((l) => l.letterId === letter.letterId);
    expect(mine).toMatchObject({ number: letter.number, state: 'active', maxUses: 3 });
    const one = await open<{ number: string }>(t, 'GET', `/authorisations/${letter.letterId}`, {
      key: key.secret,
    });
    expect(one.body.data.number).toBe(letter.number);
    const theirKey = await makeKey(other.admin.agent, ['authorisations:read'], 1);
    const foreign = await open(t, 'GET', `/authorisations/${letter.letterId}`, { key: theirKey.secret });
    expect(foreign.body.code).toBe(Code.NotFound);
    const noScope = await makeKey(company.admin.agent, ['flows:read'], 1);
    expect((await open(t, 'GET', '/authorisations', { key: noScope.secret })).status).toBe(403);
  }, 60_000);
});
