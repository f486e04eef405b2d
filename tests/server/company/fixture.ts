// Set-up for the company module's HTTP tests: valid credit codes, opening a company through the real
// calls (the micro-payment amount read from the development outbox), multipart uploads, fixture files.
import { deflateSync } from 'node:zlib';
import {
  applyCompanyEsign,
  confirmCompanyMicroPayment,
  sendCompanyMicroPayment,
  switchAccount,
  type CompanyApply,
} from '#contract/calls/company.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import { CREDIT_CODE_ALPHABET, creditCodeCheckChar } from '#contract/rules/credit-code.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { devBankAddress } from '#server/modules/company/index.ts';
import { type Agent, type CallResult, type TestApp, registerAndLogin } from '../helper.ts';

/** A fresh, valid unified social credit code (91 + division 330106 + 9 random characters + check). */
export function newCreditCode(): string {
  let body = '91330106';
  for (let i = 0; i < 9; i++) body += CREDIT_CODE_ALPHABET[Math.floor(Math.random() * 31)];
  return body + creditCodeCheckChar(body);
}

/** The amount (yuan text, e.g. "0.37") the development bank last "paid" to the company's account. */
export async function paidAmount(t: TestApp, creditCode: string): Promise<string> {
  const [m] = await listOutbox(t.db, { to: devBankAddress(creditCode), limit: 1 });
  const match = m && /(\d+\.\d{2}) CNY/.exec(m.text);
  if (!match) throw new Error(`no micro-payment in the outbox for ${creditCode}`);
  return match[1];
}

/** A different amount of the same form (for wrong tries). */
export const wrongAmount = (right: string) => (right === '0.50' ? '0.51' : '0.50');

export type Person = { agent: Agent; userId: string; phone: string; password: string };

export async function person(t: TestApp): Promise<Person> {
  const { agent, info, phone, password } = await registerAndLogin(t);
  return { agent, userId: info.userId, phone, password };
}

/**
 * Opens a company through the real calls with `applicant` as legal representative, and switches the
 * applicant's session to it (administrator).
 */
export async function openCompany(
  t: TestApp,
  applicant: Person,
  opts: { name?: string; creditCode?: string } = {},
): Promise<{ id: string; name: string; creditCode: string; info: LoginInfo }> {
  const creditCode = opts.creditCode ?? newCreditCode();
  const name = opts.name ?? `测试企业${creditCode.slice(-6)}有限公司`;
  const a = applicant.agent;
  const applied = await a.call<CompanyApply>(applyCompanyEsign, {
    userType: 0,
    companyName: name,
    creditCode,
    legalRepName: '张三',
    applicantRole: 'legal_rep',
  });
  if (applied.body.code !== 0) throw new Error(`apply failed: ${JSON.stringify(applied.body)}`);
  const companyId = applied.body.data.companyId;
  const sent = await a.call(sendCompanyMicroPayment, { userType: 0, companyId });
  if (sent.body.code !== 0) throw new Error(`send failed: ${JSON.stringify(sent.body)}`);
  const amount = await paidAmount(t, creditCode);
  const ok = await a.call(confirmCompanyMicroPayment, { userType: 0, companyId, amount });
  if (ok.body.code !== 0) throw new Error(`confirm failed: ${JSON.stringify(ok.body)}`);
  const sw = await a.call<LoginInfo>(switchAccount, { userType: 0, targetUserType: 1, companyId });
  if (sw.body.code !== 0) throw new Error(`switch failed: ${JSON.stringify(sw.body)}`);
  return { id: companyId, name, creditCode, info: sw.body.data };
}

/** POSTs a multipart form as the client does (fields first, then `file`; XSRF headers from the token). */
export async function upload<T = unknown>(
  agent: Agent,
  url: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; filename?: string; type?: string },
): Promise<CallResult<T>> {
  return agent.upload<T>(
    url,
    fields,
    file && { ...file, filename: file.filename ?? 'letter.png', type: file.type ?? 'image/png' },
  );
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real, tiny PNG (8x8 grey): what a scanned letter is, as far as the server can tell. */
export function tinyPng(): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(8 * 9, 0x80);
  for (let y = 0; y < 8; y++) rows[y * 9] = 0; // filter byte
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
