import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { keySuffixOf } from '../contract/transport.ts';
import { newIdNumber, personTexts } from './person-support.ts';
import { type Locale, latestSmsCode, newPhone } from './support.ts';

const PORT = Number(process.env.E2E_PORT ?? 18090);
/** The app's origin, and the partner origins playwright.config.ts gives the server (PARTNER_<CODE>_ORIGINS). */
export const APP_ORIGIN = `http://127.0.0.1:${PORT}`;
export const ZYPT_ORIGIN = `http://127.0.0.1:${PORT + 1}`;
export const ZHDB_ORIGIN = `http://127.0.0.1:${PORT + 2}`;
/** Configured for no partner at all. */
export const UNKNOWN_ORIGIN = `http://127.0.0.1:${PORT + 3}`;
/**
 * Partner pages on another SITE than the app's (`localhost` against `127.0.0.1`), where the browser treats the
 * framed app's cookies and storage as third-party (e2e/cross-site.spec.ts): ZYPT's, and an integrator's.
 */
export const CROSS_SITE_ZYPT_ORIGIN = `http://localhost:${PORT + 6}`;
export const CROSS_SITE_INTEGRATOR_ORIGIN = `http://localhost:${PORT + 7}`;

/**
 * A partner's page on `origin`, from a real server on that port (Chromium's local-network checks refuse a
 * page that page.route made up to frame 127.0.0.1): it frames `?app=<url>` and records every message it
 * receives in window.received.
 */
const PARTNER_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Partner</title>
<script>window.received = []; addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));</script>
</head><body><h1>Partner platform</h1><iframe id="app" title="e-signature" style="width:1200px;height:900px;border:0"></iframe>
<script>document.getElementById('app').src = new URLSearchParams(location.search).get('app');</script></body></html>`;

/** Starts the partner servers of the given origins; resolves to a function that stops them. */
export async function startPartnerServers(origins: string[]): Promise<() => Promise<void>> {
  const servers = await Promise.all(
    origins.map(
      (origin) =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer((_req, res) => {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(PARTNER_HTML);
          });
          server.once('error', reject);
          server.listen(Number(new URL(origin).port), '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  };
}

export async function openPartnerPage(page: Page, origin: string, appUrl: string): Promise<void> {
  await page.goto(`${origin}/partner.html?${new URLSearchParams({ app: appUrl })}`);
}

export const receivedBy = (page: Page) =>
  page.evaluate(() => (window as unknown as { received: { origin: string; data: unknown }[] }).received);

/** XSRF headers of the page's session (the token cookie), as src/api/http.ts sends them. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  return { 'x-xsrf-token': token, keysuffix: keySuffixOf(token) };
}

/** Opens e-signature through the API for the logged-in person: real name, agreement, certificate. */
export async function openEsignViaApi(page: Page): Promise<void> {
  const call = async (name: string, data: object) => {
    const res = await page.request.post(`/v1/account/api/csign/${name}`, {
      data: { userType: 0, ...data },
      headers: await xsrfHeaders(page),
    });
    const body = (await res.json()) as { code: number; data: unknown };
    if (body.code !== 0) throw new Error(`${name} failed: ${JSON.stringify(body)}`);
    return body.data as Record<string, unknown>;
  };
  const phone = newPhone();
  await call('sendSmsCode', { phone, purpose: 'realName' });
  const smsCode = await latestSmsCode(page.request, phone);
  await call('authIdNamePhone', { name: '王小明', idNumber: newIdNumber(), phone, smsCode });
  const agreement = await call('getUserAgreement', {});
  await call('acceptUserAgreement', { version: agreement.version });
  await call('createPersonCaCert', {});
}

/** The PC opening screen (/manage/personalEsign) walked inside a frame: real name, agreement, certificate. */
export async function openEsignInFrame(
  frame: import('@playwright/test').FrameLocator,
  page: Page,
  locale: Locale,
): Promise<void> {
  const t = personTexts[locale];
  const phone = newPhone();
  await frame.getByLabel(t.name, { exact: true }).fill(t.personName);
  await frame.getByLabel(t.idNumber, { exact: true }).fill(newIdNumber());
  await frame.getByLabel(t.phone, { exact: true }).fill(phone);
  await frame.getByRole('button', { name: t.getCode }).click();
  await frame.getByLabel(t.smsCode, { exact: true }).fill(await latestSmsCode(page.request, phone));
  await frame.getByRole('button', { name: t.verify, exact: true }).click();
  await frame.getByRole('button', { name: t.accept }).click();
  await frame.getByRole('button', { name: t.issue }).click();
  await frame.getByText(t.done).waitFor();
}
