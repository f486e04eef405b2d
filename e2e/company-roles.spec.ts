// Company roles and hand-over (issue 27), on a PC and a 375 px phone, in both languages: the administrator
// makes a member seal keeper of the contract seal (the role tags show, the legal representative is marked),
// the keeper authorises that seal to a contract handler, and the administrator hands the handler's open work
// over to another handler, reading what moves; the audit trail says so.
import { type Browser, type Page, expect, test } from '@playwright/test';
import { uploadPdf } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { actForCompany, addOperator, openCompany } from './seal-support.ts';
import { call, contractPdf } from './signing-support.ts';
import type { Locale } from './support.ts';

const TEXTS = {
  'en-US': {
    roles: 'Roles',
    sealKeeper: 'Seal keeper',
    handler: 'Contract handler',
    legalRep: 'Legal representative',
    keptSeals: 'Seals kept',
    save: 'Save',
    saved: 'Roles saved',
    authoriseSubmit: 'Authorise',
    authorised: 'The seal was authorised',
    handOverWork: 'Hand over work',
    receiver: 'Receiver (a contract handler)',
    willMove: /What moves: 1 open contract launched, 1 signature waiting, 1 seal authorisation/,
    handOver: 'Hand over',
    handedOver: /Work handed over/,
    trailHandover: /handed the work of .* over: to /,
    trailKeeper: /keeper of the seal 合同专用章/,
  },
  'zh-CN': {
    roles: '设置角色',
    sealKeeper: '印章保管人',
    handler: '合同经办人',
    legalRep: '法定代表人',
    keptSeals: '保管的印章',
    save: '保存',
    saved: '角色已保存',
    authoriseSubmit: '授权',
    authorised: '授权成功',
    handOverWork: '交接工作',
    receiver: '接收人（合同经办人）',
    willMove: /将移交：发起的进行中合同 1 份，待签署 1 份，印章授权 1 项/,
    handOver: '确认交接',
    handedOver: /已交接/,
    trailHandover: /交接了 .* 的工作：移交给 /,
    trailKeeper: /指定 .* 为印章保管人：合同专用章/,
  },
};

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** A new member of the admin's company on its own page (invited, accepted: a contract handler), acting for it. */
async function member(
  browser: Browser,
  admin: Page,
  companyId: string,
  locale: Locale,
  viewport: { width: number; height: number },
) {
  const page = await (await browser.newContext({ locale, viewport })).newPage();
  const phone = await registerViaApi(page);
  await addOperator(admin, page, phone);
  await actForCompany(page, companyId);
  return { page, phone };
}

const PHONE = { width: 375, height: 812 };
const PC = { width: 1280, height: 900 };

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  for (const [device, viewport] of [
    ['PC', PC],
    ['phone', PHONE],
  ] as const) {
    const t = TEXTS[locale];
    test.describe(`company roles (${locale}, ${device})`, () => {
      test.use({ locale, viewport });

      test('roles, a seal keeper who authorises, and a hand-over', async ({ page: admin, browser }) => {
        test.setTimeout(150_000);
        await registerViaApi(admin);
        const { companyId } = await openCompany(admin, `角色测试${Math.floor(Math.random() * 1e6)}有限公司`);
        await call(admin.request, 'saveCompanySeal', {
          userType: 1,
          sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
        });
        const keeper = await member(browser, admin, companyId, locale, viewport);
        const handler = await member(browser, admin, companyId, locale, viewport);
        const receiver = await member(browser, admin, companyId, locale, viewport);
        // The handler's open work: a contract launched for the company, its company party addressed to them.
        const documentId = await uploadPdf(handler.page.request, await contractPdf(), 1);
        await call(handler.page.request, 'launchFlow', {
          userType: 1,
          title: '交接测试合同',
          documentIds: [documentId],
          steps: [
            {
              parties: [
                {
                  kind: 'company',
                  companyId,
                  operatorPhone: handler.phone,
                  applies: { companySealType: 102 },
                  positions: [{ documentId, page: 2, mm: { left: 20, top: 200, width: 42, height: 42 } }],
                },
              ],
            },
          ],
        });

        // The administrator makes the keeper keeper of the contract seal; the tags show.
        await admin.goto('/#/manage/account/operator');
        const keeperRow = admin.getByRole('row').filter({ hasText: masked(keeper.phone) });
        await expect(keeperRow.getByText(t.handler)).toBeVisible({ timeout: 30_000 });
        await expect(admin.getByRole('row').filter({ hasText: t.legalRep })).toHaveCount(1);
        await keeperRow.getByRole('button', { name: t.roles }).click();
        const dialog = admin.getByRole('dialog');
        await dialog.getByRole('checkbox', { name: t.sealKeeper }).check();
        await dialog.getByLabel(t.keptSeals).click();
        await admin.getByTitle('合同专用章').click();
        // Close the multiple select's list (it stays open after a choice, over what is below it).
        await dialog.locator('.ant-modal-title').click();
        await expect(dialog.locator('.ant-select-selection-item', { hasText: '合同专用章' })).toBeVisible();
        await dialog.getByRole('button', { name: t.save }).click();
        await expect(admin.getByText(t.saved)).toBeVisible();
        await expect(keeperRow.getByText(t.sealKeeper)).toBeVisible();
        await expect(admin.getByText(t.trailKeeper)).toBeVisible();

        // The keeper authorises the contract seal to the handler.
        await keeper.page.goto('/#/manage/account/stamp/authorize');
        await keeper.page
          .getByRole('checkbox', { name: new RegExp(handler.phone) })
          .check({ timeout: 30_000 });
        await keeper.page.getByRole('button', { name: t.authoriseSubmit, exact: true }).click();
        await expect(keeper.page.getByText(t.authorised)).toBeVisible();

        // The administrator hands the handler's work over to the receiver, reading what moves.
        await admin.reload();
        const handlerRow = admin.getByRole('row').filter({ hasText: masked(handler.phone) });
        await handlerRow.getByRole('button', { name: t.handOverWork }).click({ timeout: 30_000 });
        await expect(dialog.getByText(t.willMove)).toBeVisible();
        // The receivers load with the dialog: choose from the open list until the choice shows.
        const receiverTitle = new RegExp(masked(receiver.phone).replace(/\*/g, '\\*'));
        await expect(async () => {
          if (!(await admin.locator('.ant-select-dropdown:visible').count()))
            await dialog.getByLabel(t.receiver).click();
          await admin
            .locator('.ant-select-dropdown:visible')
            .getByTitle(receiverTitle)
            .click({ timeout: 3_000 });
          await expect(dialog.getByRole('button', { name: t.handOver })).toBeEnabled({ timeout: 1_000 });
        }).toPass({ timeout: 30_000 });
        await dialog.getByRole('button', { name: t.handOver }).click();
        await expect(admin.getByText(t.handedOver)).toBeVisible();
        await expect(admin.getByText(t.trailHandover)).toBeVisible();

        // The staff list on the phone screen shows the roles too.
        await keeper.page.goto('/#/mobile/staffList');
        await expect(keeper.page.getByText(t.sealKeeper).first()).toBeVisible({ timeout: 30_000 });
      });
    });
  }
}
