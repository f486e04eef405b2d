// The e-mail of the seal-use approval notices (a person who gave a notice address gets it beside the SMS):
// subject and body in the reader's language, naming the contract, who asks (or the seal) and the link.
import { describe, expect, test } from 'vitest';
import { renderNoticeMail } from '#server/messaging/mail-templates.ts';

const link = 'https://esign.example/#/mobile/approvals/5f0e0c44-1111-4222-8333-944455556666';

describe('approval notice e-mails', () => {
  test('a request, to the approver, in both languages', () => {
    const m = { kind: 'approval_requested' as const, who: '赵经办', flowTitle: '采购合同', link };
    const zh = renderNoticeMail(m, 'zh', null);
    expect(zh.subject).toContain('用印审批：《采购合同》');
    expect(zh.text).toContain('赵经办申请在《采购合同》上用印');
    expect(zh.text).toContain(link);
    const en = renderNoticeMail(m, 'en', null);
    expect(en.subject).toContain('Seal approval: "采购合同"');
    expect(en.text).toContain('赵经办 asks to apply a company seal');
  });

  test('a decision, to the requester, naming the seal', () => {
    const m = { kind: 'approval_decided' as const, who: '合同专用章', flowTitle: '采购合同', link };
    expect(renderNoticeMail(m, 'zh', null).text).toContain('印章「合同专用章」');
    expect(renderNoticeMail(m, 'en', null).subject).toContain('Seal approval decided');
  });
});
