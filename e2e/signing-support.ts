import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { KEY_SUFFIX_HEADER, keySuffixOf, TOKEN_COOKIE, XSRF_HEADER } from '../contract/transport.ts';
import { newIdNumber, registerViaApi } from './person-support.ts';
import { latestSmsCode, type Locale } from './support.ts';

const CSIGN = '/v1/account/api/csign';

type Envelope<T> = { code: number; msg: string; data: T };

/**
 * POST a call with the page's own request context (cookies shared with the page) and, with a session, the
 * XSRF headers the app sends; throws on a refusal.
 */
export async function call<T>(request: APIRequestContext, name: string, data: object = {}): Promise<T> {
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === TOKEN_COOKIE)?.value;
  const headers: Record<string, string> = token
    ? { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) }
    : {};
  const res = await request.post(`${CSIGN}/${name}`, { data: { userType: 0, ...data }, headers });
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 0) throw new Error(`${name} refused: ${JSON.stringify(body)}`);
  return body.data;
}

/** Every SMS code sent to a phone so far (latest first). */
async function codesFor(request: APIRequestContext, phone: string): Promise<string[]> {
  const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string | null }[] };
  return body.data.map((m) => m.code).filter((c): c is string => Boolean(c));
}

/** How many codes the phone has received; pass it to nextSmsCode to wait for the one after. */
export const smsCount = async (request: APIRequestContext, phone: string) =>
  (await codesFor(request, phone)).length;

/** The first SMS code sent after `countBefore` codes. */
export async function nextSmsCode(
  request: APIRequestContext,
  phone: string,
  countBefore: number,
): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const codes = await codesFor(request, phone);
      code = codes.length > countBefore ? codes[0] : '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

/** The signing link last sent to a phone, read from the development outbox (SPA path without the '#'). */
export async function latestSigningLink(request: APIRequestContext, phone: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { text: string }[] };
      for (const m of body.data) {
        const hit = /#(\/singingRoom\/\d\/[\w-]+)/.exec(m.text);
        if (hit) {
          link = hit[1];
          break;
        }
      }
      return link;
    })
    .toMatch(/^\/singingRoom\//);
  return link;
}

/**
 * Opens e-signature for the logged-in person through the person calls (real name with the development
 * identity provider, the agreement, the certificate). personWithSeal adds a name seal.
 */
export async function openPersonESign(
  request: APIRequestContext,
  phone: string,
  name: string,
): Promise<void> {
  await call(request, 'sendSmsCode', { phone, purpose: 'realName' });
  const smsCode = await latestSmsCode(request, phone);
  await call(request, 'authIdNamePhone', { name, idNumber: newIdNumber(), phone, smsCode });
  const agreement = await call<{ version: string }>(request, 'getUserAgreement');
  await call(request, 'acceptUserAgreement', { version: agreement.version });
  await call(request, 'createPersonCaCert');
}

/** A new person in a desktop browser context of its own: registered, logged in, e-signature opened. */
export async function personInContext(browser: Browser, name: string, locale: Locale) {
  const context = await browser.newContext({
    locale,
    baseURL: test.info().project.use.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, name);
  return { page, phone };
}

/** A new person logged in on `page`: registered, e-signature opened, a name seal. Answers the phone. */
export async function personWithSeal(page: Page, name: string): Promise<string> {
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, name);
  await call(page.request, 'savePersonSeal', { sealDTO: { userType: 0 } });
  return phone;
}

