// Set-up for the seal module's HTTP tests: people with a verified name, a verified company with an
// administrator and operators, multipart uploads, and test images.
import { createCanvas } from '@napi-rs/canvas';
import { eq } from 'drizzle-orm';
import { userLogin } from '#contract/calls/session.ts';
import { companies, companyMembers } from '#server/db/schema/company.ts';
import { personIdentities } from '#server/db/schema/person.ts';
import { type Agent, type CallResult, type TestApp, registerAndLogin } from '../helper.ts';

let seq = 0;

/** Records a verified real name for the user, as the real-name check of the person module leaves it. */
export async function giveRealName(t: TestApp, userId: string, realName: string): Promise<void> {
  seq += 1;
  await t.db.insert(personIdentities).values({
    userId,
    realName,
    idHash: `seal-test-${process.pid}-${seq}-${userId}`,
    idMasked: '110101********1234',
    phoneMasked: '139****0000',
    provider: 'test',
    verifiedAt: t.clock.now(),
  });
}

export type Member = { agent: Agent; userId: string; phone: string; password: string };

/** A registered person, logged in as a person (userType 0). */
export async function person(t: TestApp, realName?: string): Promise<Member> {
  const { agent, info, phone, password } = await registerAndLogin(t);
  if (realName) await giveRealName(t, info.userId, realName);
  return { agent, userId: info.userId, phone, password };
}

/** Switches the member's browser to act for the company (userType 1) through the real company login. */
export async function actForCompany(_t: TestApp, m: Member, companyId: string): Promise<void> {
  const res = await m.agent.call(userLogin, { userType: 1, phone: m.phone, password: m.password, companyId });
  if (res.body.code !== 0) throw new Error(`company login failed: ${JSON.stringify(res.body)}`);
}

/** Logs every member in again (after the test clock moved past the session lifetime). */
export async function logInAgain(t: TestApp, co: Company): Promise<void> {
  for (const m of [co.admin, ...co.operators]) await actForCompany(t, m, co.id);
}

export type Company = { id: string; name: string; admin: Member; operators: Member[] };

/** A verified company with an administrator and `operators` active operators, each acting for it. */
export async function verifiedCompany(
  t: TestApp,
  opts: { name?: string; operators?: number } = {},
): Promise<Company> {
  const admin = await person(t, '王管理');
  seq += 1;
  const name = opts.name ?? '杭州云签科技有限公司';
  const [row] = await t.db
    .insert(companies)
    .values({
      name,
      creditCode: '91330106MA2B3C4D5E',
      legalRepName: '李四',
      applicantUserId: admin.userId,
      applicantRole: 'legal_rep',
      status: 'pending',
    })
    .returning({ id: companies.id });
  // Only one verified company per credit code: the tests' companies stay distinct by id, verified one by one.
  await t.db
    .update(companies)
    .set({ status: 'verified', creditCode: `91330106MA${String(seq).padStart(8, '0')}` })
    .where(eq(companies.id, row.id));
  await t.db
    .insert(companyMembers)
    .values({ companyId: row.id, userId: admin.userId, role: 'admin', status: 'active' });
  const operators: Member[] = [];
  for (let i = 0; i < (opts.operators ?? 1); i++) {
    const op = await person(t, `赵经办${i}`);
    await t.db
      .insert(companyMembers)
      .values({ companyId: row.id, userId: op.userId, role: 'operator', status: 'active' });
    operators.push(op);
  }
  for (const m of [admin, ...operators]) await actForCompany(t, m, row.id);
  return { id: row.id, name, admin, operators };
}

/** POSTs a multipart upload as the client does (XSRF headers from the token cookie). */
export async function upload<T = unknown>(
  agent: Agent,
  url: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; filename?: string; type?: string },
): Promise<CallResult<T>> {
  return agent.upload<T>(
    url,
    fields,
    file && { ...file, filename: file.filename ?? 'seal.png', type: file.type ?? 'image/png' },
  );
}

/** A red seal stamped on white paper, as a scan gives it. */
export function scannedSealPng(width = 400, height = 300): Uint8Array {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = '#d0101c';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.arc(width / 2, height / 2, Math.min(width, height) / 4, 0, Math.PI * 2);
  ctx.stroke();
  return new Uint8Array(canvas.encodeSync('png'));
}

/** A signature drawn on a transparent pad: one black stroke. */
export function padSignaturePng(): Uint8Array {
  const canvas = createCanvas(600, 300);
  const ctx = canvas.getContext('2d');
  ctx.strokeStyle = '#111111';
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.moveTo(60, 200);
  ctx.bezierCurveTo(150, 40, 300, 280, 540, 90);
  ctx.stroke();
  return new Uint8Array(canvas.encodeSync('png'));
}
