import { countOf } from '#contract/plural.ts';
// The audit trail in the reader's language. Entries are stored (and hash-chained) with the platform's own
// words in English; they are never rewritten. What a reader sees is translated here, on the way out: the
// platform's actor name and every detail the platform writes. Text a person typed (a cancel or decline
// reason, a flow title, a name) is shown as typed.
import type { AuditEntry } from '#contract/calls/flow.ts';
import type { Lang } from '../../http/texts.ts';

type Rule = { re: RegExp; zh: (m: RegExpExecArray) => string; en: (m: RegExpExecArray) => string };

const DOWNLOADS: Record<string, [string, string]> = {
  'audit report': ['审计报告', 'audit report'],
  'signed PDF': ['已签署文件', 'signed PDF'],
  original: ['原始文件', 'original'],
  'current version': ['当前版本', 'current version'],
};

/** Why a launch wrote no verification footer (the footer is a rewrite that an encrypted file cannot take). */
const NO_FOOTER: Record<string, [string, string]> = {
  encrypted: [
    '文件已加密，重写会去除加密',
    'the file is encrypted and a rewrite would remove its encryption',
  ],
  damaged: [
    '文件受损，重写可能改变其显示的内容',
    'the file is damaged, and a rewrite could change what it shows',
  ],
};

type Phrase = [RegExp, (m: RegExpExecArray) => string];

/** What was wrong with a rebuilt cross-reference table (server/pdf/sign/repair.ts tableDamage), in Chinese. */
const TABLE_DAMAGE: Phrase[] = [
  [/^(\d+) objects? at (?:a )?wrong offsets?$/, (m) => `${m[1]} 个对象的偏移量有误`],
  [/^its startxref was missing$/, () => '缺少 startxref'],
  [/^its startxref led to no table$/, () => 'startxref 未指向交叉引用表'],
  [/^its chain of sections was broken$/, () => '交叉引用段的 /Prev 链断开'],
  [/^its \/Size was too small$/, () => '/Size 过小'],
  [/^it was missing or unreadable$/, () => '原表缺失或无法读取'],
  [/^the first page could not be found$/, () => '找不到第一页'],
  [/^the objects moved behind the header$/, () => '对象随补上的文件头后移'],
];

/** What a repair before signing did (repair.ts `Prepared.problem`, phrases joined by "; "), in Chinese. */
const REPAIRS: Phrase[] = [
  [
    /^cross-reference table rebuilt(?:: (.+))?$/,
    (m) => `重建了交叉引用表${m[1] ? `（${inChinese(m[1], TABLE_DAMAGE)}）` : ''}`,
  ],
  [/^%PDF header added$/, () => '补上了 %PDF 文件头'],
  [/^the catalog made an indirect object$/, () => '文档目录改写为间接对象'],
  [
    /^pages? ([\d, …]+) made (?:an )?indirect objects?$/,
    (m) => `第 ${m[1].replace(/, /g, '、')} 页改写为间接对象`,
  ],
  [/^(\d+) page tree nodes? made (?:an )?indirect objects?$/, (m) => `${m[1]} 个页面树节点改写为间接对象`],
  [/^an \/Encrypt entry over unencrypted objects dropped$/, () => '去掉了指向未加密对象的 /Encrypt 项'],
  [
    /^an \/Encrypt entry of a trailer viewers do not use dropped$/,
    () => '去掉了阅读器不采用的文件尾中的 /Encrypt 项',
  ],
  [/^an unreadable \/Encrypt entry dropped$/, () => '去掉了无法读取的 /Encrypt 项'],
  [/^an unreadable catalog replaced$/, () => '替换了无法读取的文档目录'],
  [/^page tree rebuilt from (\d+) page objects?$/, (m) => `用 ${m[1]} 个页面对象重建了页面树`],
  [
    /^pages? ([\d, …]+) unreadable: written anew, blank, on an A4 box$/,
    (m) => `第 ${m[1].replace(/, /g, '、')} 页无法读取，已重写为 210×297 毫米的空白页`,
  ],
];

/** `text` in Chinese by the first phrase that matches it; as it is when none does (older entries). */
function inChinese(text: string, phrases: Phrase[]): string {
  for (const [re, zh] of phrases) {
    const m = re.exec(text);
    if (m) return zh(m);
  }
  return text;
}

