// The authorisation letter as a PDF (issue 27): who grants whom, which seals (their images), for what, from
// when to when, the count limit, the number and how to verify it; signed by the COMPANY with its own
// certificate and its official seal's appearance (the first granted seal when it has no official seal),
// time-stamped like every signature of the product.
import { beijingMinute } from '../../lib/beijing-time.ts';
import type { AppDeps } from '../../deps.ts';
import { REPORT_PAGE, TextReport } from '../../pdf/compose/text-report.ts';
import type { Signer } from '../../pdf/sign/cms.ts';
import { signPdf } from '../../pdf/sign/sign-pdf.ts';
import { pkiFor } from '../pki/index.ts';
import { KIND_TITLE } from './texts.ts';

export type LetterContent = {
  number: string;
  kind: keyof typeof KIND_TITLE;
  company: { name: string; creditCode: string; legalRepName: string };
  /** The grantee as the letter names it. */
  grantee: string;
  seals: { name: string; pdf: Uint8Array }[];
  purpose: string;
  templates: string[];
  apiKeys: string[];
  validFrom: Date;
  validTo: Date;
  maxUses: number | null;
  issuer: { name: string; phoneMasked: string; codeSentAt: Date; asLegalRep: boolean };
  issuedAt: Date;
};

/** The statement of each kind, in both languages. */
function statement(c: LetterContent): string[] {
  const seals = c.seals.map((s) => s.name).join('、');
  switch (c.kind) {
    case 'member':
      return [
        `兹授权 ${c.grantee} 在有效期内代表本企业使用上述印章（${seals}）签署电子合同。`,
        `${c.company.name} authorises ${c.grantee} to use the seals above on its behalf in electronic contracts during the period below.`,
      ];
    case 'auto_sign':
      return [
        `本企业授权电子签章平台在有效期及次数上限内，对下列模板或 API 密钥发起的合同，以本企业证书和上述印章（${seals}）自动签署，无需人员操作。`,
        `${c.company.name} authorises the e-Sign platform to seal contracts launched from the templates or API keys below automatically, with the company's own certificate and the seal above, within the period and count limit, with no person signing.`,
      ];
    case 'company':
      return [
        `兹授权 ${c.grantee} 在有效期内经其接受后使用本企业上述印章（${seals}）。`,
        `${c.company.name} authorises ${c.grantee} to use the seals above during the period below, once it accepts.`,
      ];
  }
}

/** Builds the letter and signs it with the company's signer, its seal appearance on the last page. */
export async function buildLetterPdf(
  deps: AppDeps,
  c: LetterContent,
  sign: { signer: Signer; appearance: Uint8Array },
): Promise<Uint8Array> {
  const report = await TextReport.create({ wrap: 'words', title: `${c.number} ${KIND_TITLE[c.kind]}` });
  const line = (text: string, opts: Parameters<TextReport['line']>[1] = {}) => report.line(text, opts);
  line(KIND_TITLE[c.kind], { size: 16 });
  line(`编号 No. ${c.number}`, { size: 11 });
  report.gap(8);
  line(`授权方 Grantor: ${c.company.name}`, { size: 11 });
  line(`统一社会信用代码 Unified social credit code: ${c.company.creditCode}`, { indent: 8 });
  line(`法定代表人 Legal representative: ${c.company.legalRepName}`, { indent: 8 });
  line(`被授权方 Grantee: ${c.grantee}`, { size: 11 });
  report.gap(6);
  for (const s of statement(c)) line(s, { size: 10 });
  report.gap(6);
  line('授权印章 Seals', { size: 11 });
  await report.pdfRow(
    c.seals.map((s) => ({ pdf: s.pdf, caption: s.name })),
    90,
  );
  if (c.purpose) line(`用途 Purpose: ${c.purpose}`, { size: 10 });
  if (c.kind === 'auto_sign') {
    line(`适用模板 Templates: ${c.templates.length ? c.templates.join('；') : '无 none'}`, { size: 10 });
    line(`适用 API 密钥 API keys: ${c.apiKeys.length ? c.apiKeys.join('；') : '无 none'}`, { size: 10 });
  }
  line(
    `有效期 Period: ${beijingMinute(c.validFrom)} 至 to ${beijingMinute(c.validTo)} (北京时间 Beijing time)`,
    { size: 10 },
  );
  line(`次数上限 Count limit: ${c.maxUses === null ? '不限 unlimited' : `${c.maxUses} 次 uses`}`, {
    size: 10,
  });
  report.gap(6);
  line(
    `签发 Issued ${beijingMinute(c.issuedAt)} · 签发人 by ${c.issuer.name} (${c.issuer.phoneMasked}${c.issuer.asLegalRep ? ', 法定代表人 legal representative' : ', 管理员 administrator'}) · 意愿认证 intent: 短信验证码 SMS code sent ${beijingMinute(c.issuer.codeSentAt)}`,
    { size: 8 },
  );
  line(
    '本授权书可随时撤销；撤销、到期或次数用尽后不再有效，已签署的合同不受影响。 The company may revoke this letter at any time; once revoked, expired or used up it no longer authorises anything, contracts signed before are unaffected.',
    { size: 8 },
  );
  line(
    `核验 Verify: 本授权书由授权方企业证书签名，可用任何 PDF 签名验证工具核验；平台按编号 ${c.number} 保存其状态。 Signed with the grantor's certificate: any PDF signature validator checks it; the platform keeps its state under number ${c.number}.`,
    { size: 8, color: [0.35, 0.35, 0.35] },
  );
  report.gap(4);
  line('授权方（盖章）Grantor (seal):', { size: 10 });
  const { width: W, margin: M } = REPORT_PAGE;
  const spot = report.box(120);
  const [, y1, , y2] = spot.rect;
  const unsigned = await report.save();
  const pki = await pkiFor(deps);
  return signPdf(unsigned, {
    signer: sign.signer,
    timestamp: (imprint) => pki.timestamp(imprint),
    appearance: { pdf: sign.appearance },
    placement: { pageIndex: spot.pageIndex, rect: [W - M - 130, y1, W - M - 10, y2] },
    name: c.company.name,
    reason: `授权书 Authorisation letter ${c.number}`,
    location: 'e-Sign platform',
    signingTime: deps.clock.now(),
  });
}
