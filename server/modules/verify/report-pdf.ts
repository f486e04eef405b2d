// The verification report as a PDF, in both languages on the same page (one file for every reader), drawn
// by the PDF core's text report (server/pdf/compose/text-report.ts) with its CJK face (it covers Latin text too).
import type { PlatformDocument, SignatureCard, VerifyResult } from '#contract/calls/verify.ts';
import { TextReport } from '../../pdf/compose/text-report.ts';

type Pair = [zh: string, en: string];

const STATUS: Record<VerifyResult['status'], Pair> = {
  valid: ['签名有效', 'Signature is valid'],
  invalid: ['签名无效', 'Signature is invalid'],
  modified: ['签名后文件被修改', 'Document modified after signing'],
  revoked: ['证书已吊销', 'Certificate revoked'],
  unknownIdentity: ['签署人身份未知（证书链不受信任）', 'Signer identity unknown (untrusted chain)'],
  indeterminate: ['无法确定有效性', 'Validity unknown'],
  unsigned: ['文件中没有签名', 'No signature in this file'],
};

const REASON: Record<SignatureCard['reasons'][number], Pair> = {
  HASH_MISMATCH: ['签名覆盖的内容已被改动', 'The signed bytes have changed'],
  SIGNATURE_INVALID: ['签名值无法通过验证', 'The signature value does not verify'],
  COVERAGE_BROKEN: ['签名范围（ByteRange）异常', 'The signed byte range is malformed'],
  COVERAGE_PARTIAL: ['文件有部分内容未被签名覆盖', 'Part of the file is not covered by the signature'],
  MODIFIED_DISALLOWED: ['签名后进行了不允许的修改', 'Changes not allowed were made after signing'],
  MODIFIED_ALLOWED: [
    '签名后仅有允许的修改（后续签名、表单、时间戳）',
    'Only allowed changes followed (signatures, form filling, time-stamps)',
  ],
  UNTRUSTED: ['证书链未连接到受信任的根证书', 'The certificate chain does not end at a trusted root'],
  NO_CHAIN: ['无法构建证书链', 'No certificate chain could be built'],
  REVOKED: ['签名证书已被吊销', 'The signing certificate is revoked'],
  REVOCATION_UNKNOWN: ['文件中没有吊销信息', 'No revocation data in the file'],
  CERT_EXPIRED: ['证书在验证时间已过期', 'The certificate had expired at the validation time'],
  CERT_NOT_YET_VALID: ['证书在验证时间尚未生效', 'The certificate was not yet valid at the validation time'],
  TIMESTAMP_INVALID: ['时间戳无法通过验证', 'The time-stamp does not verify'],
  FORMAT_FAILURE: ['签名结构不符合规范', 'The signature structure is malformed'],
  NO_SIGNING_CERTIFICATE: ['找不到签名证书', 'The signing certificate is missing'],
  WEAK_ALGORITHM: ['使用了不安全的算法', 'A weak algorithm is used'],
};

const COVERAGE: Record<SignatureCard['coverage'], Pair> = {
  ENTIRE_FILE: ['整个文件', 'the entire file'],
  ENTIRE_REVISION: ['完整的早期版本（其后有增量更新）', 'an entire earlier revision (later updates follow)'],
  PARTIAL: ['部分文件', 'part of the file'],
  BROKEN: ['异常', 'broken'],
};

const MODIFICATION: Record<SignatureCard['modifiedAfterSigning'], Pair> = {
  none: ['无', 'none'],
  allowed: ['仅允许的修改', 'allowed changes only'],
  disallowed: ['不允许的修改', 'disallowed changes'],
  unknown: ['无法判断（签名内容已被更改）', 'not known (the signed content was changed)'],
};

const KIND: Record<SignatureCard['kind'], Pair> = {
  approval: ['签名', 'Signature'],
  certification: ['认证签名', 'Certification signature'],
  doc_timestamp: ['文档时间戳', 'Document time-stamp'],
};

