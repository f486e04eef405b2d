// Copy recipients (抄送, issue 29, "Done when": a CC recipient receives the finished contract): a person launches a
// contract on the quick-launch screen with a copy recipient (the "Copy to" card, progress chosen) and sees them
// in the flow's detail; the signer signs from their link; the copy recipient, who has no account, opens the link
// of their message from the development outbox on a 375 px phone, sees the parties signed and downloads the
// finished contract (signed, with the document time-stamp) and its audit report. Their link never opens a room.
import { expect, type Page, test } from '@playwright/test';
import {
  enterRoomByLink,
  fetchPdf,
  personWithSeal,
  signInRoom,
  signingTexts,
  uploadContract,
} from './signing-support.ts';
import { newPhone } from './support.ts';
import { getSigningRoom } from '../contract/paths/flow.ts';

const LOCALE = 'zh-CN';
const s = signingTexts[LOCALE];
const CC_NAME = '周抄送';

/** The copy link last sent to a phone (SPA path without '#'), read from the development outbox. */
async function latestCcLink(page: Page, phone: string): Promise<{ link: string; count: number }> {
  let found = { link: '', count: 0 };
  await expect
    .poll(async () => {
      const res = await page.request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { text: string }[] };
      const links = body.data.flatMap((m) => /#(\/ccView\/[\w-]+)/.exec(m.text)?.[1] ?? []);
      found = { link: links[0] ?? '', count: links.length };
      return found.count;
    })
    .toBeGreaterThan(0);
  return found;
}

test.use({ locale: LOCALE, viewport: { width: 1280, height: 900 } });

test('a launcher adds a copy recipient; the party signs; the recipient opens their link and downloads the finished contract', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const ccPhone = newPhone();
  // The signer, on their own PC browser.
  const signerContext = await browser.newContext({
    locale: LOCALE,
    baseURL: test.info().project.use.baseURL,
  });
  const signerPage = await signerContext.newPage();
  const signerPhone = await personWithSeal(signerPage, s.personB);

  // The launcher: one signer and one copy recipient who follows the progress.
  await personWithSeal(page, s.personA);
  await uploadContract(page, s);
  await page.getByLabel(s.signerPhone).fill(signerPhone);
  await page.getByLabel(s.signerName).fill(s.personB);
  await expect(page.getByTestId('signer-readiness')).toHaveCount(1);
  const card = page.getByTestId('cc-card');
  await card.getByRole('button', { name: '添加抄送人' }).click();
  await card.getByLabel('姓名 1', { exact: true }).fill(CC_NAME);
  await card.getByLabel('手机号 1', { exact: true }).fill(ccPhone);
  await card.getByRole('checkbox', { name: '接收进度' }).check();
  await page.getByRole('button', { name: s.next }).click();
  await expect(page.locator('.pdf-page[data-drawn="true"]').first()).toBeVisible({ timeout: 20_000 });
  await page
    .getByRole('button', { name: new RegExp(s.personB) })
    .first()
    .click();
  await page.getByLabel(s.keyword).fill('Party B');
  await page.getByRole('button', { name: s.placeByKeyword }).click();
  await expect(page.getByTestId('placed-box')).toHaveCount(1);
  await page.getByRole('button', { name: s.next }).click();
  await page.getByRole('button', { name: s.send }).click();
  await expect(page.getByText(s.sent)).toBeVisible({ timeout: 30_000 });

  // Progress chosen: the recipient was told of the launch already.
  const atLaunch = await latestCcLink(page, ccPhone);
  expect(atLaunch.count).toBe(1);

  // The launcher sees the recipient in the flow's detail.
  await page.goto('/#/signList');
  await page.getByRole('tab', { name: '已发起' }).click();
  await page.getByRole('button', { name: '详情' }).first().click();
  const panel = page.getByTestId('cc-panel');
  await expect(panel.getByTestId('cc-recipient')).toHaveCount(1);
  await expect(panel.getByTestId('cc-recipient')).toContainText(CC_NAME);
  await expect(panel.getByTestId('cc-recipient')).toContainText(
    `${ccPhone.slice(0, 3)}****${ccPhone.slice(-4)}`,
  );

  // The party signs from their link; the flow completes.
  await enterRoomByLink(signerPage, signerPhone, s);
  await signInRoom(signerPage, signerPhone, s);

  // The copy recipient: no account, a 375 px phone, the link of the latest message (the finished contract).
  const phoneContext = await browser.newContext({
    locale: LOCALE,
    baseURL: test.info().project.use.baseURL,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const phone = await phoneContext.newPage();
  let done = { link: '', count: 0 };
  await expect
    .poll(async () => {
      done = await latestCcLink(phone, ccPhone);
      return done.count;
    })
    .toBe(3); // launch, the signature (progress), completion
  await phone.goto(`/#${done.link}`);
  await expect(phone.getByTestId('cc-title')).toContainText('已完成');
  await expect(phone.getByText(`${CC_NAME}，这份合同抄送给您`)).toBeVisible();
  await expect(phone.getByTestId('cc-party')).toContainText('已签署');
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const signedHref = await phone.getByRole('link', { name: /下载已签署的/ }).getAttribute('href');
  const signed = await fetchPdf(phone.request, signedHref ?? '');
  expect(signed.startsWithPdf).toBe(true);
  // The party's signature and the completion's document time-stamp.
  expect(signed.byteRanges).toBeGreaterThanOrEqual(2);
  const reportHref = await phone.getByRole('link', { name: '下载审计报告' }).getAttribute('href');
  expect((await fetchPdf(phone.request, reportHref ?? '')).startsWithPdf).toBe(true);

  // The link is read only: as a signing link it opens nothing.
  const token = done.link.split('/').pop() ?? '';
  const room = await phone.request.post(getSigningRoom.path, {
    data: { userType: 0, roomToken: token },
  });
  expect(((await room.json()) as { code: number }).code).toBe(1313);

  // The launcher's detail now shows when the recipient looked.
  await page.reload();
  await page.getByRole('tab', { name: '已发起' }).click();
  await page.getByRole('button', { name: '详情' }).first().click();
  await expect(page.getByTestId('cc-recipient')).toContainText('查看过');
  await signerContext.close();
  await phoneContext.close();
});
