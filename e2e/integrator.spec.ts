import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { APP_ORIGIN, openPartnerPage, receivedBy, startPartnerServers } from './embedding-support.ts';
import { integratorApi, launchEmbedded } from './integrator-support.ts';
import { newIdNumber, registerViaApi } from './person-support.ts';
import {
  call,
  personWithSeal,
  nextSmsCode,
  openPersonESign,
  signingTexts,
  smsCount,
} from './signing-support.ts';

// The integrator's journey (issue 13): on the workspace a person makes an API key and a webhook endpoint;
// their server launches a flow through /open/v1 with that key and asks for the signer's embedded-signing URL;
// the signer signs inside the integrator's iframe (FRAME_ANCESTORS, playwright.config.ts), which hears
// 'signingFinished'; the webhook receiver gets signed deliveries, and the workspace's delivery log shows them.
const PORT = Number(process.env.E2E_PORT ?? 18090);
const INTEGRATOR_ORIGIN = `http://127.0.0.1:${PORT + 4}`;
const RECEIVER_PORT = PORT + 5;
const t = signingTexts['en-US'];

type Delivery = { event: string; body: string; timestamp: string; signature: string };

/** A webhook receiver on this machine: records every POST with its signature headers, answers 200. */
async function startReceiver(): Promise<{ deliveries: Delivery[]; stop: () => Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      deliveries.push({
        event: String(req.headers['x-esign-event-id'] ?? ''),
        body,
        timestamp: String(req.headers['x-esign-timestamp'] ?? ''),
        signature: String(req.headers['x-esign-signature'] ?? ''),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(RECEIVER_PORT, '127.0.0.1', resolve));
  return { deliveries, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** One zigzag stroke across a signature pad with the mouse. */
async function drawOn(page: Page, pad: Locator) {
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 0.1 * box.width, box.y + 0.6 * box.height);
  await page.mouse.down();
  for (const [fx, fy] of [
    [0.3, 0.3],
    [0.5, 0.7],
    [0.7, 0.3],
    [0.9, 0.6],
  ])
    await page.mouse.move(box.x + fx * box.width, box.y + fy * box.height, { steps: 5 });
  await page.mouse.up();
}

test.describe.configure({ mode: 'default' });
test.use({ locale: 'en-US' });

test('an API key and a webhook made on the screens; a flow launched by API, signed in an iframe, delivered', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const stopIntegrator = await startPartnerServers([INTEGRATOR_ORIGIN]);
  const receiver = await startReceiver();
  try {
    // The signer: an account with e-signature open and a name seal.
    const signerPhone = await personWithSeal(page, t.personB);
    await page.context().clearCookies();

    // The integrator's account, logged in on the workspace.
    const phone = await registerViaApi(page);
    await openPersonESign(page.request, phone, t.personA);

    // An API key, made on the screen; its secret is shown once.
    await page.goto('/#/manage/apiKeys');
    await page.getByRole('button', { name: 'New key' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'New key' });
    await keyDialog.getByLabel('Name').fill('CRM production');
    await keyDialog.getByLabel('Read contracts').check();
    await keyDialog.getByLabel('Launch, cancel and remind contracts').check();
    await keyDialog.getByRole('button', { name: 'Create' }).click();
    const secretBox = page.getByRole('textbox', { name: 'Key' });
    await expect(secretBox).toHaveValue(/^esk_live_/);
    const apiKey = await secretBox.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByRole('cell', { name: 'CRM production' })).toBeVisible();

    // A webhook endpoint, made on the screen; its secret is shown once.
    await page.goto('/#/manage/webhooks');
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const hookDialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
    await hookDialog.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${RECEIVER_PORT}/esign`);
    await hookDialog.getByRole('button', { name: 'Create' }).click();
    const hookSecret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(hookSecret.length).toBeGreaterThan(20);
    await page
      .getByRole('dialog', { name: 'Endpoint secret' })
      .getByRole('button', { name: 'Close', exact: true })
      .last()
      .click();

    // The integrator's server: upload, launch, read the party, ask for its signing URL — with the key only.
    const { flowId, partyId, url } = await launchEmbedded(integratorApi(page, apiKey), 'Embedded contract', {
      name: t.personB,
      phone: signerPhone,
    });

    // The signer, in the integrator's page: no login, only the SMS code of the intent check.
    const signerPage = await page.context().browser()!.newPage({ locale: 'en-US' });
    await openPartnerPage(signerPage, INTEGRATOR_ORIGIN, url);
    const frame = signerPage.frameLocator('#app');
    await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });
    await frame.getByRole('button', { name: t.sign, exact: true }).click();
    const dialog = frame.getByRole('dialog');
    const before = await smsCount(page.request, signerPhone);
    await dialog.getByRole('button', { name: t.getCode }).click();
    await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, signerPhone, before));
    await dialog.getByRole('button', { name: t.confirmSign }).click();
    await expect(frame.getByText(t.resultSigned)).toBeVisible({ timeout: 60_000 });
    await expect.poll(() => receivedBy(signerPage)).toHaveLength(1);
    const [message] = await receivedBy(signerPage);
    expect(message.origin).toBe(APP_ORIGIN);
    expect(message.data).toMatchObject({ event: 'signingFinished', payload: { flowId, partyId } });
    await signerPage.close();

    // The receiver: launched, opened, signed, completed — each signed with the endpoint's secret.
    await expect
      .poll(() => receiver.deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type).sort(), {
        timeout: 60_000,
      })
      .toEqual(expect.arrayContaining(['flow.launched', 'party.opened', 'party.signed', 'flow.completed']));
    for (const d of receiver.deliveries) {
      const expected = `v1=${createHmac('sha256', hookSecret).update(`${d.timestamp}.${d.body}`).digest('hex')}`;
      expect(d.signature).toBe(expected);
      expect((JSON.parse(d.body) as { data: { flowId: string } }).data.flowId).toBe(flowId);
    }

    // The workspace's delivery log shows them, delivered with HTTP 200.
    await page.reload();
    await page.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('table');
    await expect(log.getByRole('row', { name: /Signer signed/ })).toContainText('200');
    await expect(log.getByRole('row', { name: /Contract completed/ })).toContainText('Delivered');
  } finally {
    await receiver.stop();
    await stopIntegrator();
  }
});

test("a newcomer signs in the integrator's iframe: the phone proven by a code first, then name and certificate, no session", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const stopIntegrator = await startPartnerServers([INTEGRATOR_ORIGIN]);
  try {
    const phone = await registerViaApi(page);
    await openPersonESign(page.request, phone, t.personA);
    const { secret } = await call<{ secret: string }>(page.request, 'createApiKey', {
      name: 'portal',
      scopes: ['flows:read', 'flows:write'],
    });
    const newcomer = { name: 'Carol', phone: `139${String(Date.now()).slice(-8)}` };
    const { url } = await launchEmbedded(integratorApi(page, secret), 'Embedded newcomer', newcomer);

    const signerPage = await page.context().browser()!.newPage({ locale: 'en-US' });
    await openPartnerPage(signerPage, INTEGRATOR_ORIGIN, url);
    const frame = signerPage.frameLocator('#app');
    await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });
    // The newcomer draws first, as anyone would, then presses Sign.
    await expect(frame.getByRole('radio', { name: t.drawSignature })).toBeChecked();
    const pad = frame.locator(`canvas[aria-label="${t.pad}"]`);
    await drawOn(signerPage, pad);
    await expect(pad).toHaveAttribute('data-strokes', '1');
    await frame.getByRole('button', { name: t.sign, exact: true }).click();
    // The URL did not prove the phone: a code to it comes before any certificate.
    await expect(frame.getByRole('heading', { name: 'Confirm your phone number' })).toBeVisible();
    await expect(frame.getByText('Step 1 of 3')).toBeVisible();
    let before = await smsCount(page.request, newcomer.phone);
    await frame.getByRole('button', { name: t.getCode }).click();
    await frame.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, newcomer.phone, before));
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect(frame.getByLabel('Full name')).toHaveValue(newcomer.name);
    await frame.getByLabel('ID card number').fill(newIdNumber());
    await frame.getByRole('button', { name: 'Next' }).click();
    await frame.getByRole('button', { name: 'Accept and get my certificate' }).click();
    await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });

    // Back in the room: told it is verified, the drawing still on the pad; then the intent code.
    await expect(frame.getByRole('status').filter({ hasText: "You're verified — now sign" })).toBeVisible();
    await expect(frame.getByRole('radio', { name: t.drawSignature })).toBeChecked();
    await expect(pad).toHaveAttribute('data-strokes', '1');
    await frame.getByRole('button', { name: t.sign, exact: true }).click();
    const dialog = frame.getByRole('dialog');
    before = await smsCount(page.request, newcomer.phone);
    await dialog.getByRole('button', { name: t.getCode }).click();
    await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, newcomer.phone, before));
    await dialog.getByRole('button', { name: t.confirmSign }).click();
    await expect(frame.getByText(t.resultSigned)).toBeVisible({ timeout: 60_000 });
    // The frame was never logged in to the account it made.
    const cookies = await signerPage.context().cookies(APP_ORIGIN);
    expect(cookies.map((c) => c.name)).not.toContain('sid');
    await signerPage.close();
  } finally {
    await stopIntegrator();
  }
});
