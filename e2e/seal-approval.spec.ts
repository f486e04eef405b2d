// Seal-use approval (用印审批, issue 27), the whole journey in both languages: the administrator makes member A an
// approver and requires A's approval for every use of the contract seal; handler H launches a contract to the
// company and, in the room, asks for approval; A opens the SMS link on a 375 px phone, reads the contract and
// rejects with a comment; H reads it in the room and asks again; A approves; H seals; the signed PDF is valid
// in pdfsig and the flow's audit trail names the approval.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
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
    contractSeal: 'Contract seal',
    rule: 'Approval rule',
    ruleTitle: 'Approval rule: Contract seal',
    oneOf: 'One of the approvers',
    approvers: 'Approvers',
    save: 'Save',
    ruleShown: 'Approval: one of Amy Approver',
    needed: 'This seal needs approval before use',
    ask: 'Ask for approval',
    waiting: 'Waiting for Amy Approver',
    refresh: 'Refresh',
    comment: 'Comment',
    reject: 'Reject',
    approve: 'Approve',
    confirm: 'Confirm',
    rejected: 'Rejected',
    approvedTag: 'Approved',
    why: 'Fix the amount in clause 2 first',
    rejectedBy: 'Rejected by Amy Approver: Fix the amount in clause 2 first',
    askAgain: 'Ask again',
    approved: 'Approved — you can sign now',
    contract: 'The contract as it will be sealed',
    detail: 'Detail',
    tabLaunched: 'Launched',
    auditRequested: 'Seal approval requested',
    auditDecided: 'Seal approval decided',
    menu: 'Seal approvals',
  },
  'zh-CN': {
    approver: '钱审批',
    handler: '赵经办',
    contractSeal: '合同专用章',
    rule: '用印审批',
    ruleTitle: '用印审批规则：合同专用章',
    oneOf: '任一审批人',
    approvers: '审批人',
    save: '保存',
    ruleShown: '用印审批：钱审批 任一人',
    needed: '此印章需审批后才能使用',
    ask: '申请用印审批',
    waiting: '等待 钱审批 审批',
    refresh: '刷新',
    comment: '审批意见',
    reject: '驳回',
    approve: '同意',
    confirm: '确定',
    rejected: '已驳回',
    approvedTag: '已同意',
    why: '请先修改第二条的金额',
    rejectedBy: '钱审批 驳回：请先修改第二条的金额',
    askAgain: '重新申请',
    approved: '审批已通过，现在可以签署',
    contract: '将要盖章的合同',
    detail: '详情',
    tabLaunched: '已发起',
    auditRequested: '申请用印审批',
    auditDecided: '用印审批已处理',
    menu: '用印审批',
  },
} as const;

/** The text of a PDF (poppler's pdftotext). */
function pdfText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'esign-report-')), 'report.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

/** The approval link of the latest SMS to the approver (the SPA path of /mobile/approvals/<id>). */
async function latestApprovalLink(request: APIRequestContext, phone: string, not?: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { text: string }[] };
      link = '';
      for (const m of body.data) {
        const hit = /#(\/mobile\/approvals\/[0-9a-f-]{36})/.exec(m.text);
        if (hit) {
          link = hit[1];
          break;
        }
      }
      return link && link !== not ? link : '';
    })
    .toMatch(/^\/mobile\/approvals\//);
  return link;
}

