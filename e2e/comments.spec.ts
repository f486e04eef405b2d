// Comments (issue 29, "Done when": two parties comment and reply on a page): the launcher sends a two-page
// contract to two people; the first, in the PC signing room, pins a comment on page 1 by clicking the page; the
// second, on a 375 px phone, opens the comments sheet, sees the numbered pin and replies (the room does not
// overflow); the launcher opens the flow's detail, reads both (launcher / party labels, revision), and resolves
// the thread; the parties' rooms then show it resolved.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { uploadPdf } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { call, contractPdf, enterRoomByLink, openPersonESign, signingTexts } from './signing-support.ts';
import { newPhone } from './support.ts';

const t = signingTexts['en-US'];
const PHONE_VIEW = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

async function pageIn(browser: Browser, phone = false): Promise<Page> {
  const context = await browser.newContext({
    locale: 'en-US',
    baseURL: test.info().project.use.baseURL,
    ...(phone ? PHONE_VIEW : { viewport: { width: 1280, height: 900 } }),
  });
  return context.newPage();
}

type Listed = { threads: { body: string; resolvedAt: string | null; replies: { body: string }[] }[] };

test('two parties comment and reply on a page; the launcher reads both and resolves the thread', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const launcher = await pageIn(browser);
  const launcherPhone = await registerViaApi(launcher);
  await openPersonESign(launcher.request, launcherPhone, 'Laura');
  const [buyerPhone, sellerPhone] = [newPhone(), newPhone()];
  const documentId = await uploadPdf(launcher.request, await contractPdf(), 0);
  const { flowId } = await call<{ flowId: string }>(launcher.request, 'launchFlow', {
    title: 'Supply agreement',
    documentIds: [documentId],
    steps: [
      {
        parties: [
          {
            kind: 'person',
            name: 'Alice',
            phone: buyerPhone,
            positions: [{ documentId, page: 2, rect: [72, 200, 200, 250] }],
          },
          {
            kind: 'person',
            name: 'Bobby',
            phone: sellerPhone,
            positions: [{ documentId, page: 2, rect: [340, 200, 470, 250] }],
          },
        ],
      },
    ],
  });

  // The buyer, in the PC room: pin to page 1 by a click, then comment.
  const buyer = await pageIn(browser);
  await enterRoomByLink(buyer, buyerPhone, t);
  const panel = buyer.getByTestId('comments-panel');
  await expect(panel.getByText('No comments yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Pin to page' }).click();
  const layer = buyer.locator('.pdf-page[data-page="1"]').getByTestId('comment-pin-layer');
  await layer.click({ position: { x: 120, y: 150 } });
  await expect(panel.getByTestId('comment-pinned')).toContainText('page 1');
  await expect(buyer.getByTestId('comment-pin-new')).toBeVisible();
  await panel.getByLabel('New comment').fill('Clause 2: delivery within 30 days, please.');
  await panel.getByRole('button', { name: 'Comment', exact: true }).click();
  const thread = panel.getByTestId('comment-thread');
  await expect(thread).toHaveCount(1);
  await expect(thread).toContainText('Party 1 · Alice');
  await expect(thread).toContainText('Rev. 1');
  await expect(thread.getByTestId('comment-place')).toContainText('contract.pdf, page 1');
  await expect(buyer.locator('.pdf-page[data-page="1"]').getByTestId('comment-pin')).toHaveText('1');

  // The seller, on a 375 px phone: the sheet shows the buyer's comment and its pin; a reply.
  const seller = await pageIn(browser, true);
  await enterRoomByLink(seller, sellerPhone, t);
  await expect(seller).toHaveURL(/#\/h5\/v1\/signing_room\?/);
  await expect(seller.locator('.pdf-page[data-page="1"]').getByTestId('comment-pin')).toHaveText('1');
  await seller.getByTestId('comments-open').click();
  const sheet = seller.getByRole('dialog', { name: 'Comments' });
  await expect(sheet.getByTestId('comment-body')).toHaveText('Clause 2: delivery within 30 days, please.');
  await sheet.getByRole('button', { name: 'Reply', exact: true }).click();
  await sheet.getByLabel('Reply…').fill('Agreed, 30 days.');
  await sheet.getByRole('button', { name: 'Send reply' }).click();
  await expect(sheet.getByTestId('comment-reply')).toContainText('Party 2 · Bobby');
  await expect(sheet.getByTestId('comment-reply')).toContainText('Agreed, 30 days.');
  expect(await seller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The launcher: the flow's detail shows both, with the pin on page 1; the thread is resolved.
  await launcher.goto(`/#/signList?flowId=${flowId}`);
  const mine = launcher.getByTestId('flow-comments');
  const launcherThread = mine.getByTestId('comment-thread');
  await expect(launcherThread).toContainText('Party 1 · Alice', { timeout: 20_000 });
  await expect(launcherThread.getByTestId('comment-reply')).toContainText('Party 2 · Bobby');
  await expect(mine.locator('.pdf-page[data-page="1"]').getByTestId('comment-pin')).toHaveText('1');
  await launcherThread.getByRole('button', { name: 'Resolve' }).click();
  await expect(launcherThread.getByTestId('comment-resolved')).toContainText('Resolved by');
  await expect(launcherThread).toHaveAttribute('data-resolved', 'true');
  // and a comment of the launcher's own, on the whole contract
  await mine.getByLabel('New comment').fill('Thanks both: I will send the revised text.');
  await mine.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(mine.getByTestId('comment-thread').nth(1)).toContainText('Launcher');
  await expect(mine.getByTestId('comment-thread').nth(1).getByTestId('comment-place')).toHaveText(
    'Whole contract',
  );

  // What the server keeps: both comments, the thread resolved; the buyer's room shows it after a reload.
  const listed = await call<Listed>(launcher.request, 'listFlowComments', { flowId });
  expect(listed.threads[0].resolvedAt).not.toBeNull();
  expect(listed.threads[0].replies.map((r) => r.body)).toEqual(['Agreed, 30 days.']);
  await buyer.reload();
  await expect(buyer.getByTestId('comments-panel').getByTestId('comment-resolved').first()).toBeVisible({
    timeout: 20_000,
  });
});
