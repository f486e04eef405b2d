// npm run demo -- --out DIR
// On a fresh DATA_DIR: demo accounts (a person; a company with an administrator and an operator), their
// certificates and seals, and a completed two-party contract (company contract seal + person seal, both
// visible), all through the product's own HTTP calls (app.inject, in process). Writes
// DIR/contract-signed.pdf, DIR/audit-report.pdf and DIR/root-ca.pem, and prints the demo logins.
import './require-node24.ts';
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import pino from 'pino';
import {
  addCompanyOperator,
  answerCompanyInvitation,
  applyCompanyEsign,
  confirmCompanyMicroPayment,
  sendCompanyMicroPayment,
  switchAccount,
} from '../contract/calls/company.ts';
import { AUDIT_REPORT_PATH, SIGNED_PDF_PATH, uploadDocument } from '../contract/calls/document.ts';
import {
  getFlowDetail,
  launchFlow,
  sendSignSmsCode,
  signDocument,
  signingRoomLogin,
} from '../contract/calls/flow.ts';
import {
  acceptUserAgreement,
  authIdNamePhone,
  createPersonCaCert,
  getUserAgreement,
} from '../contract/calls/person.ts';
import { authoriseSeal, saveCompanySeal, savePersonSeal } from '../contract/calls/seal.ts';
import { sendSmsCode, userRegister } from '../contract/calls/session.ts';
import { type CallDef, callPath } from '../contract/envelope.ts';
import { CREDIT_CODE_ALPHABET, creditCodeCheckChar } from '../contract/rules/credit-code.ts';
import { idCheckChar } from '../contract/rules/id-number.ts';
import { KEY_SUFFIX_HEADER, TOKEN_COOKIE, XSRF_HEADER, keySuffixOf } from '../contract/transport.ts';
import { buildApp, createHooks, createJobs } from '../server/app.ts';
import { PerApp } from '../server/lib/per-app.ts';
import { loadConfig } from '../server/config.ts';
import { closeDatabase, openDatabase } from '../server/db/database.ts';
import { type AppDeps, systemClock } from '../server/deps.ts';
import { OutboxMessenger, listOutbox } from '../server/messaging/messenger.ts';
import { devBankAddress } from '../server/modules/company/index.ts';
import { embedCjkFont } from '../server/pdf/compose/pdf-tools.ts';
import { pkiFor } from '../server/modules/pki/index.ts';
import { openBlobStore } from '../server/storage/open-blob-store.ts';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
if (outIndex < 0 || !args[outIndex + 1]) {
  console.error('usage: npm run demo -- --out DIR   (on a fresh DATA_DIR)');
  process.exit(2);
}
const outDir = resolve(args[outIndex + 1]);
mkdirSync(outDir, { recursive: true });

const PASSWORD = 'Demo2024pass';
const PHONES = { person: '13800000001', admin: '13800000002', operator: '13800000003' };

const config = loadConfig(process.env);
const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
const db = await openDatabase(config);
const jobs = createJobs({ db, log, config });
const deps: AppDeps = {
  config,
  db,
  storage: await openBlobStore(config),
  log,
  clock: systemClock,
  hooks: createHooks(),
  jobs,
  perApp: new PerApp(),
  messenger: new OutboxMessenger({ db, log, clock: systemClock, isProduction: config.isProduction }),
};
const app = await buildApp(deps);
await app.ready();

/** A browser: cookies plus the XSRF headers, as src/api/http.ts sends them. */
class Browser {
  cookies = new Map<string, string>();
  async call<T>(def: Pick<CallDef, 'name' | 'prefix'>, body: Record<string, unknown>): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = this.cookies.get(TOKEN_COOKIE);
    if (token) Object.assign(headers, { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) });
    const res = await app.inject({
      method: 'POST',
      url: callPath(def),
      headers,
      cookies: Object.fromEntries(this.cookies),
      payload: JSON.stringify(body),
    });
    return this.read<T>(res, def.name);
  }
  async upload<T>(
    def: Pick<CallDef, 'name' | 'prefix'>,
    fields: Record<string, string>,
    file: Uint8Array,
    filename: string,
  ): Promise<T> {
    const boundary = `----demo${randomInt(1e9)}`;
    const parts: Buffer[] = [];
    for (const [k, v] of Object.entries(fields))
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(file),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const token = this.cookies.get(TOKEN_COOKIE) ?? '';
    const res = await app.inject({
      method: 'POST',
      url: callPath(def),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        [XSRF_HEADER]: token,
        [KEY_SUFFIX_HEADER]: keySuffixOf(token),
      },
      cookies: Object.fromEntries(this.cookies),
      payload: Buffer.concat(parts),
    });
    return this.read<T>(res, def.name);
  }
  async get(url: string): Promise<Uint8Array> {
    const res = await app.inject({ method: 'GET', url, cookies: Object.fromEntries(this.cookies) });
    if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('pdf'))
      throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return new Uint8Array(res.rawPayload);
  }
  private read<T>(res: { headers: Record<string, unknown>; body: string }, name: string): T {
    const set = res.headers['set-cookie'];
    for (const line of (Array.isArray(set) ? set : set ? [set] : []) as string[]) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const value = decodeURIComponent(pair.slice(eq + 1));
      if (/max-age=0/i.test(line) || !value) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    const body = JSON.parse(res.body) as { code: number; msg: string; data: T };
    if (body.code !== 0) throw new Error(`${name}: ${body.code} ${body.msg}`);
    return body.data;
  }
}