/** The approver decides on the phone: the contract shows; a rejection says why; confirmed in the dialog. */
async function decideOnPhone(page: Page, t: (typeof texts)[Locale], decision: 'reject' | 'approve') {
  await expect(
    page.getByRole('region', { name: t.contract }).locator('.pdf-page[data-drawn="true"]').first(),
  ).toBeVisible({ timeout: 30_000 });
  // The 375 px phone shows the request without a sideways scroll.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  if (decision === 'reject') await page.getByLabel(t.comment).fill(t.why);
  await page.getByRole('button', { name: decision === 'reject' ? t.reject : t.approve, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
  await expect(page.getByTestId('approval-status')).toHaveText(
    decision === 'reject' ? t.rejected : t.approvedTag,
  );
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = texts[locale];
  const st = signingTexts[locale];

  test(`seal-use approval: ask, reject with a comment, ask again, approve, seal (${locale})`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    // The administrator opens the company with a contract seal; handler H (the seal authorised to them) and
    // approver A (the approver role) join it.
    const { admin, h, a } = await companyWithHandlerAndApprover(browser, locale, t);

    // The administrator requires A's approval for the contract seal, on the seal page.
    await admin.page.goto('/#/manage/account/stamp');
    const card = admin.page.getByRole('article', { name: t.contractSeal });
    await card.getByRole('button', { name: t.rule }).click();
    const form = admin.page.getByRole('dialog', { name: t.ruleTitle });
    await form.getByRole('radio', { name: t.oneOf }).check();
    await form.getByRole('combobox', { name: t.approvers }).click();
    await admin.page.getByTitle(t.approver, { exact: true }).click();
    await form.getByRole('button', { name: t.save, exact: true }).click();
    await admin.page.locator('.ant-popconfirm').getByRole('button', { name: t.save, exact: true }).click();
    await expect(card.getByTestId('seal-policy-summary')).toHaveText(t.ruleShown);

    // H launches a contract to the company (H its operator) and, in the room, must ask first.
    await launchToOwnCompany(h.page, st, h.phone);
    await openRoomFromListOnPc(h.page, st);
    await expect(h.page.getByTestId('approval-state')).toHaveText(t.needed);
    await expect(h.page.getByRole('button', { name: st.sign, exact: true })).toBeDisabled();
    await h.page.getByRole('button', { name: t.ask }).click();
    await expect(h.page.getByTestId('approval-state')).toHaveText(t.waiting);

    // A opens the SMS link on the phone, reads the contract, rejects with a comment.
    const first = await latestApprovalLink(a.page.request, a.phone);
    await a.page.goto(`/#${first}`);
    await decideOnPhone(a.page, t, 'reject');
    await a.page.screenshot({ path: test.info().outputPath('approver-phone.png'), fullPage: true });

    // H reads why (refreshing, unless the room's own poll got there first), and asks again.
    const askAgain = h.page.getByRole('button', { name: t.askAgain });
    await expect(h.page.getByRole('button', { name: t.refresh }).or(askAgain)).toBeVisible();
    if (await h.page.getByRole('button', { name: t.refresh }).isVisible()) {
      await h.page
        .getByRole('button', { name: t.refresh })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
    }
    await expect(h.page.getByTestId('approval-state')).toHaveText(t.rejectedBy, { timeout: 20_000 });
    await h.page.screenshot({ path: test.info().outputPath('handler-room.png') });
    await askAgain.click();
    await expect(h.page.getByTestId('approval-state')).toHaveText(t.waiting);

    // A approves the new request from the phone's approvals list.
    const second = await latestApprovalLink(a.page.request, a.phone, first);
    await a.page.goto('/#/mobile/approvals');
    await a.page.locator(`[data-testid="approval-item"]`).first().click();
    await expect(a.page).toHaveURL(new RegExp(`#${second}$`));
    await decideOnPhone(a.page, t, 'approve');

    // The room notices by itself (it polls every 10 s); H seals.
    await expect(h.page.getByTestId('approval-state')).toHaveText(t.approved, { timeout: 20_000 });
    await signInRoom(h.page, h.phone, st);
    const href = await h.page.getByRole('link', { name: st.downloadSigned }).getAttribute('href');
    const signed = await fetchPdf(h.page.request, href ?? '');
    // The company's signature is valid in pdfsig (the document time-stamp after it pdfsig does not check).
    const verdicts = pdfsigValidity(signed.bytes);
    expect(verdicts[0]).toBe('Signature is Valid.');
    expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    // The evidence (audit report) names the approval the seal was applied under.
    const reportHref = await h.page.getByRole('link', { name: st.downloadReport }).getAttribute('href');
    const report = await fetchPdf(h.page.request, reportHref ?? '');
    expect(pdfText(report.bytes)).toContain(second.split('/').at(-1)?.slice(0, 8));

    // The flow's audit trail names the approval: asked twice, decided twice.
    await h.page.goto('/#/signList?tab=launched');
    await h.page.getByRole('button', { name: t.detail }).first().click();
    const trail = h.page.getByRole('region', { name: /Audit trail|审计记录/ });
    await expect(trail.getByText(t.auditRequested, { exact: true })).toHaveCount(2);
    await expect(trail.getByText(t.auditDecided, { exact: true })).toHaveCount(2);
    await expect(trail).toContainText(t.why);

    // The workspace menu offers the approvals centre to company members.
    await expect(h.page.getByRole('menuitem', { name: t.menu })).toBeVisible();
  });
}
