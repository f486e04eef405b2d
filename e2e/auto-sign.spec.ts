// Automatic signing (静默签, issue 27), through the screens: a company's administrator authorises automatic sealing
// for one template on the "Authorisation letters" page (the SMS code read from the development outbox), views the
// letter the company signed (valid in pdfsig); a flow from that template, once its person party has signed, is
// sealed for the company with nobody in the room and no link sent, and its signed PDF is valid in pdfsig; after
// the letter is revoked (with a confirmation), the next flow's company party waits for a person, its link sent.
// On a PC in Chinese and on a 375 px phone in English.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { signByLink, uploadPdf } from './package-support.ts';
import { openCompany, registerPerson } from './seal-support.ts';
import { call, contractPdf, personWithSeal } from './signing-support.ts';
import { type Locale, latestSmsCode, pdfsigValidity } from './support.ts';

const texts = {
  'en-US': {
    menu: 'Authorisation letters',
    newAutoSign: 'Authorise automatic signing',
    getCode: 'Get code',
    smsCode: 'SMS code',
    maxUses: 'Most uses',
    issue: 'Sign and issue',
    inForce: 'In force',
    revoked: 'Revoked',
    view: 'View',
    download: 'Download PDF',
    revoke: 'Revoke',
    close: 'Close',
    automatic: 'Automatic signing',
  },
  'zh-CN': {
    menu: '授权书',
    newAutoSign: '授权自动签署',
    getCode: '获取验证码',
    smsCode: '验证码',
    maxUses: '次数上限',
    issue: '签署并出具',
    inForce: '生效中',
    revoked: '已撤销',
    view: '查看',
    download: '下载 PDF',
    revoke: '撤销',
    close: '关闭',
    automatic: '自动签署',
  },
} as const;

type Party = { kind: string; status: string };
type Detail = { status: string; documents: { documentId: string }[]; steps: { parties: Party[] }[] };

/**
 * Presses a button from the keyboard. Once a phone's keyboard has shown for the SMS code, the emulated phone's
 * visual viewport stays panned and a pointer click lands beside the button; the keyboard reaches it as a user's
 * tap does.
 */
async function press(button: Locator): Promise<void> {
  await button.focus();
  await button.press('Enter');
}

const companyPartyOf = (d: Detail) => d.steps.flatMap((s) => s.parties).find((p) => p.kind === 'company');

/** Launches a flow from the template: the person (step 1) and the company handled by the administrator (step 2). */
async function launch(
  admin: Page,
  at: { templateId: string; companyId: string; adminPhone: string },
  person: string,
  title: string,
) {
  const draft = await call<{ draftId: string }>(admin.request, 'prepareTemplateLaunch', {
    userType: 1,
    templateId: at.templateId,
    title,
    assignments: [
      {
        roleKey: 'partyA',
        kind: 'company',
        companyId: at.companyId,
        operatorPhone: at.adminPhone,
        operatorName: '张三',
      },
      { roleKey: 'partyB', kind: 'person', name: '李四', phone: person },
    ],
  });
  return (
    await call<{ flowId: string }>(admin.request, 'launchTemplateFlow', {
      userType: 1,
      draftId: draft.draftId,
    })
  ).flowId;
}

/** Signing links of the flow (by its title) in the development outbox of a phone. */
async function linksOf(admin: Page, phone: string, title: string): Promise<number> {
  const res = await admin.request.get(`/v1/dev/outbox?phone=${phone}&limit=200`);
  const body = (await res.json()) as { data: { text: string }[] };
  return body.data.filter((m) => m.text.includes('/singingRoom/') && m.text.includes(title)).length;
}

const journeys: { locale: Locale; phone: boolean }[] = [
  { locale: 'zh-CN', phone: false },
  { locale: 'en-US', phone: true },
];