async function smsCode(phone: string, purpose: string): Promise<string> {
  const hit = (await listOutbox(db, { to: phone, limit: 20 })).find((m) => m.code && m.purpose === purpose);
  if (!hit?.code) throw new Error(`no ${purpose} code for ${phone}`);
  return hit.code;
}

function idNumber(): string {
  const first17 = `110105198${randomInt(0, 10)}0${randomInt(1, 10)}1${randomInt(0, 10)}${String(randomInt(0, 1000)).padStart(3, '0')}`;
  return first17 + idCheckChar(first17);
}

/** Registers a person, passes the real-name check, accepts the agreement and gets a certificate. */
async function person(phone: string, name: string, withCert = true): Promise<Browser> {
  const b = new Browser();
  await b.call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
  try {
    await b.call(userRegister, {
      userType: 0,
      phone,
      password: PASSWORD,
      smsCode: await smsCode(phone, 'register'),
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nThe demo needs a fresh DATA_DIR (now ${config.dataDir}).`);
  }
  await b.call(sendSmsCode, { userType: 0, phone, purpose: 'realName' });
  await b.call(authIdNamePhone, {
    userType: 0,
    name,
    idNumber: idNumber(),
    phone,
    smsCode: await smsCode(phone, 'realName'),
  });
  if (withCert) {
    const agreement = await b.call<{ version: string }>(getUserAgreement, { userType: 0 });
    await b.call(acceptUserAgreement, { userType: 0, version: agreement.version });
    await b.call(createPersonCaCert, { userType: 0 });
  }
  return b;
}

async function contractPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await embedCjkFont(doc);
  const lines = [
    '采购合同 Purchase Contract',
    '',
    '甲方（卖方）Party A (seller): 演示科技有限公司 Demo Technology Co., Ltd.',
    '乙方（买方）Party B (buyer): 张三 Zhang San',
    '',
    '第一条 标的：甲方向乙方提供电子签章服务一年。',
    'Article 1. Subject: Party A provides an e-signature service for one year.',
    '第二条 价款：人民币壹万元整（¥10,000.00）。',
    'Article 2. Price: CNY 10,000.00.',
    '第三条 本合同经双方电子签章后生效。',
    'Article 3. This contract takes effect once both parties have signed electronically.',
  ];
  const page = doc.addPage([595.28, 841.89]);
  lines.forEach((text, i) => {
    page.drawText(text, { x: 60, y: 770 - i * 24, size: i === 0 ? 18 : 11, font, color: rgb(0, 0, 0) });
  });
  page.drawText('甲方盖章 Party A (seal):', { x: 60, y: 240, size: 11, font });
  page.drawText('乙方签字 Party B (signature):', { x: 320, y: 240, size: 11, font });
  return doc.save({ useObjectStreams: false });
}

try {
  const started = performance.now();
  // The person (party B) with a name seal.
  const buyer = await person(PHONES.person, '张三');
  const buyerSeal = await buyer.call<{ id: string }>(savePersonSeal, { userType: 0 });

  // The company: the administrator opens it (micro-payment through the development bank).
  const admin = await person(PHONES.admin, '王管理', false);
  let body = '91330106';
  for (let i = 0; i < 9; i++) body += CREDIT_CODE_ALPHABET[randomInt(0, 31)];
  const creditCode = body + creditCodeCheckChar(body);
  const apply = await admin.call<{ companyId: string }>(applyCompanyEsign, {
    userType: 0,
    companyName: '演示科技有限公司',
    creditCode,
    legalRepName: '王管理',
    applicantRole: 'legal_rep',
  });
  const companyId = apply.companyId;
  await admin.call(sendCompanyMicroPayment, { userType: 0, companyId });
  const [paid] = await listOutbox(db, { to: devBankAddress(creditCode), limit: 1 });
  const amount = /(\d+\.\d{2}) CNY/.exec(paid?.text ?? '')?.[1];
  if (!amount) throw new Error('no micro-payment in the outbox');
  await admin.call(confirmCompanyMicroPayment, { userType: 0, companyId, amount });
  await admin.call(switchAccount, { userType: 0, targetUserType: 1, companyId });
  const contractSeal = await admin.call<{ id: string }>(saveCompanySeal, {
    userType: 1,
    sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
  });
  await admin.call(saveCompanySeal, {
    userType: 1,
    sealDTO: { userType: 1, sealType: 1, generateAntiCounterfeitNo: true },
  });

  // The operator, with the contract seal authorised to them for a year.
  const operator = await person(PHONES.operator, '赵经办', false);
  // Operators are invited and accept (issue 6).
  const { invitationId } = await admin.call<{ invitationId: string }>(addCompanyOperator, {
    userType: 1,
    phone: PHONES.operator,
  });
  await operator.call(answerCompanyInvitation, { userType: 0, invitationId, isAccepted: true });
  const opId = (
    await operator.call<{ userId: string }>(switchAccount, { userType: 0, targetUserType: 1, companyId })
  ).userId;
  const now = Date.now();
  await admin.call(authoriseSeal, {
    userType: 1,
    sealId: contractSeal.id,
    userIds: [opId],
    validFrom: new Date(now - 60_000).toISOString(),
    validTo: new Date(now + 365 * 86_400_000).toISOString(),
  });

  // The contract: the operator launches it for the company and the person.
  const doc = await operator.upload<{ documentId: string }>(
    uploadDocument,
    { userType: '1' },
    await contractPdf(),
    '采购合同.pdf',
  );
  const launched = await operator.call<{ flowId: string }>(launchFlow, {
    userType: 1,
    title: '采购合同 Purchase Contract',
    documentIds: [doc.documentId],
    message: '请审阅并签署 Please review and sign',
    steps: [
      {
        parties: [
          {
            kind: 'company',
            companyId,
            operatorPhone: PHONES.operator,
            operatorName: '赵经办',
            applies: { companySealType: 102, date: true },
            positions: [{ documentId: doc.documentId, keyword: '甲方盖章' }],
          },
        ],
      },
      {
        parties: [
          {
            kind: 'person',
            name: '张三',
            phone: PHONES.person,
            positions: [
              { documentId: doc.documentId, page: 1, mm: { left: 118, top: 222, width: 26, height: 26 } },
            ],
          },
        ],
      },
    ],
  });
  const flowId = launched.flowId;
  type Detail = { status: string; steps: { parties: { partyId: string }[] }[] };
  const signAs = async (
    b: Browser,
    userType: number,
    phone: string,
    partyId: string,
    seal: Record<string, string>,
  ) => {
    const room = await b.call<{ roomToken: string }>(signingRoomLogin, { userType, flowId, partyId });
    await b.call(sendSignSmsCode, { userType, roomToken: room.roomToken });
    return b.call<{ flowStatus: string }>(signDocument, {
      userType,
      roomToken: room.roomToken,
      smsCode: await smsCode(phone, 'sign'),
      ...seal,
    });
  };
  const detail = await operator.call<Detail>(getFlowDetail, { userType: 1, flowId });
  await signAs(operator, 1, PHONES.operator, detail.steps[0].parties[0].partyId, {
    companySealId: contractSeal.id,
  });
  const done = await signAs(buyer, 0, PHONES.person, detail.steps[1].parties[0].partyId, {
    personSealId: buyerSeal.id,
  });
  if (done.flowStatus !== 'completed') throw new Error(`flow ended as ${done.flowStatus}`);

  const signed = await buyer.get(`${SIGNED_PDF_PATH}/${flowId}/${doc.documentId}`);
  const report = await buyer.get(`${AUDIT_REPORT_PATH}/${flowId}`);
  const pki = await pkiFor(deps);
  writeFileSync(join(outDir, 'contract-signed.pdf'), signed);
  writeFileSync(join(outDir, 'audit-report.pdf'), report);
  writeFileSync(join(outDir, 'root-ca.pem'), pki.rootPem);
  console.log(`Demo ready in ${Math.round(performance.now() - started)} ms (DATA_DIR ${config.dataDir}).`);
  console.log(`  ${join(outDir, 'contract-signed.pdf')}  (company contract seal + person seal, B-LTA)`);
  console.log(`  ${join(outDir, 'audit-report.pdf')}  (certificate of completion, platform-signed)`);
  console.log(`  ${join(outDir, 'root-ca.pem')}  (the platform root: trust it with "C,C,C" in NSS)`);
  console.log('Demo logins (password for all three):', PASSWORD);
  console.log(`  person 张三            ${PHONES.person}  (userType 0)`);
  console.log(`  company administrator ${PHONES.admin}  (演示科技有限公司, userType 1)`);
  console.log(`  company operator      ${PHONES.operator}  (演示科技有限公司, userType 1)`);
} finally {
  await app.close();
  await jobs.stop();
  await closeDatabase(db);
}
