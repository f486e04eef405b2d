import type { Lang } from '../lib/text.ts';

/** The platform variants' names (SPEC §3, as src/platform/platforms.ts shows them): the e-mail's brand. */
const BRANDS: Record<string, { zh: string; en: string }> = {
  BCP_STFWPT: { zh: '电子签章平台', en: 'E-Signature Platform' },
  ZHDB: { zh: '担保公司平台', en: 'Guarantee-company platform' },
  ZYPT: { zh: '科研平台', en: 'Research platform' },
};
const brandOf = (platform: string | null | undefined, lang: Lang): string =>
  (BRANDS[platform ?? ''] ?? BRANDS.BCP_STFWPT)[lang];

/** Kinds of flow notice that are also e-mailed (the others stay in-product and SMS). */
type MailKind =
  | 'sign_request'
  | 'remind'
  | 'deadline_soon'
  | 'signed'
  | 'declined'
  | 'completed'
  | 'expired'
  | 'cancelled'
  // seal-use approval (server/modules/approval): `who` the requester (requested) or the seal (decided)
  | 'approval_requested'
  | 'approval_decided'
  // comments (issue 29): `who` the author
  | 'comment'
  // reassign and deadline change (issue 29, server/modules/flow/reassign.ts): `who` who acted, `deadline` the new one
  | 'reassigned'
  | 'deadline_changed'
  // a revised document (issue 29): `who` the launcher
  | 'revised'
  // contract term (issue 29, flow/term.ts): `deadline` is the term's last day
  | 'term_ending';

/**
 * What a notice carries for its e-mail: the flow's title, who acts, the absolute link to open, and for the
 * "deadline approaching" notice the deadline in Beijing time ("2026-12-01 18:00").
 */
export type NoticeMail = {
  kind: MailKind;
  flowTitle: string;
  who: string;
  link: string | null;
  deadline?: string;
};

const SUBJECTS: Record<MailKind, { zh: (t: string) => string; en: (t: string) => string }> = {
  sign_request: { zh: (t) => `待签署：《${t}》`, en: (t) => `To sign: "${t}"` },
  remind: { zh: (t) => `签署提醒：《${t}》`, en: (t) => `Reminder to sign: "${t}"` },
  deadline_soon: { zh: (t) => `即将截止签署：《${t}》`, en: (t) => `Signing deadline soon: "${t}"` },
  signed: { zh: (t) => `已签署：《${t}》`, en: (t) => `Signed: "${t}"` },
  declined: { zh: (t) => `已拒签：《${t}》`, en: (t) => `Declined: "${t}"` },
  completed: { zh: (t) => `已完成签署：《${t}》`, en: (t) => `Completed: "${t}"` },
  expired: { zh: (t) => `已过期：《${t}》`, en: (t) => `Expired: "${t}"` },
  cancelled: { zh: (t) => `已撤销：《${t}》`, en: (t) => `Cancelled: "${t}"` },
  approval_requested: { zh: (t) => `用印审批：《${t}》`, en: (t) => `Seal approval: "${t}"` },
  approval_decided: { zh: (t) => `用印审批结果：《${t}》`, en: (t) => `Seal approval decided: "${t}"` },
  comment: { zh: (t) => `新评论：《${t}》`, en: (t) => `New comment: "${t}"` },
  reassigned: { zh: (t) => `签署已转交：《${t}》`, en: (t) => `Signing handed over: "${t}"` },
  deadline_changed: {
    zh: (t) => `签署截止时间已变更：《${t}》`,
    en: (t) => `Signing deadline changed: "${t}"`,
  },
  revised: { zh: (t) => `文件已修订：《${t}》`, en: (t) => `Revised: "${t}"` },
  term_ending: { zh: (t) => `合同即将到期：《${t}》`, en: (t) => `Contract term ending: "${t}"` },
};

