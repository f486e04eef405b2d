// Contract term, renewal and launch drafts (issue 29): a launcher fills a quick launch with a signer and a
// contract term, saves it as a draft, comes back with an empty form (another session's storage), resumes the
// draft from the drafts list and sends it; the signer signs; the launcher sees the term in the flow detail
// ("Expires in N days") and "Renew" pre-fills the launch page with the same signer, "(renewal)" and the next term.
import { expect, test } from '@playwright/test';
import {
  call,
  contractPdf,
  personWithSeal,
  signFromListOnPc,
  signingTexts,
  uploadContract,
} from './signing-support.ts';
import { personOnPc, placeByKeywordAndSend } from './term-support.ts';

const t = signingTexts['en-US'];
const DAY = 86_400_000;
/** A day from today in Beijing (the browser runs in Asia/Shanghai, as the server counts the term's days). */
const dayIn = (days: number) => new Date(Date.now() + 8 * 3_600_000 + days * DAY).toISOString().slice(0, 10);

test.use({ locale: 'en-US', timezoneId: 'Asia/Shanghai', viewport: { width: 1280, height: 900 } });

test('save a launch as a draft, resume and send it with a term; renew the completed flow', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { context: signerContext, page: signer, phone: signerPhone } = await personOnPc(browser, t.personB);
  await personWithSeal(page, t.personA);

  // The form: one signer and a term ending in 100 days, reminders 30/7/1 days before, one more person told.
  await uploadContract(page, t);
  await page.getByLabel(t.signerPhone).fill(signerPhone);
  await page.getByLabel(t.signerName).fill(t.personB);
  await page.getByText('This contract has a term').click();
  const term = page.getByTestId('term-fields');
  await term.getByLabel('Term ends').fill(dayIn(-1));
  await expect(term.getByRole('alert')).toHaveText('The end date must be after the start date');
  await term.getByLabel('Term ends').fill(dayIn(100));
  await expect(term.getByRole('alert')).toHaveCount(0);
  await expect(term.getByRole('checkbox', { name: '30 days' })).toBeChecked();
  await term.getByRole('button', { name: 'Add a person' }).click();
  await term.getByLabel('Mobile number').fill('13912345678');
  await term.getByLabel('Name (optional)').fill('Legal');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();

  // Back later with an empty form: the draft lives on the server.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/#/manage/home/quicklyFileUpload');
  await page.reload();
  await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Drafts', exact: true }).click();
  const drafts = page.getByRole('list', { name: 'Launch drafts' });
  await expect(drafts.getByRole('listitem')).toHaveCount(1);
  await expect(drafts.getByRole('listitem')).toContainText('contract');
  await expect(drafts.getByRole('listitem')).toContainText('1 document');
  await drafts.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toBeVisible();
  await page.getByRole('button', { name: t.next }).click();
  await expect(page.getByLabel(t.signerPhone)).toHaveValue(signerPhone);
  await expect(page.getByTestId('term-fields').getByLabel('Term ends')).toHaveValue(dayIn(100));
  await expect(page.getByTestId('term-fields').getByLabel('Mobile number')).toHaveValue('13912345678');
  await placeByKeywordAndSend(page, 'Party B');
  // Launched: the draft is gone.
  expect((await call<{ items: unknown[] }>(page.request, 'listLaunchDrafts')).items).toEqual([]);

  await signFromListOnPc(signer, signerPhone, t);
  const launched = await call<{ list: { flowId: string; title: string; status: string }[] }>(
    page.request,
    'listLaunchedFlows',
  );
  const flow = launched.list.find((f) => f.title === 'contract');
  expect(flow?.status).toBe('completed');

  // The launched list: "Expires in 100 days"; the flow detail: the term and "Renew".
  await page.goto('/#/signList?tab=launched');
  await expect(page.getByRole('article', { name: 'contract' }).getByTestId('term-tag')).toHaveText(
    'Expires in 100 days',
  );
  await page.goto(`/#/signList?flowId=${flow?.flowId}`);
  const section = page.getByTestId('flow-term');
  await expect(section).toContainText(`${dayIn(0)} to ${dayIn(100)}`);
  await expect(section).toContainText('Expires in 100 days');
  await expect(section).toContainText('Reminders before the end (days): 30/7/1');
  await section.getByRole('button', { name: 'Renew' }).click();

  // The launch page, pre-filled: title, the signer, the next term; the documents are chosen again.
  await expect(page).toHaveURL(/#\/manage\/home\/fileUpload/);
  await expect(page.getByText('Renewing "contract (renewal)"')).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue('contract (renewal)');
  await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toHaveCount(0);
  await page.getByLabel('Choose PDF files').setInputFiles(await contractPdf());
  await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByLabel('Title')).toHaveValue('contract (renewal)');
  await page.getByRole('button', { name: t.next }).click();
  const card = page.getByTestId('party-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByLabel(t.signerName)).toHaveValue(t.personB);
  // A registered signer comes back chosen by id: the phone shows masked.
  await expect(card.getByLabel(t.signerPhone)).toHaveValue(
    `${signerPhone.slice(0, 3)}****${signerPhone.slice(-4)}`,
  );
  await expect(page.getByTestId('term-fields').getByLabel('Term starts')).toHaveValue(dayIn(101));
  await expect(page.getByTestId('term-fields').getByLabel('Term ends')).toHaveValue(dayIn(201));
  // Sent: the new flow records the one it renews, whose detail now names it.
  await placeByKeywordAndSend(page, 'Party B');
  await page.goto(`/#/signList?flowId=${flow?.flowId}`);
  await expect(page.getByTestId('renewed-by')).toHaveText('Renewed by: contract (renewal)');

  // On a 375 px phone the term's form and the draft buttons fit the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  await uploadContract(page, t);
  await page.getByText('This contract has a term').click();
  await page.getByTestId('term-fields').getByRole('button', { name: 'Add a person' }).click();
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await signerContext.close();
});