for (const { locale, phone } of journeys) {
  const t = texts[locale];
  test.describe(`automatic signing (${locale}, ${phone ? '375 px phone' : 'PC'})`, () => {
    test.use({
      locale,
      ...(phone ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } : {}),
    });

    test('a company authorises automatic sealing for one template; its flow is sealed with no one in the room; revoking makes the next one wait', async ({
      browser,
      page: admin,
    }) => {
      test.setTimeout(300_000);
      const baseURL = test.info().project.use.baseURL;
      const adminPhone = await registerPerson(admin);
      const { companyId } = await openCompany(
        admin,
        locale === 'zh-CN' ? '杭州自动签科技有限公司' : '上海静默签贸易有限公司',
      );
      await call(admin.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true, legalPersonName: '张三' },
      });
      // The template: the person signs first (step 1), then the company applies its contract seal (step 2).
      const documentId = await uploadPdf(admin.request, await contractPdf(), 1);
      const applies = { legalPersonSeal: false, date: false, crossPageSeal: false };
      const config = await call<{ configId: string }>(admin.request, 'saveSignConfig', {
        userType: 1,
        name: '先个人后企业',
        steps: [
          {
            parties: [
              { key: 'partyB', name: '乙方', kind: 'person', applies: { ...applies, personSignature: true } },
            ],
          },
          {
            parties: [
              {
                key: 'partyA',
                name: '甲方',
                kind: 'company',
                applies: { ...applies, personSignature: false, companySealType: 102 },
              },
            ],
          },
        ],
      });
      const templateName = locale === 'zh-CN' ? '服务合同模板' : 'Service contract template';
      const template = await call<{ templateId: string }>(admin.request, 'saveTemplate', {
        userType: 1,
        documentId,
        name: templateName,
        signConfigId: config.configId,
        positions: [
          { roleKey: 'partyA', page: 2, rect: [72, 120, 190, 238] },
          { roleKey: 'partyB', page: 2, rect: [340, 150, 460, 210] },
        ],
      });

      // The person who signs first, in a context of their own.
      const personContext = await browser.newContext({ locale, baseURL });
      const person = await personContext.newPage();
      const personPhone = await personWithSeal(person, '李四');
      const personSeal = (await call<{ seals: { id: string }[] }>(person.request, 'getUserCertSealList'))
        .seals[0].id;

      // The administrator authorises automatic sealing for the template, through the screens.
      await admin.goto('/#/manage/account/letters');
      await expect(admin.getByRole('heading', { name: t.menu })).toBeVisible();
      await admin.getByRole('button', { name: t.newAutoSign }).click();
      const dialog = admin.getByRole('dialog', { name: t.newAutoSign });
      await dialog.getByRole('checkbox', { name: templateName }).check();
      await dialog.getByLabel(t.maxUses).fill('5');
      await dialog.getByRole('button', { name: t.getCode }).click();
      const code = dialog.getByLabel(t.smsCode, { exact: true });
      await code.fill(await latestSmsCode(admin.request, adminPhone, 'authorisation:issue'));
      await press(dialog.getByRole('button', { name: t.issue }));
      await expect(dialog).toBeHidden({ timeout: 30_000 });
      const row = admin.getByRole('row').filter({ hasText: t.automatic });
      await expect(row.getByText(t.inForce)).toBeVisible();

      // The letter the company signed: shown, and valid in pdfsig.
      await press(row.getByRole('button', { name: t.view }));
      const viewer = admin.getByRole('dialog');
      await expect(viewer.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
        timeout: 20_000,
      });
      const href = await viewer.getByRole('link', { name: t.download }).getAttribute('href');
      const letterPdf = await admin.request.get(href ?? '');
      expect(letterPdf.status()).toBe(200);
      expect(pdfsigValidity(await letterPdf.body())).toEqual(['Signature is Valid.']);
      await press(viewer.getByRole('button', { name: t.close }).last());

      // A flow from the template: the person signs; the company is sealed with nobody in the room.
      const first = locale === 'zh-CN' ? '自动签署合同一' : 'Auto-signed contract one';
      const flowId = await launch(admin, { ...template, companyId, adminPhone }, personPhone, first);
      await signByLink(person.request, personPhone, personSeal);
      let detail: Detail | undefined;
      await expect
        .poll(
          async () => {
            detail = await call<Detail>(admin.request, 'getFlowDetail', { userType: 1, flowId });
            return detail.status;
          },
          { timeout: 60_000 },
        )
        .toBe('completed');
      expect(companyPartyOf(detail!)?.status).toBe('signed');
      expect(await linksOf(admin, adminPhone, first)).toBe(0);
      const signed = await admin.request.get(
        `/v1/account/api/csign/downloadSignedPdf/${flowId}/${detail!.documents[0].documentId}`,
      );
      expect(signed.status()).toBe(200);
      const verdicts = pdfsigValidity(await signed.body());
      expect(verdicts.slice(0, 2)).toEqual(['Signature is Valid.', 'Signature is Valid.']);
      expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);

      // Revoking (after a confirmation) makes the next flow wait for a person, its link sent.
      await admin.reload();
      await admin
        .getByRole('row')
        .filter({ hasText: t.automatic })
        .getByRole('button', { name: t.revoke })
        .click();
      await admin.getByRole('tooltip').getByRole('button', { name: t.revoke }).click();
      await expect(
        admin.getByRole('row').filter({ hasText: t.automatic }).getByText(t.revoked),
      ).toBeVisible();
      const second = locale === 'zh-CN' ? '撤销后的合同二' : 'Contract two after revoking';
      const secondId = await launch(admin, { ...template, companyId, adminPhone }, personPhone, second);
      await signByLink(person.request, personPhone, personSeal);
      await expect.poll(() => linksOf(admin, adminPhone, second), { timeout: 60_000 }).toBe(1);
      const waiting = await call<Detail>(admin.request, 'getFlowDetail', { userType: 1, flowId: secondId });
      expect(waiting.status).toBe('signing');
      expect(companyPartyOf(waiting)?.status).toBe('pending');
      await personContext.close();
    });
  });
}
