// Launch approval (发起审批, issue 27) in both languages: the administrator sets the company's launch rule on the
// approvals centre (approver A); handler H launches a contract to the company (H its operator) and the launch
// screen says it went to approval; H's launched list shows "awaiting launch approval"; A approves on a 375 px
// phone from the approvals centre (the request tagged "launch", the contract as launched); H then gets the
// contract among the signatures to do, opens the room and seals; the signed PDF is valid in pdfsig.
import { expect, test } from '@playwright/test';
import { companyWithHandlerAndApprover } from './approval-support.ts';
import {
  fetchPdf,
  launchToOwnCompany,
  openRoomFromListOnPc,
  signInRoom,
  signingTexts,
} from './signing-support.ts';
import { type Locale, pdfsigValidity } from './support.ts';

const texts = {
  'en-US': {
    approver: 'Amy Approver',
    handler: 'Henry Handler',
    ruleButton: 'Launch approval rule',
    oneOf: 'One of the approvers',
    approvers: 'Approvers',
    save: 'Save',
    sentForApproval:
      'Submitted for launch approval. The signers get their links once the company’s approvers approve it.',
    awaiting: 'Awaiting launch approval',
    kindLaunch: 'Launch',
    contract: 'The contract as launched',
    approve: 'Approve',
    confirm: 'Confirm',
    approvedTag: 'Approved',
  },
  'zh-CN': {
    approver: '钱审批',
    handler: '赵经办',
    ruleButton: '发起审批规则',
    oneOf: '任一审批人',
    approvers: '审批人',
    save: '保存',
    sentForApproval: '已提交发起审批，企业审批人同意后签署方才会收到签署链接。',
    awaiting: '待发起审批',
    kindLaunch: '发起',
    contract: '发起的合同',
    approve: '同意',
    confirm: '确定',
    approvedTag: '已同意',
  },
} as const;

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = texts[locale];
  const st = signingTexts[locale];

  test(`launch approval: the rule, a held launch, approved on a phone, sent and sealed (${locale})`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const { admin, h, a } = await companyWithHandlerAndApprover(browser, locale, t);

    // The administrator requires A's approval of every handler's launch, from the approvals centre.
    await admin.page.goto('/#/manage/approvals');
    await admin.page.getByRole('button', { name: t.ruleButton }).click();
    const form = admin.page.getByRole('dialog', { name: t.ruleButton });
    await form.getByRole('radio', { name: t.oneOf }).check();
    await form.getByRole('combobox', { name: t.approvers }).click();
    await admin.page.getByTitle(t.approver, { exact: true }).click();
    await form.getByRole('button', { name: t.save, exact: true }).click();
    await admin.page.locator('.ant-popconfirm').getByRole('button', { name: t.save, exact: true }).click();
    await expect(form).toBeHidden();

    // H launches: it goes to approval; the launched list says it waits.
    await launchToOwnCompany(h.page, st, h.phone, undefined, t.sentForApproval);
    await h.page.goto('/#/signList?tab=launched');
    await expect(h.page.getByTestId('awaiting-approval').first()).toHaveText(t.awaiting);

    // A approves on the phone: the request is tagged as a launch and shows the contract as launched.
    await a.page.goto('/#/mobile/approvals');
    const item = a.page.getByTestId('approval-item').first();
    await expect(item.getByTestId('approval-kind')).toHaveText(t.kindLaunch);
    await item.click();
    await expect(
      a.page.getByRole('region', { name: t.contract }).locator('.pdf-page[data-drawn="true"]').first(),
    ).toBeVisible({ timeout: 30_000 });
    expect(await a.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await a.page.getByRole('button', { name: t.approve, exact: true }).click();
    await a.page.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
    await expect(a.page.getByTestId('approval-status')).toHaveText(t.approvedTag);
    await a.page.screenshot({ path: test.info().outputPath('approver-phone.png'), fullPage: true });

    // Sent: H finds it among the signatures to do and seals; the signature is valid in pdfsig.
    await openRoomFromListOnPc(h.page, st);
    await signInRoom(h.page, h.phone, st);
    const href = await h.page.getByRole('link', { name: st.downloadSigned }).getAttribute('href');
    const signed = await fetchPdf(h.page.request, href ?? '');
    expect(pdfsigValidity(signed.bytes)[0]).toBe('Signature is Valid.');
  });
}
