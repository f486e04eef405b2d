// Revised documents (issue 29, "Done when"): after the buyer signed, the launcher uploads a revision from the
// flow detail (with a note on what changed), confirming the warning that the signature is withdrawn; a signer sees in the room that the document was revised and compares the versions side by
// side, both parties sign the final version, and the earlier version stays listed and downloadable; the signed
// PDF carries the two signatures of the final version, valid in pdfsig. Before it, the buyer pinned a comment on
// page 1 and the seller replied: the thread stays with revision 1, shown under "All revisions" in the room and the
// detail after the revision.
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  call,
  fetchPdf,
  openRoomFromListOnPc,
  personWithSeal,
  signingTexts,
  smsCount,
  nextSmsCode,
} from './signing-support.ts';
import { serviceContract, uploadViaApi } from './revisions-support.ts';
import { pdfsigValidity } from './support.ts';
import { downloadSignedPdf } from '../contract/paths/document.ts';

const LOCALE = 'en-US';
const s = signingTexts[LOCALE];
const t = {
  tabLaunched: 'Launched',
  detail: 'Detail',
  upload: 'Upload revised version',
  file: 'Revised PDF',
  note: 'What changed (shown to every party)',
  send: 'Upload',
  uploaded: /Revision 2 uploaded/,
  revised: /This document was revised: revision 2/,
  showVersions: 'Show versions',
  compare: 'Compare',
  download: 'Download',
  mustConfirm: 'Confirm that the signatures are withdrawn.',
  withdraw: 'Withdraw the signatures and ask the parties to sign again',
};