const BODIES: Record<MailKind, { zh: (m: NoticeMail) => string; en: (m: NoticeMail) => string }> = {
  sign_request: {
    zh: (m) => `${m.who}邀请您签署《${m.flowTitle}》。请打开下面的链接完成签署。`,
    en: (m) => `${m.who} invites you to sign "${m.flowTitle}". Open the link below to sign.`,
  },
  remind: {
    zh: (m) => `${m.who}提醒您签署《${m.flowTitle}》。请打开下面的链接完成签署。`,
    en: (m) => `${m.who} reminds you to sign "${m.flowTitle}". Open the link below to sign.`,
  },
  deadline_soon: {
    zh: (m) =>
      `《${m.flowTitle}》将于${m.deadline ?? ''}（北京时间）截止签署，逾期后将无法签署。请尽快打开下面的链接完成签署。`,
    en: (m) =>
      `"${m.flowTitle}" can be signed until ${m.deadline ?? ''} (Beijing time, UTC+8); after that it cannot be signed. Open the link below to sign.`,
  },
  signed: {
    zh: (m) => `${m.who}已签署《${m.flowTitle}》。`,
    en: (m) => `${m.who} has signed "${m.flowTitle}".`,
  },
  declined: {
    zh: (m) => `《${m.flowTitle}》已被拒签，签署流程已结束。`,
    en: (m) => `"${m.flowTitle}" was declined; the signing has ended.`,
  },
  completed: {
    zh: (m) =>
      `《${m.flowTitle}》已由各方完成签署。签署后的文件不随邮件发送：请登录后通过下面的链接查看和下载。`,
    en: (m) =>
      `"${m.flowTitle}" has been signed by every party. The signed document is not attached: log in and open the link below to view and download it.`,
  },
  expired: {
    zh: (m) => `《${m.flowTitle}》已过签署截止时间，签署流程已结束。`,
    en: (m) => `"${m.flowTitle}" passed its signing deadline; the signing has ended.`,
  },
  cancelled: {
    zh: (m) => `《${m.flowTitle}》已被发起方撤销。`,
    en: (m) => `"${m.flowTitle}" was cancelled by its sender.`,
  },
  approval_requested: {
    zh: (m) => `${m.who}申请在《${m.flowTitle}》上用印。请打开下面的链接查看合同并审批。`,
    en: (m) =>
      `${m.who} asks to apply a company seal to "${m.flowTitle}". Open the link below to read the contract and decide.`,
  },
  approval_decided: {
    zh: (m) => `您在《${m.flowTitle}》上使用印章「${m.who}」的申请已有审批结果。请打开下面的链接查看。`,
    en: (m) =>
      `Your request to apply the seal ${m.who} to "${m.flowTitle}" was decided. Open the link below to read the outcome.`,
  },
  comment: {
    zh: (m) => `${m.who}在《${m.flowTitle}》上发表了评论。请登录后查看并回复。`,
    en: (m) => `${m.who} commented on "${m.flowTitle}". Log in to read and reply.`,
  },
  reassigned: {
    zh: (m) => `《${m.flowTitle}》的签署已由${m.who}转交他人，您原来的签署链接已失效。`,
    en: (m) =>
      `${m.who} handed the signing of "${m.flowTitle}" to someone else; your earlier signing link no longer works.`,
  },
  deadline_changed: {
    zh: (m) => `《${m.flowTitle}》的签署截止时间已变更为${m.deadline ?? ''}（北京时间）。`,
    en: (m) => `The signing deadline of "${m.flowTitle}" is now ${m.deadline ?? ''} (Beijing time, UTC+8).`,
  },
  revised: {
    zh: (m) => `${m.who}上传了《${m.flowTitle}》的修订版。请登录查看修改内容并签署最终版本。`,
    en: (m) =>
      `${m.who} uploaded a revised version of "${m.flowTitle}". Log in to see what changed and sign the final version.`,
  },
  term_ending: {
    zh: (m) =>
      `合同《${m.flowTitle}》将于${m.deadline ?? ''}到期。如需续签，请登录后打开下面的链接，在合同详情中点击“续签”。`,
    en: (m) =>
      `The term of "${m.flowTitle}" ends on ${m.deadline ?? ''}. To renew it, log in, open the link below and choose "Renew" in the contract's detail.`,
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The e-mail of one notice in one language, with the platform's brand in the subject and the header. */
export function renderNoticeMail(
  m: NoticeMail,
  lang: Lang,
  platform: string | null,
): { subject: string; text: string; html: string } {
  const brand = brandOf(platform, lang);
  const subject = `【${brand}】${SUBJECTS[m.kind][lang](m.flowTitle)}`;
  const body = BODIES[m.kind][lang](m);
  const footer =
    lang === 'zh'
      ? `此邮件由${brand}自动发送，请勿直接回复。`
      : `This message was sent automatically by ${brand}; please do not reply.`;
  const text = [body, m.link ?? '', '', footer].filter((l, i) => i !== 1 || l).join('\n');
  const link = m.link
    ? `<p><a href="${escapeHtml(m.link)}" style="color:#ec1c23">${escapeHtml(m.link)}</a></p>`
    : '';
  const html =
    `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><body style="font-family:sans-serif">` +
    `<h2 style="color:#ec1c23">${escapeHtml(brand)}</h2><p>${escapeHtml(body)}</p>${link}` +
    `<p style="color:#888;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  return { subject, text, html };
}
