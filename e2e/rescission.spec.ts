// Void by agreement (issue 29, "Done when"): a completed two-party contract is voided by a rescission both
// parties sign. The launcher asks for it from the contract's detail (reason, confirmation); the buyer signs the
// rescission agreement in the signing room, the seller through the link's calls; then the launched list and the
// detail show the contract voided, linking the agreement, and the verification page, given the original's
// signed PDF, says it was voided by agreement and names the agreement.
import { type Browser, expect, test } from '@playwright/test';
import { downloadSignedPdf } from '../contract/paths/document.ts';
import { signByLink, uploadPdf } from './package-support.ts';
import {
  call,
  contractPdf,
  enterRoomByLink,
  nextSmsCode,
  personInContext,
  signingTexts,
  smsCount,
} from './signing-support.ts';

const LOCALE = 'en-US';
const s = signingTexts[LOCALE];

/** A person with a name seal, logged in in a context of its own. */
async function person(browser: Browser, name: string) {
  const { page, phone } = await personInContext(browser, name, LOCALE);
  const seal = await call<{ id: string }>(page.request, 'savePersonSeal', { sealDTO: { userType: 0 } });
  return { page, phone, sealId: seal.id };
}

test.describe('void by agreement (en-US)', () => {
  test.use({ locale: LOCALE, viewport: { width: 1280, height: 900 } });

  test('a completed two-party contract is voided by a rescission both sign; its verification says so', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const launcher = await person(browser, '林发起');
    const buyer = await person(browser, '包买方');
    const seller = await person(browser, '萨卖方');

    // The original: launched to the buyer (step 1) and the seller (step 2), both sign: completed.
    const documentId = await uploadPdf(launcher.page.request, await contractPdf(), 0);
    const at = (keyword: string) => [{ documentId, keyword }];
    const { flowId } = await call<{ flowId: string }>(launcher.page.request, 'launchFlow', {
      title: 'Service contract',
      documentIds: [documentId],
      steps: [
        { parties: [{ kind: 'person', name: '包买方', phone: buyer.phone, positions: at('Party A') }] },
        { parties: [{ kind: 'person', name: '萨卖方', phone: seller.phone, positions: at('Party B') }] },
      ],
    });
    expect(await signByLink(buyer.page.request, buyer.phone, buyer.sealId)).toBe('signing');
    expect(await signByLink(seller.page.request, seller.phone, seller.sealId)).toBe('completed');
    const signedUrl = `${downloadSignedPdf.path}/${flowId}/${documentId}`;
    const signedPdf = await (await launcher.page.request.get(signedUrl)).body();

    // The launcher voids it from the detail: reason and confirmation; the agreement opens over it.
    const page = launcher.page;
    await page.goto('/#/signList');
    await page.getByRole('tab', { name: 'Launched' }).click();
    await page
      .getByRole('article', { name: 'Service contract' })
      .getByRole('button', { name: 'Detail' })
      .click();
    await page.getByTestId('void-by-agreement').click();
    const dialog = page.getByRole('dialog', { name: 'Void this contract by agreement' });
    await dialog.getByLabel('Reason for voiding').fill('The project was cancelled');
    const send = dialog.getByRole('button', { name: 'Send the rescission agreement' });
    await expect(send).toBeDisabled();
    await dialog.getByRole('checkbox', { name: /every party must sign/ }).check();
    await send.click();
    await expect(page.getByTestId('rescinds-banner')).toContainText(
      'This is the rescission agreement of “Service contract”.',
    );

    // The buyer signs the agreement in the signing room; the seller through the link's calls.
    await enterRoomByLink(buyer.page, buyer.phone, s);
    await buyer.page.getByRole('button', { name: s.sign, exact: true }).click();
    const signDialog = buyer.page.getByRole('dialog');
    const before = await smsCount(buyer.page.request, buyer.phone);
    await signDialog.getByRole('button', { name: s.getCode }).click();
    await signDialog.getByLabel(s.smsCode).fill(await nextSmsCode(buyer.page.request, buyer.phone, before));
    await signDialog.getByRole('button', { name: s.confirmSign }).click();
    await expect(buyer.page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
    expect(await signByLink(seller.page.request, seller.phone, seller.sealId)).toBe('completed');

    // The launched list and the detail show the contract voided, linking the agreement.
    await page.goto('/#/signList');
    await page.reload();
    await page.getByRole('tab', { name: 'Launched' }).click();
    const original = page.getByRole('article', { name: 'Service contract', exact: true });
    await expect(original.getByTestId('voided-tag')).toContainText('Voided by agreement on');
    await original.getByRole('button', { name: 'Detail' }).click();
    await expect(page.getByTestId('voided-banner')).toContainText('This contract was voided by agreement on');
    await expect(page.getByTestId('void-by-agreement')).toHaveCount(0);
    await page
      .getByTestId('voided-banner')
      .getByRole('button', { name: 'Open the rescission agreement' })
      .click();
    await expect(page.getByTestId('rescinds-banner')).toBeVisible();

    // The original's signed PDF is still served, unchanged; its verification names the rescission.
    expect(Buffer.compare(await (await launcher.page.request.get(signedUrl)).body(), signedPdf)).toBe(0);
    const checker = await browser.newPage({ locale: LOCALE, baseURL: test.info().project.use.baseURL });
    await checker.goto('/#/check');
    await checker
      .getByLabel('Choose a PDF to verify', { exact: true })
      .setInputFiles({ name: 'service-contract.pdf', mimeType: 'application/pdf', buffer: signedPdf });
    const notice = checker.getByTestId('verify-rescission');
    await expect(notice).toContainText('Voided by agreement on', { timeout: 30_000 });
    await expect(notice).toContainText('“Service contract” was voided by the rescission agreement');
  });
});