async function personPage(browser: Browser, name: string): Promise<{ page: Page; phone: string }> {
  const context = await browser.newContext({
    locale: LOCALE,
    baseURL: test.info().project.use.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const phone = await personWithSeal(page, name);
  return { page, phone };
}

/** Signs in the open room with the preselected seal after the SMS code; lands on the confirmation. */
async function signHere(page: Page, phone: string) {
  await page.getByRole('button', { name: s.sign, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const before = await smsCount(page.request, phone);
  await dialog.getByRole('button', { name: s.getCode }).click();
  await dialog.getByLabel(s.smsCode).fill(await nextSmsCode(page.request, phone, before));
  await dialog.getByRole('button', { name: s.confirmSign }).click();
  await expect(page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
}

test('the launcher uploads a revision; both parties sign the final version; the earlier one stays', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const launcher = await personPage(browser, '王发起');
  const buyer = await personPage(browser, '李买方');
  const seller = await personPage(browser, '赵卖方');
  const documentId = await uploadViaApi(launcher.page.request, await serviceContract(30));
  const { flowId } = await call<{ flowId: string }>(launcher.page.request, 'launchFlow', {
    title: 'Service contract',
    documentIds: [documentId],
    steps: [
      {
        parties: [
          {
            kind: 'person',
            name: '李买方',
            phone: buyer.phone,
            positions: [{ documentId, keyword: 'Party A' }],
          },
          {
            kind: 'person',
            name: '赵卖方',
            phone: seller.phone,
            positions: [{ documentId, keyword: 'Party B' }],
          },
        ],
      },
    ],
  });

  // Before signing, the buyer pins a comment on page 1 and the seller replies to it from their own room.
  const bp = buyer.page;
  await openRoomFromListOnPc(bp, s);
  const panel = bp.getByTestId('comments-panel');
  await panel.getByRole('button', { name: 'Pin to page' }).click();
  await bp
    .locator('.pdf-page[data-page="1"]')
    .getByTestId('comment-pin-layer')
    .click({ position: { x: 150, y: 160 } });
  await panel.getByLabel('New comment').fill('Clause 2: 30 days is too long for us.');
  await panel.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(panel.getByTestId('comment-thread')).toContainText('Rev. 1');
  await openRoomFromListOnPc(seller.page, s);
  const sellerPanel = seller.page.getByTestId('comments-panel');
  await sellerPanel.getByRole('button', { name: 'Reply', exact: true }).click();
  await sellerPanel.getByLabel('Reply…').fill('We can do 20 days with a late penalty.');
  await sellerPanel.getByRole('button', { name: 'Send reply' }).click();
  await expect(sellerPanel.getByTestId('comment-reply')).toContainText('We can do 20 days');

  // The buyer signs the first version.
  await signHere(bp, buyer.phone);

  // The launcher uploads the revision from the flow detail, with what changed: the buyer's signature is
  // withdrawn, after a warning the launcher confirms.
  const lp = launcher.page;
  await lp.goto('/#/signList?tab=launched');
  await lp.getByRole('button', { name: t.detail }).first().click();
  const versions = lp.getByTestId('flow-versions');
  await expect(versions.getByTestId('revision-item')).toHaveCount(1);
  await versions.getByRole('button', { name: t.upload }).click();
  const dialog = lp.getByRole('dialog', { name: t.upload });
  await dialog
    .getByLabel(t.file)
    .setInputFiles(await serviceContract(20, 'Clause 3: a penalty of 1% per day late.'));
  await dialog.getByLabel(t.note).fill('delivery 20 days, late penalty');
  await expect(dialog.getByTestId('withdraw-warning')).toContainText('李买方');
  await dialog.getByRole('button', { name: t.send, exact: true }).click();
  await expect(dialog.getByText(t.mustConfirm)).toBeVisible();
  await dialog.getByRole('checkbox', { name: t.withdraw }).check();
  await dialog.getByRole('button', { name: t.send, exact: true }).click();
  await expect(lp.getByText(t.uploaded)).toBeVisible({ timeout: 30_000 });
  await expect(versions.getByTestId('revision-item')).toHaveCount(2);
  await expect(versions.getByTestId('revision-item').first()).toContainText('delivery 20 days, late penalty');

  await expect(lp.getByTestId('party-progress').filter({ hasText: '李买方' })).not.toContainText('Signed');

  // The buyer, asked again, sees the revision in the room and what changed, side by side; signs the final version.
  await openRoomFromListOnPc(bp, s);
  await expect(bp.getByTestId('revised-notice')).toContainText(t.revised);
  await bp.getByRole('button', { name: t.showVersions }).click();
  await bp.getByRole('button', { name: t.compare }).click();
  const view = bp.getByTestId('revision-compare');
  await expect(view.getByTestId('diff-removed')).toHaveText('Clause 2: delivery within 30 days.');
  await expect(view.getByTestId('diff-added').first()).toHaveText('Clause 2: delivery within 20 days.');
  await expect(view.getByTestId('diff-added').nth(1)).toHaveText('Clause 3: a penalty of 1% per day late.');
  // The first revision's comments stay with it: shown under "All revisions", labelled Rev. 1.
  const roomComments = bp.getByTestId('comments-panel');
  await roomComments.getByRole('button', { name: 'All revisions' }).click();
  await expect(roomComments.getByTestId('comment-thread')).toContainText('Rev. 1');
  await expect(roomComments.getByTestId('comment-reply')).toContainText('We can do 20 days');
  await signHere(bp, buyer.phone);

  // The seller signs too: the flow completes.
  await openRoomFromListOnPc(seller.page, s);
  await signHere(seller.page, seller.phone);
  await expect(seller.page.getByTestId('flow-state')).toHaveText(s.completed, { timeout: 30_000 });

  // The earlier version stays listed and downloadable; the signed PDF grows from the final one.
  await lp.reload();
  await lp.getByRole('button', { name: t.detail }).first().click();
  const items = lp.getByTestId('flow-versions').getByTestId('revision-item');
  await expect(items).toHaveCount(2);
  const detailComments = lp.getByTestId('flow-comments');
  await detailComments.getByRole('button', { name: 'All revisions' }).click();
  await expect(detailComments.getByTestId('comment-thread')).toContainText('Clause 2: 30 days is too long');
  await expect(detailComments.getByTestId('comment-thread')).toContainText('Rev. 1');
  const first = await fetchPdf(
    lp.request,
    (await items.nth(1).getByRole('link', { name: t.download }).getAttribute('href'))!,
  );
  expect(first.startsWithPdf).toBe(true);
  expect(first.byteRanges).toBe(0);
  const final = await fetchPdf(
    lp.request,
    (await items.nth(0).getByRole('link', { name: t.download }).getAttribute('href'))!,
  );
  const signed = await fetchPdf(lp.request, `${downloadSignedPdf.path}/${flowId}/${documentId}`);
  expect(signed.bytes.subarray(0, final.bytes.length).equals(final.bytes)).toBe(true);
  expect(signed.byteRanges).toBeGreaterThanOrEqual(2);
  const validity = pdfsigValidity(signed.bytes);
  if (validity.length) expect(validity.filter((v) => v === 'Signature is Valid.').length).toBe(2);

  // On a 375 px phone the versions and their side-by-side comparison stay inside the screen.
  await lp.setViewportSize({ width: 375, height: 812 });
  const phoneVersions = lp.getByTestId('flow-versions');
  await phoneVersions.getByRole('button', { name: t.compare }).click();
  await expect(phoneVersions.getByTestId('revision-compare')).toBeVisible();
  const fits = await phoneVersions.evaluate(
    (el) => el.scrollWidth <= el.clientWidth && el.clientWidth <= 375,
  );
  expect(fits).toBe(true);
});