/** A two-page contract whose text names both parties (so a position can be placed by keyword). */
export async function contractPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 2; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Service contract - page ${n}`, { x: 72, y: 760, size: 20, font });
    page.drawText('The parties agree on the services described here.', { x: 72, y: 720, size: 12, font });
    if (n === 2) {
      page.drawText('Party A', { x: 72, y: 260, size: 14, font });
      page.drawText('Party B', { x: 340, y: 260, size: 14, font });
    }
  }
  const file = join(mkdtempSync(join(tmpdir(), 'esign-contract-')), 'contract.pdf');
  writeFileSync(file, await doc.save());
  return file;
}

/** A PDF fetched through a download link: its bytes and how many signatures it carries. */
export async function fetchPdf(request: APIRequestContext, href: string) {
  const res = await request.get(href);
  expect(res.status()).toBe(200);
  const bytes = await res.body();
  const text = bytes.toString('latin1');
  return {
    bytes,
    startsWithPdf: text.startsWith('%PDF'),
    byteRanges: (text.match(/\/ByteRange\s*\[/g) ?? []).length,
  };
}

export type CliReport = {
  verdict: string;
  signatures: { kind: string; indication: string; trusted: boolean; trustAside: { indication: string } }[];
};

/**
 * The repository's verifier CLI on a file (its JSON report), trusting the platform root of the e2e server's
 * data folder; null when it cannot run here.
 */
export function verifyWithCli(bytes: Buffer): CliReport | null {
  const file = join(mkdtempSync(join(tmpdir(), 'esign-signed-')), 'signed.pdf');
  writeFileSync(file, bytes);
  try {
    const out = execFileSync('npm', ['run', '--silent', 'verify', '--', '--json', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? 'data' },
    });
    return JSON.parse(out) as CliReport;
  } catch (e) {
    const stdout = (e as { stdout?: string }).stdout;
    try {
      return stdout ? (JSON.parse(stdout) as CliReport) : null;
    } catch {
      return null;
    }
  }
}

/** Logs a page in with the cookies its request context already holds (a fresh check of the login state). */
export async function openAsLoggedIn(page: Page, path: string): Promise<void> {
  await page.goto(`/#${path}`);
}

export const signingTexts = {
  'en-US': {
    chooseFile: 'Choose a PDF file',
    next: 'Next',
    send: 'Send',
    sent: 'Sent. Each signer of the first step has received a link.',
    signerPhone: 'Signer phone',
    signerName: 'Signer name',
    addParty: 'Add a signer',
    keyword: 'Keyword',
    placeByKeyword: 'Place by keyword',
    phone: 'Phone',
    smsCode: 'SMS code',
    getCode: 'Get code',
    enter: 'Enter the signing room',
    drawSignature: 'Draw a signature',
    pad: 'Signature pad: draw your signature with a finger or the mouse',
    sign: 'Sign',
    confirmSign: 'Confirm signing',
    resultSigned: 'You have signed.',
    waiting: /Waiting for the other parties/,
    completed: 'Every party has signed: the contract is complete.',
    downloadSigned: /Download the signed PDF/,
    downloadReport: 'Download the audit report',
    tabPending: 'To sign',
    quota: /Signings left/,
    personA: 'Alice',
    personB: 'Bobby',
    addCompany: 'Add a company',
    operatorPhone: 'Operator phone',
    // Registered company names are Chinese in both languages.
    companyName: '杭州云签科技有限公司',
    contractSeal: 'Contract',
    partyCompany: 'Company',
    sealType: 'Company seal',
    officialSeal: 'Official seal',
    hasNeededSeal: 'Has the seal it needs',
  },
  'zh-CN': {
    chooseFile: '选择 PDF 文件',
    next: '下一步',
    send: '发送',
    sent: '已发送，第一步的签署方已收到签署链接。',
    signerPhone: '签署人手机号',
    signerName: '签署人姓名',
    addParty: '添加签署人',
    keyword: '关键字',
    placeByKeyword: '按关键字放置',
    phone: '手机号',
    smsCode: '验证码',
    getCode: '获取验证码',
    enter: '进入签署室',
    drawSignature: '手写签名',
    pad: '签名板：用手指或鼠标书写您的签名',
    sign: '签署',
    confirmSign: '确认签署',
    resultSigned: '您已完成签署。',
    waiting: /等待其他签署方/,
    completed: '所有签署方均已签署，合同已完成。',
    downloadSigned: /下载已签署 PDF/,
    downloadReport: '下载审计报告',
    tabPending: '待签署',
    quota: /剩余签署次数/,
    personA: '王芳',
    personB: '李雷',
    addCompany: '添加企业',
    operatorPhone: '经办人手机号',
    companyName: '杭州云签科技有限公司',
    contractSeal: '合同专用章',
    partyCompany: '企业',
    sealType: '企业印章',
    officialSeal: '公章',
    hasNeededSeal: '所需印章可用',
  },
} as const;

