// Reassign (转交), deadline change and copy link (issue 29, "Done when"): a person launches a contract to Bob;
// Bob, on a 390 px phone, opens his link and hands the signing over to Carol with a reason; his room closes and
// his old link refuses, saying to whom it went. The launcher sees the hand-over in the flow detail, changes the
// deadline, copies Carol's signing link (shown once); Carol opens that link and signs; the contract completes.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { uploadPdf } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import {
  call,
  contractPdf,
  enterRoomByLink,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  personWithSeal,
  signInRoom,
  signingTexts,
  smsCount,
} from './signing-support.ts';
import { newPhone } from './support.ts';

const t = signingTexts['en-US'];
const LOCALE = 'en-US';

async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }, isMobile = false) {
  const context = await browser.newContext({
    locale: LOCALE,
    baseURL: test.info().project.use.baseURL,
    viewport,
    isMobile,
    hasTouch: isMobile,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  return context.newPage();
}

/** Nothing wider than the screen (a phone must not scroll sideways). */
async function expectNoOverflow(page: Page) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(client);
}

/** Opens a link path's login and asks its SMS code: answers the page (the refusal, if any, shows there). */
async function askLinkCode(page: Page, link: string, phone: string) {
  await page.goto(`/#${link}`);
  await page.getByLabel(t.phone).fill(phone);
  await page.getByRole('button', { name: t.getCode }).click();
}

test.describe('reassign, deadline change and copy link (en-US)', () => {
  test('Bob hands over to Carol on a phone; the old link refuses; the launcher changes the deadline and copies the link Carol signs from', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    // The launcher: a person with e-signature; the contract goes to Bob (no account: the link is all).
    const launcher = await newPage(browser);
    const launcherPhone = await registerViaApi(launcher);
    await openPersonESign(launcher.request, launcherPhone, 'Alice');
    const bobPhone = newPhone();
    const documentId = await uploadPdf(launcher.request, await contractPdf(), 0);
    const { flowId } = await call<{ flowId: string }>(launcher.request, 'launchFlow', {
      title: 'Hand-over contract',
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: 'Bob',
              phone: bobPhone,
              positions: [{ documentId, page: 1, rect: [300, 100, 420, 160] }],
            },
          ],
        },
      ],
    });

    // Carol: an account with e-signature and a seal, logged in on her own PC.
    const carol = await newPage(browser);
    const carolPhone = await personWithSeal(carol, 'Carol');
    const carolMasked = `${carolPhone.slice(0, 3)}****${carolPhone.slice(-4)}`;

    // Bob, on a phone, opens his link and hands the signing over with a reason.
    const bob = await newPage(browser, { width: 390, height: 844 }, true);
    const oldLink = await latestSigningLink(bob.request, bobPhone);
    await enterRoomByLink(bob, bobPhone, t);
    await expect(bob).toHaveURL(/#\/h5\/v1\/signing_room\?/);
    await bob.getByRole('button', { name: 'Hand over to someone else' }).click();
    const dialog = bob.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Hand over', exact: true }).click();
    await expect(dialog.getByText('Give the reason (at least 2 characters)')).toBeVisible();
    await expect(dialog.getByText('Enter the new signer name')).toBeVisible();
    await dialog.getByLabel('New signer name').fill('Carol');
    await dialog.getByLabel('New signer mobile number').fill(carolPhone);
    await dialog.getByLabel('Reason (required)').fill('I am on leave; Carol signs for the team');
    await expectNoOverflow(bob);
    await dialog.getByRole('button', { name: 'Hand over', exact: true }).click();
    await expect(dialog.getByText('Handed over to Carol. This signing room is now closed.')).toBeVisible();
    await dialog.getByRole('button', { name: 'OK' }).click();
    // The room is closed, and says why.
    await expect(bob.getByText(`the signing was handed over to Carol ${carolMasked}`)).toBeVisible({
      timeout: 20_000,
    });
    await expectNoOverflow(bob);
    // The old link refuses, saying so.
    await askLinkCode(bob, oldLink, bobPhone);
    await expect(
      bob.getByText(/this signing link no longer works: the signing was handed over to Carol/),
    ).toBeVisible();

    // The launcher's flow detail: the history, a new deadline, a copied link.
    await launcher.goto(`/#/signList?flowId=${flowId}`);
    const panel = launcher.getByTestId('reassign-panel');
    await expect(panel.getByTestId('reassignment')).toContainText('Bob');
    await expect(panel.getByTestId('reassignment')).toContainText(`Carol ${carolMasked}`);
    await expect(panel.getByTestId('reassignment')).toContainText(
      'Reason: I am on leave; Carol signs for the team',
    );
    await panel.getByRole('button', { name: 'Change deadline' }).click();
    const inTenDays = await launcher.evaluate(() => {
      const d = new Date(Date.now() + 10 * 86_400_000);
      d.setSeconds(0, 0);
      const p = (n: number) => String(n).padStart(2, '0');
      return {
        local: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`,
        iso: d.toISOString(),
      };
    });
    const deadlineDialog = launcher.getByRole('dialog', { name: 'Change the signing deadline' });
    await deadlineDialog.getByLabel('New deadline').fill(inTenDays.local);
    await deadlineDialog.getByRole('button', { name: 'Change deadline' }).click();
    await expect(deadlineDialog).toBeHidden();
    await expect
      .poll(
        async () =>
          (await call<{ deadline: string }>(launcher.request, 'getFlowDetail', { flowId })).deadline,
      )
      .toBe(inTenDays.iso);

    await panel.getByTestId('party-actions').getByRole('button', { name: 'Copy link' }).click();
    const linkDialog = launcher.getByRole('dialog', { name: /Signing link of Carol/ });
    await expect(linkDialog.getByText(/shown only once/)).toBeVisible();
    const url = await linkDialog.getByTestId('copied-link').inputValue();
    await linkDialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(linkDialog.getByRole('button', { name: 'Copied' })).toBeVisible();
    await linkDialog.getByRole('button', { name: 'Close' }).last().click();
    const copied = /#(\/singingRoom\/\d\/[\w-]+)$/.exec(url)?.[1] ?? '';
    expect(copied).toMatch(/^\/singingRoom\//);

    // Carol opens the copied link (not the one the SMS brought) and signs.
    const before = await smsCount(carol.request, carolPhone);
    await askLinkCode(carol, copied, carolPhone);
    await carol.getByLabel(t.smsCode).fill(await nextSmsCode(carol.request, carolPhone, before));
    await carol.getByRole('button', { name: t.enter }).click();
    await expect(carol.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
    await signInRoom(carol, carolPhone, t);

    // The audit trail names the hand-over and the copied link.
    await launcher.reload();
    await expect(launcher.getByText('Handed over', { exact: true }).first()).toBeVisible();
    await expect(launcher.getByText('Signing link copied', { exact: true }).first()).toBeVisible();
    await expect(launcher.getByTestId('party-progress')).toContainText('Carol');
  });
});
