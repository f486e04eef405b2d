// Set-up of the flow tests, through the real calls of the other modules: people with a real name, a
// certificate and a seal; a verified company (certificate, contract and legal-person seals) with an
// administrator and an operator the contract seal is authorised to; PDFs and uploads.
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { addCompanyOperator, switchAccount } from '#contract/calls/company.ts';
import type { DocumentInfo } from '#contract/calls/document.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import {
  type RoomLogin,
  sendLinkSmsCode,
  sendSignSmsCode,
  signDocument,
  signingRoomLoginByLinkCode,
} from '#contract/calls/flow.ts';
import { acceptUserAgreement, createPersonCaCert, getUserAgreement } from '#contract/calls/person.ts';
import { authoriseSeal, saveCompanySeal, savePersonSeal } from '#contract/calls/seal.ts';
import type { Seal } from '#contract/calls/seal.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import { userLogin } from '#contract/calls/session.ts';
import { callPath } from '#contract/envelope.ts';
import type { AppDeps } from '#server/deps.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { afterBlobWrite, afterLastSignature } from '#server/modules/flow/testing.ts';
import { openCompany, upload } from '../company/fixture.ts';
import { type Agent, type CallResult, type TestApp, registerAndLogin } from '../helper.ts';
import { passRealName } from '../person/person-support.ts';

export type Signer = {
  agent: Agent;
  userId: string;
  phone: string;
  password: string;
  name: string;
  sealId: string | null;
};

function ok<T>(res: CallResult<T>, what: string): T {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A person with a verified real name, the agreement accepted, a certificate and (optionally) a name seal. */
export async function personWithCert(
  t: TestApp,
  name = '张三',
  opts: { seal?: boolean; cert?: boolean } = {},
): Promise<Signer> {
  const { agent, info, phone, password } = await registerAndLogin(t);
  await passRealName(t, agent, name);
  let sealId: string | null = null;
  if (opts.cert !== false) {
    const agreement = ok(
      await agent.call<{ version: string }>(getUserAgreement, { userType: 0 }),
      'agreement',
    );
    ok(await agent.call(acceptUserAgreement, { userType: 0, version: agreement.version }), 'accept');
    ok(await agent.call(createPersonCaCert, { userType: 0 }), 'cert');
  }
  if (opts.seal !== false)
    sealId = ok(await agent.call<Seal>(savePersonSeal, { userType: 0 }), 'person seal').id;
  return { agent, userId: info.userId, phone, password, name, sealId };
}

export type TestCompany = {
  id: string;
  name: string;
  admin: Signer;
  operator: Signer;
  contractSealId: string;
  legalPersonSealId: string;
  /** A seal NOT authorised to the operator. */
  financeSealId: string;
};

/** A verified company (through the real opening calls) with seals and an authorised operator. */
export async function companyWithSeals(t: TestApp, adminName = '王管理'): Promise<TestCompany> {
  const adminPerson = await personWithCert(t, adminName, { seal: false, cert: false });
  const company = await openCompany(t, adminPerson);
  const a = adminPerson.agent;
  const seal = async (sealType: number) =>
    ok(
      await a.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: { userType: 1, sealType, generateAntiCounterfeitNo: true, legalPersonName: '张三' },
      }),
      `seal ${sealType}`,
    ).id;
  const contractSealId = await seal(102);
  const legalPersonSealId = await seal(101);
  const financeSealId = await seal(103);
  const operator = await personWithCert(t, '赵经办', { cert: false });
  ok(await a.call(addCompanyOperator, { userType: 1, phone: operator.phone }), 'add operator');
  const now = t.clock.now();
  ok(
    await a.call(authoriseSeal, {
      userType: 1,
      sealId: contractSealId,
      userIds: [operator.userId],
      validFrom: new Date(now.getTime() - 60_000).toISOString(),
      validTo: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    }),
    'authorise',
  );
  ok(
    await operator.agent.call<LoginInfo>(switchAccount, {
      userType: 0,
      targetUserType: 1,
      companyId: company.id,
    }),
    'operator switch',
  );
  return {
    id: company.id,
    name: company.name,
    admin: adminPerson,
    operator,
    contractSealId,
    legalPersonSealId,
    financeSealId,
  };
}

/** A contract of `pages` pages with the words the keyword tests look for. */
export async function contractPdf(pages = 2, title = 'Purchase contract'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`${title} - page ${i + 1}`, { x: 72, y: 760, size: 18, font, color: rgb(0, 0, 0) });
    for (let l = 0; l < 20; l++)
      page.drawText(`Clause ${i + 1}.${l + 1}: the parties agree to the terms set out here.`, {
        x: 72,
        y: 720 - l * 18,
        size: 10,
        font,
      });
    if (i === pages - 1) {
      page.drawText('Party A (seal):', { x: 72, y: 200, size: 12, font });
      page.drawText('Party B (signature):', { x: 330, y: 200, size: 12, font });
    }
  }
  return doc.save({ useObjectStreams: false });
}

