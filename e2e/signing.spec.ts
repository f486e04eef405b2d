import { gzipSync } from 'node:zlib';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { fingerStroke, openCompany } from './seal-support.ts';
import {
  personWithSeal,
  call,
  fetchPdf,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  signFromListOnPc,
  signingTexts,
  smsCount,
  uploadContract,
  verifyWithCli,
} from './signing-support.ts';
import type { Locale } from './support.ts';

/** Gzipped bytes of every script a page fetched, the pdf.js worker left out (the budget excludes it). */
function scriptMeter(page: Page) {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (res) => {
    const url = res.url();
    if (/\.(m?js)(\?|$)/.test(url) && !url.includes('pdf.worker')) bodies.set(url, res.body());
  });
  return async () => {
    let total = 0;
    const sizes: [string, number][] = [];
    for (const [url, b] of bodies) {
      const size = gzipSync(await b, { level: 9 }).length;
      sizes.push([url.replace(/^.*\//, ''), size]);
      total += size;
    }
    if (process.env.SIGNING_JS_DETAIL) {
      for (const [name, size] of sizes.sort((a, b) => b[1] - a[1]))
        console.log(`${(size / 1024).toFixed(1)} kB ${name}`);
    }
    return total;
  };
}

type T = (typeof signingTexts)[Locale];

/** Two fingers moving apart in the middle of an element (DevTools touch input, as a phone sends it). */
async function pinchOut(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const fingers = (d: number) => [
    { x: cx - d, y: cy, id: 1 },
    { x: cx + d, y: cy, id: 2 },
  ];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(30) });
  for (const d of [45, 60, 75, 90]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A person who opened e-signature, on a 375 px phone, then logged out: the link is all they use. */
async function phoneSigner(browser: Browser, locale: Locale, t: T) {
  const context = await browser.newContext({
    locale,
    baseURL: test.info().project.use.baseURL,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, t.personB);
  await context.clearCookies();
  return { context, page, phone };
}

/** Place the phone signer by dragging onto page 1 and the other party by the keyword "Party A"; send. */
async function placeAndSend(page: Page, t: T, phoneSignerName: string, otherName: string) {
  await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({ timeout: 20_000 });
  await page
    .getByRole('button', { name: new RegExp(phoneSignerName) })
    .dragTo(page.getByTestId('drop-page-1'), { targetPosition: { x: 320, y: 420 } });
  await expect(page.getByTestId('placed-box')).toHaveCount(1);
  await page
    .getByRole('button', { name: new RegExp(otherName) })
    .first()
    .click();
  await page.getByLabel(t.keyword).fill('Party A');
  await page.getByRole('button', { name: t.placeByKeyword }).click();
  await expect(page.getByTestId('placed-box')).toHaveCount(2);
  await page.getByRole('button', { name: t.next }).click();
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });
}

/** The phone signer opens the link, logs in by SMS code, draws a signature and confirms by SMS code. */
async function signOnPhone(phonePage: Page, phone: string, locale: Locale, t: T) {
  const roomJs = scriptMeter(phonePage);
  const link = await latestSigningLink(phonePage.request, phone);
  await phonePage.goto(`/#${link}`);
  await phonePage.getByLabel(t.phone).fill(phone);
  let before = await smsCount(phonePage.request, phone);
  await phonePage.getByRole('button', { name: t.getCode }).click();
  await phonePage.getByLabel(t.smsCode).fill(await nextSmsCode(phonePage.request, phone, before));
  await phonePage.getByRole('button', { name: t.enter }).click();
  await expect(phonePage).toHaveURL(/#\/h5\/v1\/signing_room\?/);
  await expect(phonePage.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
  await expect(phonePage.locator('.pdf-page[data-drawn="true"]').first()).toBeVisible({ timeout: 20_000 });
  const roomBytes = await roomJs();
  test.info().annotations.push({
    type: 'signing room JS (gzip, no worker)',
    description: `${(roomBytes / 1024).toFixed(1)} kB`,
  });
  console.log(
    `[signing room] ${locale}: ${(roomBytes / 1024).toFixed(1)} kB of gzipped JS without the pdf.js worker`,
  );
  // Nothing is wider than the phone.
  expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Pinch to zoom in with two fingers (real touch input): the pages grow and are drawn again.
  await pinchOut(phonePage, '.pdf-scroller');
  await expect
    .poll(async () => Number(await phonePage.locator('.pdf-scroller').getAttribute('data-zoom')))
    .toBeGreaterThan(1.5);
  await expect(phonePage.locator('.pdf-page[data-drawn="true"]').first()).toBeVisible();

  await expect(phonePage.getByRole('radio', { name: t.drawSignature })).toBeChecked();
  const pad = `canvas[aria-label="${t.pad}"]`;
  await phonePage.locator(pad).scrollIntoViewIfNeeded();
  await fingerStroke(phonePage, pad, [
    [0.1, 0.6],
    [0.3, 0.3],
    [0.5, 0.7],
    [0.7, 0.3],
    [0.9, 0.6],
  ]);
  await phonePage.getByRole('button', { name: t.sign, exact: true }).click();
  const dialog = phonePage.getByRole('dialog');
  await expect(dialog).toBeVisible();
  before = await smsCount(phonePage.request, phone);
  await dialog.getByRole('button', { name: t.getCode }).click();
  await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(phonePage.request, phone, before));
  await dialog.getByRole('button', { name: t.confirmSign }).click();
  await expect(phonePage).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
  await expect(phonePage.getByText(t.resultSigned)).toBeVisible();
}

/** Both download the signed PDF (two approval signatures, each passing the verifier) and the audit report. */
async function downloadBoth(page: Page, phonePage: Page, t: T) {
  const signedHref = await page.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
  const signed = await fetchPdf(page.request, signedHref ?? '');
  expect(signed.startsWithPdf).toBe(true);
  expect(signed.byteRanges).toBeGreaterThanOrEqual(2);
  const report = verifyWithCli(signed.bytes);
  expect(report).not.toBeNull();
  const approvals = report?.signatures.filter((s) => s.kind === 'approval') ?? [];
  expect(approvals).toHaveLength(2);
  for (const s of approvals) expect(s.trustAside.indication).toBe('TOTAL_PASSED');
  const reportHref = await page.getByRole('link', { name: t.downloadReport }).getAttribute('href');
  expect((await fetchPdf(page.request, reportHref ?? '')).startsWithPdf).toBe(true);

  await phonePage.reload();
  await expect(phonePage.getByTestId('flow-state')).toHaveText(t.completed);
  const phoneHref = await phonePage.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
  const phoneCopy = await fetchPdf(phonePage.request, phoneHref ?? '');
  expect(phoneCopy.startsWithPdf).toBe(true);
  expect(phoneCopy.bytes.equals(signed.bytes)).toBe(true);
  const phoneReportHref = await phonePage.getByRole('link', { name: t.downloadReport }).getAttribute('href');
  expect((await fetchPdf(phonePage.request, phoneReportHref ?? '')).startsWithPdf).toBe(true);
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = signingTexts[locale];

  test.describe(`signing (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });

    test('a person launches a contract for another person; the other signs on a phone, the first on PC; both download it', async ({
      browser,
      page,
    }) => {
      test.setTimeout(240_000);
      const b = await phoneSigner(browser, locale, t);

      // The first person: e-signature opened and a name seal, logged in on this PC page.
      const phoneA = await personWithSeal(page, t.personA);

      // Quick launch: two signers in parallel, one placed by dragging, one by keyword.
      await uploadContract(page, t);
      await page.getByLabel(t.signerPhone).fill(b.phone);
      await page.getByLabel(t.signerName).fill(t.personB);
      await page.getByRole('button', { name: t.addParty }).click();
      await page.getByLabel(t.signerPhone).nth(1).fill(phoneA);
      await page.getByLabel(t.signerName).nth(1).fill(t.personA);
      // Each signer's readiness line arrives after typing and moves the buttons: let it land before "Next".
      await expect(page.getByTestId('signer-readiness')).toHaveCount(2);
      await page.getByRole('button', { name: t.next }).click();
      await placeAndSend(page, t, t.personB, t.personA);

      await signOnPhone(b.page, b.phone, locale, t);
      await expect(b.page.getByTestId('flow-state')).toHaveText(t.waiting);
      await signFromListOnPc(page, phoneA, t);
      await downloadBoth(page, b.page, t);
      await b.context.close();
    });

    test('a company launches a contract for a person and itself; the person signs on a phone, the company seals on PC', async ({
      browser,
      page,
    }) => {
      test.setTimeout(240_000);
      const b = await phoneSigner(browser, locale, t);

      // The administrator opens a company (its certificate comes with the verification) and a contract seal.
      const adminPhone = await registerViaApi(page);
      const companyName = `${t.companyName}${Math.floor(Math.random() * 1e6)}`;
      await openCompany(page, companyName);
      await call(page.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
      });

      await uploadContract(page, t);
      await page.getByLabel(t.signerPhone).fill(b.phone);
      await page.getByLabel(t.signerName).fill(t.personB);
      await page.getByRole('button', { name: t.addCompany }).click();
      await page.getByLabel(t.operatorPhone).fill(adminPhone);
      await expect(page.getByTestId('signer-readiness')).toHaveCount(2);
      await page.getByRole('button', { name: t.next }).click();
      await placeAndSend(page, t, t.personB, companyName);

      await signOnPhone(b.page, b.phone, locale, t);
      await signFromListOnPc(page, adminPhone, t, new RegExp(`${t.contractSeal}|合同专用章`));
      await downloadBoth(page, b.page, t);
      await b.context.close();
    });
  });
}