/** Event names in both languages (for the bilingual report). */
export const EVENT_TEXT: Record<AuditEntry['event'], [string, string]> = {
  launch: ['发起', 'launched'],
  view: ['查看', 'viewed'],
  sms_sent: ['发送验证码', 'code sent'],
  sign: ['签署', 'signed'],
  decline: ['拒签', 'declined'],
  cancel: ['撤销', 'cancelled'],
  remind: ['提醒', 'reminded'],
  expire: ['过期', 'expired'],
  complete: ['完成', 'completed'],
  download: ['下载', 'downloaded'],
  repair: ['签署前修复', 'repaired'],
  approval_requested: ['申请用印审批', 'seal approval requested'],
  approval_decided: ['用印审批', 'seal approval decided'],
  approval_void: ['用印审批失效', 'seal approval void'],
  comment: ['评论', 'commented'],
  comment_resolve: ['评论处理', 'comment thread'],
  cc_added: ['添加抄送人', 'copy recipient added'],
  reassign: ['转交签署', 'handed over'],
  deadline_change: ['变更截止时间', 'deadline changed'],
  link_copied: ['复制签署链接', 'signing link copied'],
  rescission_requested: ['发起解除协议', 'rescission agreement launched'],
  voided: ['协议作废', 'voided by agreement'],
  revise: ['上传修订版', 'revised'],
  term_set: ['设置合同期限', 'contract term set'],
  term_remind: ['合同到期提醒', 'contract term reminder'],
};

const MODES: Record<string, [string, string]> = {
  one: ['任一审批人同意', 'one approver'],
  all_in_order: ['全部审批人依次同意', 'every approver, in order'],
  all_any_order: ['全部审批人同意（不分先后）', 'every approver, any order'],
};
const VOID_REASONS: Record<string, [string, string]> = {
  document_changed: ['文件已变更', 'the document changed'],
  flow_ended: ['流程已结束', 'the flow ended'],
  policy_changed: ['用印规则已变更', 'the seal policy changed'],
};

const INTENT_ZH: Record<string, string> = {
  sms: '短信验证码',
  face: '人脸识别',
  password: '签署密码',
  auto: '无（依据授权书自动签署）',
};
const INTENT_EN: Record<string, string> = {
  sms: 'SMS code',
  face: 'face check',
  password: 'signing password',
  auto: 'none (signed automatically under an authorisation letter)',
};