export async function uploadPdf(agent: Agent, bytes: Uint8Array, userType = 0, filename = 'contract.pdf') {
  return upload<DocumentInfo>(
    agent,
    callPath(uploadDocument),
    { userType: String(userType) },
    { bytes, filename, type: 'application/pdf' },
  );
}

/** The latest signing link sent to a phone (from the outbox): {linkType, linkCode}. */
export async function linkFor(t: TestApp, phone: string): Promise<{ linkType: number; linkCode: string }> {
  const [m] = (await listOutbox(t.db, { to: phone, limit: 20 })).filter((x) =>
    /\/singingRoom\//.test(x.text),
  );
  const match = m && /\/singingRoom\/(\d)\/([A-Za-z0-9_-]+)/.exec(m.text);
  if (!match) throw new Error(`no signing link for ${phone}`);
  return { linkType: Number(match[1]), linkCode: match[2] };
}

/** Opens a party's room by its link: SMS code to the phone, then the link login. */
export async function openByLink(t: TestApp, agent: Agent, phone: string): Promise<RoomLogin> {
  const link = await linkFor(t, phone);
  ok(await agent.call(sendLinkSmsCode, { userType: 0, ...link, phone }), 'link sms');
  // The room-login code has its own purpose: the signing code may follow at once (no resend wait).
  const smsCode = await t.smsCodeFor(phone, 'roomLogin');
  return ok(
    await agent.call<RoomLogin>(signingRoomLoginByLinkCode, { userType: 0, ...link, phone, smsCode }),
    'link login',
  );
}

/** Asks for a signing code for the room and returns it. */
export async function signCode(t: TestApp, agent: Agent, roomToken: string, phone: string): Promise<string> {
  ok(await agent.call(sendSignSmsCode, { userType: 0, roomToken }), 'sign sms');
  const code = await t.smsCodeFor(phone, 'sign');
  t.clock.advance(61_000);
  return code;
}

export type SignBody = {
  companySealId?: string;
  legalPersonSealId?: string;
  personSealId?: string;
  signaturePng?: string;
};

export async function sign(t: TestApp, agent: Agent, room: RoomLogin, phone: string, body: SignBody) {
  const smsCode = await signCode(t, agent, room.roomToken, phone);
  return agent.call<{
    flowStatus: string;
    partyStatus: string;
    documents: { documentId: string; sha256: string }[];
  }>(signDocument, { userType: 0, roomToken: room.roomToken, smsCode, ...body });
}

export async function getBytes(
  agent: Agent,
  url: string,
): Promise<{ status: number; bytes: Uint8Array; type: string }> {
  const res = await agent.app.inject({ method: 'GET', url, cookies: Object.fromEntries(agent.cookies) });
  return {
    status: res.statusCode,
    bytes: new Uint8Array(res.rawPayload),
    type: String(res.headers['content-type']),
  };
}

export { ok, userLogin };

/** A drawn signature (a PNG, base64), as the signing pad of a signer without a seal sends it. */
export async function drawnSignature(): Promise<string> {
  const c = createCanvas(300, 120);
  const g = c.getContext('2d');
  g.lineWidth = 4;
  g.beginPath();
  g.moveTo(20, 90);
  g.bezierCurveTo(80, 10, 160, 110, 280, 30);
  g.stroke();
  return (await c.encode('png')).toString('base64');
}

/**
 * Failures or pauses injected into one app's signatures (crash safety and races): listeners on the flow
 * module's hooks (server/modules/flow/hooks.ts), added once per app, that call what was set last; undefined
 * clears it.
 */
export type SigningFaults = {
  afterBlobWrite?: (documentId: string) => Promise<void> | void;
  afterLastSignature?: (flowId: string) => Promise<void> | void;
};
const faultSlots = new WeakMap<AppDeps, { current?: SigningFaults }>();
export function setSigningFaults(deps: AppDeps, faults: SigningFaults | undefined): void {
  let slot = faultSlots.get(deps);
  if (!slot) {
    const fresh: { current?: SigningFaults } = {};
    deps.hooks.on(afterBlobWrite, (e) => fresh.current?.afterBlobWrite?.(e.documentId));
    deps.hooks.on(afterLastSignature, (e) => fresh.current?.afterLastSignature?.(e.flowId));
    faultSlots.set(deps, fresh);
    slot = fresh;
  }
  slot.current = faults;
}

/** The steps of a one-party flow: one person signing at `position` (default a rectangle on page 1). */
export const onePersonSteps = (
  documentId: string,
  name: string,
  phone: string,
  position: Record<string, unknown> = { page: 1, mm: { left: 20, top: 200, width: 40, height: 20 } },
) => [
  {
    parties: [
      {
        kind: 'person' as const,
        name,
        phone,
        positions: [{ documentId, ...position }],
      },
    ],
  },
];