/** Where a page shows something other than what was signed, by what changed there. */
const REGION: Record<SignatureCard['changedRegions'][number]['what'], Pair> = {
  content: ['签署后显示的内容被改动', 'shows something other than what was signed'],
  covered: ['表单域现在遮盖了签署时的文字', 'a form field now covers text that was signed'],
  annotations: ['批注或表单域在签署后被改动', 'annotations or form fields changed after signing'],
  size: ['页面尺寸或方向在签署后被改变', "the page's size or orientation changed after signing"],
};

const both = ([zh, en]: Pair) => `${zh} ${en}`;

/** One changed region, both languages: `第 1 页：… （区域 x 70–450，y 295–313 点） Page 1: … (region x 70–450, y 295–313 pt)`. */
function regionLine(r: SignatureCard['changedRegions'][number]): string {
  const [x0, y0, x1, y1] = r.rect.map(Math.round);
  const [zh, en] = REGION[r.what];
  return `第 ${r.page} 页：${zh}（区域 x ${x0}–${x1}，y ${y0}–${y1} 点） Page ${r.page}: ${en} (region x ${x0}–${x1}, y ${y0}–${y1} pt)`;
}
/** A filled value as read: a checkbox ticked or not, else the text. */
const filledValue = (f: SignatureCard['filledFields'][number]) =>
  f.checkbox ? (f.value === 'Off' ? '未勾选 not ticked' : '已勾选 ticked') : f.value;
const yesNo = (v: boolean | null) => (v === null ? '— n/a' : v ? '是 yes' : '否 no');
const utc = (iso: string | null) => (iso ? `${iso.replace('T', ' ').slice(0, 19)} UTC` : '—');