const RULES: Partial<Record<AuditEntry['event'], Rule[]>> = {
  revise: [
    {
      // issue 29: the revision made, the launcher's note, the parties whose signatures were withdrawn
      re: /^revision (\d+)(?: · no footer \((encrypted|damaged)\))?(?: · signatures withdrawn: (.+?))?(?: · note: (.*))?$/s,
      zh: (m) =>
        `修订版 ${m[1]}${m[2] ? ` · 未加验证页脚（${NO_FOOTER[m[2]][0]}）` : ''}${m[3] ? ` · 已撤回签署：${m[3]}` : ''}${m[4] ? ` · 修改说明：${m[4]}` : ''}`,
      en: (m) =>
        `revision ${m[1]}${m[2] ? ` · without the verification footer (${NO_FOOTER[m[2]][1]})` : ''}${m[3] ? ` · signatures withdrawn: ${m[3]}` : ''}${m[4] ? ` · what changed: ${m[4]}` : ''}`,
    },
  ],
  launch: [
    {
      re: /^(.*) · (\d+) parties · verification (\S+)(?: · no footer \((encrypted|damaged)\))?$/s,
      zh: (m) =>
        `${m[1]} · ${m[2]} 个签署方 · 验证码 ${m[3]}${m[4] ? ` · 未加验证页脚（${NO_FOOTER[m[4]][0]}）` : ''}`,
      en: (m) =>
        `${m[1]} · ${m[2]} parties · verification code ${m[3]}${
          m[4] ? ` · launched without the verification footer (${NO_FOOTER[m[4]][1]})` : ''
        }`,
    },
  ],
  view: [
    { re: /^signing room opened$/, zh: () => '打开了签署室', en: () => 'opened the signing room' },
    {
      re: /^signing room opened · embedded \(API key (\S+?)(, identity asserted by the key)?\)$/,
      zh: (m) => `通过嵌入签署地址打开了签署室（API 密钥 ${m[1]}${m[2] ? '，身份由该密钥担保' : ''}）`,
      en: (m) =>
        `opened the signing room from an embedded-signing URL (API key ${m[1]}${m[2] ? ', identity asserted by the key' : ''})`,
    },
  ],
  sms_sent: [
    { re: /^signing code$/, zh: () => '签署验证码', en: () => 'signing code' },
    { re: /^signing password code$/, zh: () => '设置签署密码验证码', en: () => 'signing password code' },
    { re: /^phone proof code$/, zh: () => '手机号确认验证码', en: () => 'phone confirmation code' },
  ],
  sign: [
    {
      // `approval` names the seal-use approvals, `letter` the authorisation letter, `recorded signer` the user an
      // automatic signature is recorded under (the letter's issuer) (issue 27); `batch` the batch whose one intent
      // check confirmed it (issue 28); `filled fields` the labels of the fields the signature wrote (issue 28, an
      // attachment with its file name and SHA-256).
      re: /^certificate (\S+)(?: seals (\S+))?(?: intent (sms|face|password|auto)(?: code sent (\S+))?)?(?: approval (\S+))?(?: letter (\S+))?(?: recorded signer (\S+))?(?: batch (\S+))?(?: · filled fields: (.+))?$/s,
      zh: (m) =>
        `证书序列号 ${m[1]}${m[2] ? ` · 印章 ${m[2]}` : ''}${m[3] ? ` · 意愿认证：${INTENT_ZH[m[3]]}` : ''}${m[4] ? `（验证码发送于 ${m[4]}）` : ''}${m[5] ? ` · 用印审批 ${m[5]}` : ''}${m[6] ? ` · 授权书 ${m[6]}` : ''}${m[7] ? ` · 记录签署人为授权书签发人 ${m[7]}` : ''}${m[8] ? ` · 批量签署 ${m[8]}（一次意愿认证）` : ''}${m[9] ? ` · 填写字段：${m[9]}` : ''}`,
      en: (m) =>
        `certificate serial ${m[1]}${m[2] ? ` · seals ${m[2]}` : ''}${m[3] ? ` · intent check: ${INTENT_EN[m[3]]}` : ''}${m[4] ? ` (code sent ${m[4]})` : ''}${m[5] ? ` · seal approval ${m[5]}` : ''}${m[6] ? ` · authorisation letter ${m[6]}` : ''}${m[7] ? ` · recorded under the letter's issuer ${m[7]}` : ''}${m[8] ? ` · batch ${m[8]} (intent proven once for the batch)` : ''}${m[9] ? ` · filled fields: ${m[9]}` : ''}`,
    },
  ],
  approval_requested: [
    {
      re: /^approval (\S+) · seal (.*) · (\d+) approvers? · (one|all_in_order|all_any_order)$/s,
      zh: (m) => `审批单 ${m[1]} · 印章 ${m[2]} · ${m[3]} 位审批人 · ${MODES[m[4]][0]}`,
      en: (m) =>
        `approval ${m[1]} · seal ${m[2]} · ${countOf(Number(m[3]), 'approver', 'approvers')} · ${MODES[m[4]][1]}`,
    },
  ],
  approval_decided: [
    {
      re: /^approval (\S+) · (approve|reject)(?: · (.*))?$/s,
      zh: (m) => `审批单 ${m[1]} · ${m[2] === 'approve' ? '同意' : '驳回'}${m[3] ? ` · ${m[3]}` : ''}`,
      en: (m) =>
        `approval ${m[1]} · ${m[2] === 'approve' ? 'approved' : 'rejected'}${m[3] ? ` · ${m[3]}` : ''}`,
    },
  ],
  approval_void: [
    {
      re: /^approval (\S+) · (document_changed|flow_ended|policy_changed)$/,
      zh: (m) => `审批单 ${m[1]} 失效 · ${VOID_REASONS[m[2]][0]}`,
      en: (m) => `approval ${m[1]} void · ${VOID_REASONS[m[2]][1]}`,
    },
  ],
  comment: [
    {
      // comments (issue 29): the comment's id, the flow's revision, and its page or the thread it answers
      re: /^comment (\S+) · revision (\d+)(?: · page (\d+))?(?: · reply to (\S+))?$/,
      zh: (m) =>
        `评论 ${m[1]} · 第 ${m[2]} 版${m[3] ? ` · 第 ${m[3]} 页` : ''}${m[4] ? ` · 回复 ${m[4]}` : ''}`,
      en: (m) =>
        `comment ${m[1]} · revision ${m[2]}${m[3] ? ` · page ${m[3]}` : ''}${m[4] ? ` · reply to ${m[4]}` : ''}`,
    },
  ],
  comment_resolve: [
    {
      re: /^thread (\S+) · (resolved|reopened)$/,
      zh: (m) => `评论 ${m[1]} · ${m[2] === 'resolved' ? '已解决' : '重新打开'}`,
      en: (m) => `thread ${m[1]} · ${m[2]}`,
    },
  ],
  // issue 29 (server/modules/flow/reassign.ts)
  reassign: [
    {
      re: /^from (.*) to (.*) · by (party|launcher) · reason: (.*)$/s,
      zh: (m) =>
        `由 ${m[1]} 转交给 ${m[2]} · ${m[3] === 'party' ? '签署方本人' : '发起方'}操作 · 原因：${m[4]}`,
      en: (m) =>
        `from ${m[1]} to ${m[2]} · by the ${m[3] === 'party' ? 'signer' : 'sender'} · reason: ${m[4]}`,
    },
  ],
  deadline_change: [
    {
      re: /^deadline (.*) -> (.*) \(Beijing time\)$/,
      zh: (m) => `截止时间 ${m[1]} → ${m[2]}（北京时间）`,
      en: (m) => `deadline ${m[1]} → ${m[2]} (Beijing time)`,
    },
  ],
  link_copied: [
    {
      re: /^link copied for (.*)$/s,
      zh: (m) => `为 ${m[1]} 复制了签署链接`,
      en: (m) => `signing link copied for ${m[1]}`,
    },
  ],
  rescission_requested: [
    {
      re: /^rescission agreement launched: flow (\S+) · reason: (.*)$/s,
      zh: (m) => `已发起解除协议：流程 ${m[1]} · 原因：${m[2]}`,
      en: (m) => `rescission agreement launched: flow ${m[1]} · reason: ${m[2]}`,
    },
  ],
  voided: [
    {
      re: /^voided by agreement: rescission flow (\S+) \((.*)\) completed$/s,
      zh: (m) => `已协议作废：解除协议流程 ${m[1]}（${m[2]}）已签署完成`,
      en: (m) => `voided by agreement: rescission flow ${m[1]} (${m[2]}) completed`,
    },
  ],
  // Contract term (issue 29, flow/term.ts).
  term_set: [
    { re: /^term removed$/, zh: () => '已取消合同期限', en: () => 'term removed' },
    {
      re: /^term (\S+) to (\S+) · remind (\S*) days before · (\d+) more people$/,
      zh: (m) => `合同期限 ${m[1]} 至 ${m[2]} · 到期前 ${m[3] || '-'} 天提醒 · 另提醒 ${m[4]} 人`,
      en: (m) =>
        `term ${m[1]} to ${m[2]} · reminders (days before the end): ${m[3] || '-'} · more people told: ${m[4]}`,
    },
  ],
  term_remind: [
    {
      re: /^term ends (\S+) · (\d+) days left · (\d+) told$/,
      zh: (m) => `合同将于 ${m[1]} 到期 · 剩余 ${m[2]} 天 · 已提醒 ${m[3]} 人`,
      en: (m) => `term ends ${m[1]} · ${countOf(Number(m[2]), 'day', 'days')} left · people told: ${m[3]}`,
    },
  ],
  complete: [
    {
      re: /^all parties signed; validation data and document time-stamp added \(PAdES B-LTA\)$/,
      zh: () => '全部签署方已签署；已加入验证数据和文档时间戳（PAdES B-LTA）',
      en: () => 'all parties signed; validation data and document time-stamp added (PAdES B-LTA)',
    },
  ],
  repair: [
    {
      re: /^repaired before signing: ?(.*)$/s,
      zh: (m) =>
        `签署前已修复${
          m[1]
            ? `：${m[1]
                .split('; ')
                .map((p) => inChinese(p, REPAIRS))
                .join('；')}`
            : ''
        }`,
      en: (m) => `repaired before signing${m[1] ? `: ${m[1]}` : ''}`,
    },
  ],
  download: [
    {
      re: /^(audit report|signed PDF|original|current version)$/,
      zh: (m) => DOWNLOADS[m[1]][0],
      en: (m) => DOWNLOADS[m[1]][1],
    },
    // An attachment a signer uploaded to a field (issue 28), named by the field's label.
    { re: /^attachment (.+)$/s, zh: (m) => `附件：${m[1]}`, en: (m) => `attachment: ${m[1]}` },
  ],
};

/** The platform's words of an entry's detail in one language; text a person typed stays as it is. */
export function localiseDetail(event: AuditEntry['event'], detail: string | null, lang: Lang): string | null {
  if (detail === null) return null;
  for (const rule of RULES[event] ?? []) {
    const m = rule.re.exec(detail);
    if (m) return lang === 'zh' ? rule.zh(m) : rule.en(m);
  }
  return detail;
}

export const localiseActor = (actor: string, lang: Lang): string =>
  actor === 'platform' ? (lang === 'zh' ? '平台' : 'platform') : actor;

/** An entry as a reader of `lang` sees it. */
export function localiseEntry(e: AuditEntry, lang: Lang): AuditEntry {
  return { ...e, actor: localiseActor(e.actor, lang), detail: localiseDetail(e.event, e.detail, lang) };
}