/** Upload the contract on the quick-launch screen (the page is logged in). */
export async function uploadContract(
  page: Page,
  t: { quota: string | RegExp; chooseFile: string; next: string },
) {
  await page.goto('/#/manage/home/quicklyFileUpload');
  await expect(page.getByText(t.quota)).toBeVisible();
  await page.getByLabel(t.chooseFile).setInputFiles(await contractPdf());
  await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole('button', { name: t.next }).click();
}

/** Opens the phone's latest signing link and logs in to the room with its SMS code (PC or phone room). */
export async function enterRoomByLink(page: Page, phone: string, t: (typeof signingTexts)[Locale]) {
  const link = await latestSigningLink(page.request, phone);
  await page.goto(`/#${link}`);
  await page.getByLabel(t.phone).fill(phone);
  const before = await smsCount(page.request, phone);
  await page.getByRole('button', { name: t.getCode }).click();
  await page.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, phone, before));
  await page.getByRole('button', { name: t.enter }).click();
  await expect(page).toHaveURL(/#\/(pc|h5)\/v1\/signing_room\?/);
  await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
}

/** The logged-in user finds the flow in the pending list and opens its signing room on PC. */
export async function openRoomFromListOnPc(page: Page, t: (typeof signingTexts)[Locale], sealName?: RegExp) {
  await page.goto('/#/signList');
  await page.getByRole('tab', { name: t.tabPending }).click();
  await page
    .getByRole('article', { name: 'contract' })
    .getByRole('button', { name: t.sign, exact: true })
    .click();
  await expect(page).toHaveURL(/#\/pc\/v1\/signing_room\?/);
  await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
  if (sealName) await expect(page.getByRole('radio', { name: sealName })).toBeChecked();
}

/** In the open room: sign with the chosen seal after the SMS code; the flow is then complete. */
export async function signInRoom(page: Page, phone: string, t: (typeof signingTexts)[Locale]) {
  await page.getByRole('button', { name: t.sign, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const before = await smsCount(page.request, phone);
  await dialog.getByRole('button', { name: t.getCode }).click();
  await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, phone, before));
  await dialog.getByRole('button', { name: t.confirmSign }).click();
  await expect(page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
  await expect(page.getByTestId('flow-state')).toHaveText(t.completed, { timeout: 30_000 });
}

/** The logged-in user finds the flow in the pending list and signs it on PC with the preselected seal. */
export async function signFromListOnPc(
  page: Page,
  phone: string,
  t: (typeof signingTexts)[Locale],
  sealName?: RegExp,
) {
  await openRoomFromListOnPc(page, t, sealName);
  await signInRoom(page, phone, t);
}

/**
 * The logged-in page, acting for its company, quick-launches the contract to its own company: one company
 * party whose operator has `operatorPhone`, its seal placed at "Party A". `check` looks at the party card
 * before going on (what the party is offered).
 */
export async function launchToOwnCompany(
  page: Page,
  t: (typeof signingTexts)[Locale],
  operatorPhone: string,
  check?: (card: Locator) => Promise<void>,
  /** What the launch screen says once sent (another text when the launch waits for approval). */
  sentText: string = t.sent,
) {
  await uploadContract(page, t);
  const card = page.getByTestId('party-card');
  await card.getByText(t.partyCompany, { exact: true }).click();
  await card.getByLabel(t.operatorPhone).fill(operatorPhone);
  await check?.(card);
  await page.getByRole('button', { name: t.next }).click();
  await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
    timeout: 20_000,
  });
  await page.getByLabel(t.keyword).fill('Party A');
  await page.getByRole('button', { name: t.placeByKeyword }).click();
  await expect(page.getByTestId('placed-box')).toHaveCount(1);
  await page.getByRole('button', { name: t.next }).click();
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByText(sentText)).toBeVisible({ timeout: 30_000 });
}
