// A company that has only its official seal launches a contract for itself. Readiness at launch checks the seal
// the party will need (a contract seal it lacks is said before launch, not in the room); a party whose launcher
// does not insist on a seal type lets the signer choose among the company seals they may use, so the
// administrator seals with the official seal; a party that insists on a type still gets only that type.
import { beforeAll, describe, expect, test } from 'vitest';
import { type SigningRoom, getSignerReadiness, getSigningRoom, launchFlow } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { type Seal, saveCompanySeal } from '#contract/calls/seal.ts';
import { appForFile } from '../helper.ts';
import { openCompany } from '../fixtures/company.ts';
import {
  type Signer,
  contractPdf,
  ok,
  pendingRoom,
  personWithCert,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';

const t = appForFile();
let admin: Signer;
let companyId: string;
let officialSealId: string;

beforeAll(async () => {
  admin = await personWithCert(t, '孙管理', { seal: false, cert: false });
  companyId = (await openCompany(t, admin)).id;
  officialSealId = ok(
    await admin.agent.call<Seal>(saveCompanySeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 1, generateAntiCounterfeitNo: true },
    }),
    'official seal',
  ).id;
}, 120_000);

type Readiness = { hasCertificate: boolean; isCompanyOpen: boolean | null; hasNeededSeal?: boolean };
const readiness = async (applies: Record<string, unknown>) =>
  ok(
    await admin.agent.call<{ signers: Readiness[] }>(getSignerReadiness, {
      userType: 1,
      signers: [{ userId: admin.userId, companyId, ...applies }],
    }),
    'readiness',
  ).signers[0];

/** The administrator launches a one-party flow for the own company with themself as the handler. */
async function launchForSelf(applies: Record<string, unknown>) {
  const doc = ok(await uploadPdf(admin.agent, await contractPdf(1), 1), 'upload');
  const flowId = ok(
    await admin.agent.call<{ flowId: string }>(launchFlow, {
      userType: 1,
      title: '采购合同',
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'company',
              companyId,
              operatorUserId: admin.userId,
              applies,
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
  const room = await pendingRoom(admin.agent, flowId);
  const view = ok(
    await admin.agent.call<SigningRoom>(getSigningRoom, { userType: 1, roomToken: room.roomToken }),
    'room',
  );
  return { room, view };
}

describe('a company with only an official seal', () => {
  test('readiness says a contract seal is missing, and that the official seal or any seal is there', async () => {
    expect(await readiness({ companySealType: 102 })).toMatchObject({
      hasCertificate: false,
      isCompanyOpen: true,
      hasNeededSeal: false,
    });
    expect((await readiness({ companySealType: 1 })).hasNeededSeal).toBe(true);
    expect((await readiness({ companySealType: 102, anyCompanySeal: true })).hasNeededSeal).toBe(true);
    expect((await readiness({ companySealType: null, legalPersonSeal: true })).hasNeededSeal).toBe(false);
  });

  test('a party that does not insist on the seal type: the administrator chooses the official seal and signs', async () => {
    const { room, view } = await launchForSelf({ companySealType: 102, anyCompanySeal: true });
    expect(view.canSign).toBe(true);
    expect(view.needs.companySeal).toBe(true);
    expect(view.party.applies.anyCompanySeal).toBe(true);
    expect(view.seals.map((s) => s.sealId)).toContain(officialSealId);
    const signed = await sign(t, admin.agent, room, admin.phone, { companySealId: officialSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
  }, 60_000);

  test('a party that insists on a contract seal is still refused the official seal', async () => {
    const { room } = await launchForSelf({ companySealType: 102 });
    const signed = await sign(t, admin.agent, room, admin.phone, { companySealId: officialSealId });
    expect(signed.body.code).toBe(Code.SealNotUsable);
  }, 60_000);
});
