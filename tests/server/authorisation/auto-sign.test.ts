// Automatic signing (静默签, issue 27): a company authorises the platform by an automatic-signing letter for one
// template. A flow from that template whose company party's turn comes (after a person signed first, or at
// launch) is sealed by the durable job with nobody in the room and no link sent: the company's own certificate,
// the letter's seal, valid in pdfsig and the platform verifier, the audit entry naming the letter. A flow from
// another template or API key is not; the count is never exceeded even when two flows race for its last use; a
// revoked or expired letter leaves the party its link, waiting for a person.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type Letter,
  getAuthorisationLetter,
  revokeAuthorisationLetter,
} from '#contract/calls/authorisation.ts';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { getAuditTrail } from '#contract/calls/flow.ts';
import { setSigningFaults } from '../fixtures/flow.ts';
import { autoSign, flowRuntimeOf } from '#server/modules/flow/testing.ts';
import { appForFile } from '../helper.ts';
import {
  autoSignLetter,
  companyParty,
  launchFromTemplate,
  linksSent,
  twoPartyTemplate,
} from '../fixtures/authorisation.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  expectAllPassed,
  getBytes,
  ok,
  personWithCert,
  signByLink,
} from '../fixtures/flow.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { contractPdf } from '../fixtures/flow.ts';

// The administrator asks many intent codes in this file: more than an hour's allowance of one phone.
const t = appForFile({ FREE_SIGNING_ALLOWANCE: '100', SMS_MAX_PER_PHONE_HOUR: '100' });
let company: TestCompany;
let buyer: Signer;
let personFirst: string;
let companyFirst: string;
let otherTemplate: string;
let letter: Letter;

beforeAll(async () => {
  company = await companyWithSeals(t);
  buyer = await personWithCert(t, '李四');
  personFirst = await twoPartyTemplate(company, '买卖合同（乙方先签）');
  companyFirst = await twoPartyTemplate(company, '买卖合同（甲方先签）', false);
  otherTemplate = await twoPartyTemplate(company, '未授权模板');
  letter = await autoSignLetter(t, company, { templateIds: [personFirst, companyFirst], maxUses: 10 });
}, 180_000);

type Trail = {
  entries: { event: string; detail: string | null; actor: string }[];
  chains: { isIntact: boolean }[];
};
const trailOf = async (flowId: string, lang = 'en-US') =>
  ok(
    await company.admin.agent.call<Trail>(
      getAuditTrail,
      { userType: 1, flowId },
      { headers: { 'accept-language': lang } },
    ),
    'trail',
  );

const usedCount = async (letterId: string) =>
  ok(await company.admin.agent.call<Letter>(getAuthorisationLetter, { userType: 1, letterId }), 'letter')
    .usedCount;

describe('a flow from the authorised template', () => {
  test('after the person signs, the company party is sealed with nobody in the room; valid; the audit names the letter', async () => {
    const title = '自动签 A';
    const flowId = await launchFromTemplate(company, personFirst, buyer, title);
    const signed = await signByLink(t, buyer.agent, buyer);
    expect(signed.body.code, signed.body.msg).toBe(0);
    await t.runDueJobs();
    const { detail, party } = await companyParty(company, flowId);
    expect(party.status).toBe('signed');
    expect(detail.status).toBe('completed');
    // Nobody was asked: no link went to the company's handler.
    expect(await linksSent(t, company.operator.phone, title)).toBe(0);
    const pdf = await getBytes(
      company.admin.agent,
      `${SIGNED_PDF_PATH}/${flowId}/${detail.documents[0].documentId}`,
    );
    expect(pdf.status).toBe(200);
    const { pki } = await expectAllPassed(t, pdf.bytes, 3);
    const out = pdfsigReport(pdf.bytes, pki.rootPem, 'auto-signed.pdf');
    if (out !== null) {
      expect(out, out).not.toContain('Signature is Invalid');
      expect(out, out).toContain(`Signer Certificate Common Name: ${company.name}`);
    }
    const en = await trailOf(flowId);
    const sign = en.entries.filter((e) => e.event === 'sign');
    expect(sign).toHaveLength(2);
    expect(sign[1].detail).toContain(`authorisation letter ${letter.number}`);
    expect(sign[1].detail).toContain('signed automatically');
    const zh = await trailOf(flowId, 'zh-CN');
    expect(zh.entries.filter((e) => e.event === 'sign')[1].detail).toContain(`授权书 ${letter.number}`);
    expect(en.chains.every((c) => c.isIntact)).toBe(true);
    expect(await usedCount(letter.letterId)).toBe(1);
  }, 120_000);

  test('a company party in the first step is sealed right after the launch; the person then gets the link', async () => {
    const title = '自动签 B';
    const flowId = await launchFromTemplate(company, companyFirst, buyer, title);
    expect((await companyParty(company, flowId)).party.status).toBe('pending');
    await t.runDueJobs();
    expect((await companyParty(company, flowId)).party.status).toBe('signed');
    expect(await linksSent(t, company.operator.phone, title)).toBe(0);
    expect(await linksSent(t, buyer.phone, title)).toBe(1);
    expect(await usedCount(letter.letterId)).toBe(2);
  }, 120_000);
});