/** A PDF of one kept verification; `rootUrl` is where the platform root can be downloaded. */
export async function renderReportPdf(
  result: VerifyResult,
  document: PlatformDocument | null,
  rootUrl: string,
): Promise<Uint8Array> {
  const report = await TextReport.create({
    wrap: 'chars',
    title: '签名验证报告 Signature verification report',
  });
  const mono = 'mono';
  // Wrapped by width rather than cut: reasons and change descriptions must be read whole.
  const line = (text: string, opts: Parameters<TextReport['line']>[1] = {}) => report.line(text, opts);
  const gap = (h = 6) => report.gap(h);
  const colourOf = (s: VerifyResult['status']): [number, number, number] =>
    s === 'valid'
      ? [0.1, 0.5, 0.1]
      : s === 'unknownIdentity' || s === 'indeterminate'
        ? [0.7, 0.45, 0]
        : [0.75, 0.1, 0.1];

  line('签名验证报告 Signature verification report', { size: 18 });
  gap();
  line(`结论 Result: ${both(STATUS[result.status])}`, { size: 13, color: colourOf(result.status) });
  line(`ETSI EN 319 102-1: ${result.verdict}${result.subIndication ? ` / ${result.subIndication}` : ''}`);
  line(
    `不考虑信任时 Trust aside: ${result.trustAside.verdict}${result.trustAside.subIndication ? ` / ${result.trustAside.subIndication}` : ''}`,
  );
  gap();
  line(
    `文件 File: ${result.file.name ?? '—'} (${result.file.size} bytes, ${result.file.pages.length} pages, ${result.revisions} revisions)`,
  );
  line(`SHA-256 ${result.file.sha256}`, { font: mono, size: 8 });
  line(`验证时间 Verified at: ${utc(result.verifiedAt)}`);
  line(`报告编号 Report id: ${result.reportId}`);
  if (document) {
    gap();
    line('平台文件 Platform document', { size: 12 });
    line(`验证码 Verification code: ${document.verificationCode}`, { indent: 8 });
    line(
      `名称 Name: ${document.documentName} · 流程 Flow: ${document.flowTitle} · 状态 Status: ${document.flowStatus}`,
      {
        indent: 8,
      },
    );
    line(`发起 Launched: ${utc(document.launchedAt)} · 完成 Completed: ${utc(document.completedAt)}`, {
      indent: 8,
    });
  }
  // Void by agreement (issue 29): the contract this file belongs to was voided by a rescission agreement.
  const r = result.rescission;
  if (r) {
    gap();
    line(`已协议作废 Voided by agreement: ${utc(r.voidedAt)}`, { size: 12 });
    line(`合同 Contract: ${r.title} · 解除协议 Rescission agreement: ${r.rescissionTitle}`, { indent: 8 });
    line(`解除协议流程 Rescission flow: ${r.rescissionFlowId}`, { indent: 8 });
    for (const sha of r.rescissionSha256) line(`SHA-256 ${sha}`, { font: mono, size: 8, indent: 8 });
  }
  for (const s of result.signatures) {
    gap(10);
    line(`#${s.index} ${both(KIND[s.kind])} · ${s.field}`, { size: 12 });
    line(both(STATUS[s.status]), { indent: 8, size: 11, color: colourOf(s.status) });
    line(
      `签署人 Signer: ${s.signer?.name ?? '—'}${s.signer?.organisation ? ` · 机构 Organisation: ${s.signer.organisation}` : ''}`,
      {
        indent: 8,
      },
    );
    line(`签名时间（声明）Signing time (claimed): ${utc(s.signedAt)}`, { indent: 8 });
    if (s.timestamp)
      line(
        `时间戳 Time-stamp: ${utc(s.timestamp.time)} · ${s.timestamp.authority ?? '—'} · ${s.timestamp.valid ? '有效 valid' : '无效 invalid'}`,
        { indent: 8 },
      );
    line(`签名范围 Coverage: ${both(COVERAGE[s.coverage])}`, { indent: 8 });
    line(`签名后修改 Changes after signing: ${both(MODIFICATION[s.modifiedAfterSigning])}`, { indent: 8 });
    line(
      `完整 Intact: ${yesNo(s.intact)} · 签名值有效 Signature value valid: ${yesNo(s.cryptoValid)} · 受信任 Trusted: ${yesNo(s.trusted)}${s.trustSource ? ` (${s.trustSource === 'platform' ? '平台根证书 platform root' : '配置的信任锚 configured anchor'})` : ''} · 吊销 Revocation: ${s.revocation}`,
      { indent: 8 },
    );
    line(`${s.indication}${s.subIndication ? ` / ${s.subIndication}` : ''}`, {
      indent: 8,
      font: mono,
      size: 8,
    });
    for (const r of s.reasons) line(`• ${both(REASON[r])}`, { indent: 16 });
    for (const r of s.changedRegions) line(`▣ ${regionLine(r)}`, { indent: 16, color: [0.75, 0.1, 0.1] });
    if (s.filledFields.length > 0) {
      line('本签名填写的字段 Fields filled with this signature', { indent: 8 });
      for (const f of s.filledFields) line(`${f.label} = ${filledValue(f)}`, { indent: 16 });
    }
    if (s.chain.length > 0) {
      line('证书链 Certificate chain', { indent: 8 });
      // Root first, each issued certificate one step further in: the tree a viewer shows.
      [...s.chain].reverse().forEach((c, depth) => {
        line(`${'  '.repeat(depth)}└ ${c.subject || '—'}`, { indent: 16 });
        line(
          `${'  '.repeat(depth)}  serial ${c.serial} · ${c.notBefore.slice(0, 10)} – ${c.notAfter.slice(0, 10)}`,
          {
            indent: 16,
            font: mono,
            size: 7,
            color: [0.35, 0.35, 0.35],
          },
        );
      });
    }
    for (const c of s.changes) line(`Δ ${c}`, { indent: 16, size: 8, color: [0.35, 0.35, 0.35] });
    for (const d of s.details) line(`· ${d}`, { indent: 16, size: 8, color: [0.35, 0.35, 0.35] });
  }
  gap(12);
  line(`平台根证书 Platform root certificate: ${rootUrl}`, { size: 8 });
  line(
    '本报告由平台验证服务生成，结论基于验证时的信任设置。 Generated by the platform verification service; the result reflects the trust settings at the time of verification.',
    { size: 8, color: [0.35, 0.35, 0.35] },
  );
  return report.save();
}
