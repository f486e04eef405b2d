// The cast of the approval journeys (issue 27): a company with a contract seal, its handler H (on PC, the seal
// authorised to them) and its approver A (on a 375 px phone), each a logged-in person in a context of its own.
import type { Browser } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { actForCompany, addOperator, openCompany } from './seal-support.ts';
import { call, openPersonESign, signingTexts } from './signing-support.ts';
import type { Locale } from './support.ts';

/** A logged-in person (real name, certificate) in a context of its own; answers the page and the phone. */
export async function person(
  browser: Browser,
  locale: Locale,
  name: string,
  viewport = { width: 1280, height: 900 },
) {
  const isPhone = viewport.width < 500;
  const context = await browser.newContext({ locale, viewport, isMobile: isPhone, hasTouch: isPhone });
  const page = await context.newPage();
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, name);
  return { page, phone };
}

/** The account id of the page's logged-in person. */
export const userIdOf = async (p: { page: { request: Parameters<typeof call>[0] } }) =>
  (await call<{ userId: string }>(p.page.request, 'updateLoginUserInfoCache')).userId;

/**
 * The administrator opens a company with a contract seal; H joins as an operator the seal is authorised to, A
 * as a member holding the approver role (both acting for the company).
 */
export async function companyWithHandlerAndApprover(
  browser: Browser,
  locale: Locale,
  names: { handler: string; approver: string },
) {
  const admin = await person(browser, locale, locale === 'zh-CN' ? '王管理' : 'Adam Admin');
  const { companyId } = await openCompany(
    admin.page,
    `${signingTexts[locale].companyName}${Math.floor(Math.random() * 1e6)}`,
  );
  const seal = await call<{ id: string }>(admin.page.request, 'saveCompanySeal', {
    userType: 1,
    sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
  });
  const h = await person(browser, locale, names.handler);
  const a = await person(browser, locale, names.approver, { width: 375, height: 812 });
  for (const member of [h, a]) {
    await addOperator(admin.page, member.page, member.phone);
    await actForCompany(member.page, companyId);
  }
  const now = Date.now();
  await call(admin.page.request, 'authoriseSeal', {
    userType: 1,
    sealId: seal.id,
    userIds: [await userIdOf(h)],
    validFrom: new Date(now - 60_000).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  await call(admin.page.request, 'setCompanyMemberRoles', {
    userType: 1,
    userId: await userIdOf(a),
    roles: ['approver'],
  });
  return { admin, companyId, sealId: seal.id, h, a };
}