describe('what the letter does not cover', () => {
  test('a flow from another template waits for a person: its link is sent', async () => {
    const title = '未授权 C';
    const flowId = await launchFromTemplate(company, otherTemplate, buyer, title);
    await signByLink(t, buyer.agent, buyer);
    await t.runDueJobs();
    expect((await companyParty(company, flowId)).party.status).toBe('pending');
    expect(await linksSent(t, company.operator.phone, title)).toBe(1);
  }, 120_000);

  test('an API-key letter: a flow launched with that key is sealed, one launched with another key waits', async () => {
    const named = await makeKey(company.admin.agent, ['flows:write', 'flows:read'], 1, 'ERP');
    const otherKey = await makeKey(company.admin.agent, ['flows:write', 'flows:read'], 1, 'CRM');
    await autoSignLetter(t, company, { apiKeyIds: [named.keyId] });
    const launchWith = async (key: string, title: string) => {
      const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
        key,
        body: {
          filename: 'contract.pdf',
          contentBase64: Buffer.from(await contractPdf(1)).toString('base64'),
        },
      });
      const launched = await open<{ flowId: string }>(t, 'POST', '/flows', {
        key,
        body: {
          from: 'documents',
          title,
          documentIds: [up.body.data.documentId],
          steps: [
            {
              parties: [
                {
                  kind: 'company',
                  companyId: company.id,
                  operatorUserId: company.operator.userId,
                  applies: { companySealType: 102 },
                  positions: [{ documentId: up.body.data.documentId, page: 1, rect: [72, 80, 200, 190] }],
                },
              ],
            },
          ],
        },
      });
      expect(launched.status, JSON.stringify(launched.body)).toBe(201);
      return launched.body.data.flowId;
    };
    const byNamed = await launchWith(named.secret, '密钥 G');
    const byOther = await launchWith(otherKey.secret, '密钥 H');
    await t.runDueJobs();
    expect((await companyParty(company, byNamed)).party.status).toBe('signed');
    expect((await companyParty(company, byOther)).party.status).toBe('pending');
    expect(await linksSent(t, company.operator.phone, '密钥 G')).toBe(0);
    expect(await linksSent(t, company.operator.phone, '密钥 H')).toBe(1);
  }, 120_000);

  test('two flows racing for the last use: one is sealed, the other gets its link; the count is never passed', async () => {
    const template = await twoPartyTemplate(company, '限一次模板', false);
    const once = await autoSignLetter(t, company, { templateIds: [template], maxUses: 1 });
    const a = await launchFromTemplate(company, template, buyer, '竞争 A');
    const b = await launchFromTemplate(company, template, buyer, '竞争 B');
    const partyB = (await companyParty(company, b)).party.partyId;
    // While A's signature is between its PDF and its transaction, B's automatic signing runs to its end.
    let raced = false;
    setSigningFaults(t.deps, {
      async afterBlobWrite() {
        if (raced) return;
        raced = true;
        await autoSign(t.deps, flowRuntimeOf(t.deps), {
          flowId: b,
          partyId: partyB,
          letterId: once.letterId,
        });
      },
    });
    try {
      await t.runDueJobs();
    } finally {
      setSigningFaults(t.deps, undefined);
    }
    expect(raced).toBe(true);
    const states = [
      (await companyParty(company, a)).party.status,
      (await companyParty(company, b)).party.status,
    ].sort();
    expect(states).toEqual(['pending', 'signed']);
    expect(await usedCount(once.letterId)).toBe(1);
    expect(
      (await linksSent(t, company.operator.phone, '竞争 A')) +
        (await linksSent(t, company.operator.phone, '竞争 B')),
    ).toBe(1);
  }, 120_000);

  test('a revoked letter stops the next flow: the party gets its link and waits', async () => {
    const template = await twoPartyTemplate(company, '撤销模板', false);
    const l = await autoSignLetter(t, company, { templateIds: [template] });
    ok(
      await company.admin.agent.call(revokeAuthorisationLetter, { userType: 1, letterId: l.letterId }),
      'revoke',
    );
    const title = '撤销后 D';
    const flowId = await launchFromTemplate(company, template, buyer, title);
    await t.runDueJobs();
    expect((await companyParty(company, flowId)).party.status).toBe('pending');
    expect(await linksSent(t, company.operator.phone, title)).toBe(1);
  }, 120_000);

  test('a letter revoked after the job was queued: the job finds it and sends the link instead', async () => {
    const template = await twoPartyTemplate(company, '排队后撤销模板', false);
    const l = await autoSignLetter(t, company, { templateIds: [template] });
    const title = '排队后撤销 E';
    const flowId = await launchFromTemplate(company, template, buyer, title);
    ok(
      await company.admin.agent.call(revokeAuthorisationLetter, { userType: 1, letterId: l.letterId }),
      'revoke',
    );
    await t.runDueJobs();
    expect((await companyParty(company, flowId)).party.status).toBe('pending');
    expect(await linksSent(t, company.operator.phone, title)).toBe(1);
    expect(await usedCount(l.letterId)).toBe(0);
  }, 120_000);

  test('an expired letter: the party gets its link', async () => {
    const template = await twoPartyTemplate(company, '过期模板', false);
    await autoSignLetter(t, company, { templateIds: [template], validForMs: 10 * 60_000 });
    t.clock.advance(11 * 60_000);
    const title = '过期 F';
    const flowId = await launchFromTemplate(company, template, buyer, title);
    await t.runDueJobs();
    expect((await companyParty(company, flowId)).party.status).toBe('pending');
    expect(await linksSent(t, company.operator.phone, title)).toBe(1);
  }, 120_000);
});
