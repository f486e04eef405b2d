// The audit report (certificate of completion) of a flow: parties, documents with their hashes and every
// audit event, as a PDF signed by the PLATFORM's own certificate. That certificate is an ordinary
// account certificate (userType 1) of a fixed platform account id, issued on first use by the same CA.
import { UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { REPORT_PAGE, TextReport, framedStampPdf } from '../../pdf/compose/text-report.ts';
import { signerFromPki, type Signer } from '../../pdf/sign/cms.ts';
import { signPdf } from '../../pdf/sign/sign-pdf.ts';
import { flowDocuments } from '../document/index.ts';
import { findFlow, maskPhone, partiesOf } from './model.ts';
import { pkiFor } from '../pki/index.ts';
import { type Exec, dateOf } from '../../db/sql-helpers.ts';
import {
  type AuditEvent,
  EVENT_TEXT,
  listAudit,
  localiseActor,
  localiseDetail,
  verifyChains,
} from '../audit/index.ts';

/** The platform's account id for its own certificate (a fixed UUID: the certificate table keys by uuid). */
const PLATFORM_ACCOUNT_ID = '00000000-0000-4000-8000-00000000e5a1';
const PLATFORM_NAME = '电子签章平台 e-Sign Platform';
// Stands where a credit code would; only its keyed hash reaches the certificate.
const PLATFORM_ID_NUMBER = 'ESIGNPLATFORM0001';

/** The platform's signer, issuing its certificate on first use. */
async function platformSigner(deps: AppDeps): Promise<Signer> {
  const pki = await pkiFor(deps);
  const holder = { userType: UserType.Company, accountId: PLATFORM_ACCOUNT_ID } as const;
  let m = await pki.signer(holder);
  if (!m) {
    await pki.issue({
      ...holder,
      name: PLATFORM_NAME,
      organisation: PLATFORM_NAME,
      idNumber: PLATFORM_ID_NUMBER,
    });
    m = await pki.signer(holder);
  }
  if (!m) throw new Error('platform certificate could not be issued');
  return signerFromPki(m);
}

export { wrap } from '../../pdf/compose/text-report.ts';

const fmt = (d: unknown) => `${dateOf(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** Builds and signs the report. */
export async function buildAuditReport(deps: AppDeps, flowId: string): Promise<Uint8Array> {
  const ex: Exec = deps.db;
  const flow = (await findFlow(ex, flowId))!;
  const parties = await partiesOf(ex, flowId);
  const docs = await flowDocuments(ex, flowId);
  const entries = await listAudit(ex, flowId);
  const chains = verifyChains(entries);

  const report = await TextReport.create({ wrap: 'words' });
  const mono = 'mono';
  const { width: W, margin: M } = REPORT_PAGE;
  const line = (text: string, opts: Parameters<TextReport['line']>[1] = {}) => report.line(text, opts);
  line('签署完成证明 Certificate of Completion', { size: 18 });
  report.gap(6);
  line(`流程 Flow: ${flow.title}`, { size: 11 });
  line(`编号 Flow id: ${flow.id}`);
  line(`发起方 Initiator: ${flow.initiatorCompanyName ?? flow.initiatorName ?? ''}`);
  line(
    `发起时间 Launched: ${fmt(flow.createdAt)}    完成时间 Completed: ${flow.completedAt ? fmt(flow.completedAt) : '-'}`,
  );
  report.gap(6);
  line('文件 Documents', { size: 12 });
  for (const d of docs) {
    line(`${d.name} (${d.pages} pages) · 验证码 verification code ${d.verificationCode}`, { indent: 8 });
    line(`launched SHA-256 ${d.launchedSha256}`, { font: mono, size: 7.5, indent: 16 });
    line(`final    SHA-256 ${d.currentSha256}`, { font: mono, size: 7.5, indent: 16 });
    const c = chains.find((x) => x.documentId === d.id);
    line(`审计链 audit chain: ${c?.isIntact ? '完整 intact' : `断裂 BROKEN at ${c?.brokenAtSeq}`}`, {
      indent: 16,
    });
  }
  report.gap(6);
  line('签署方 Parties', { size: 12 });
  for (const p of parties) {
    const who =
      p.kind === 'company'
        ? `${p.companyName} (${p.signedByName ?? p.name ?? ''})`
        : (p.signedByName ?? p.name ?? '');
    line(
      `步骤 step ${p.stepIndex + 1} · ${who} · ${maskPhone(p.phone)} · ${p.status}${p.signedAt ? ` · ${fmt(p.signedAt)}` : ''}`,
      { indent: 8 },
    );
  }
  report.gap(6);
  line('事件 Events (hash-chained per document)', { size: 12 });
  for (const e of entries) {
    const [zhEvent, enEvent] = EVENT_TEXT[e.event as AuditEvent] ?? [e.event, e.event];
    const actor =
      e.actor === 'platform' ? `${localiseActor(e.actor, 'zh')} ${localiseActor(e.actor, 'en')}` : e.actor;
    line(
      `#${e.seq} ${e.at.replace('T', ' ').slice(0, 19)} UTC · ${zhEvent} ${enEvent} · ${actor}${e.actorCompany ? ` (${e.actorCompany})` : ''} · IP ${e.ip ?? '-'}`,
      { indent: 8 },
    );
    const zh = localiseDetail(e.event as AuditEvent, e.detail, 'zh');
    const en = localiseDetail(e.event as AuditEvent, e.detail, 'en');
    if (zh) line(zh === en ? zh : `${zh} / ${en}`, { size: 7.5, indent: 16 });
    if (e.hashBefore !== e.hashAfter)
      line(`${e.hashBefore ?? '-'} -> ${e.hashAfter ?? '-'}`, { font: mono, size: 6.5, indent: 16 });
    line(`entry ${e.entryHash}`, { font: mono, size: 6.5, indent: 16, color: [0.4, 0.4, 0.4] });
  }
  report.gap(6);
  line(`本证明由 ${PLATFORM_NAME} 以平台证书签名。 Signed by the platform's certificate.`, { size: 8 });
  const unsigned = await report.save();

  // The platform's visible stamp: a framed name on the last page.
  const stampPdf = await framedStampPdf('e-Sign Platform', 'Certificate of Completion', [0.8, 0.1, 0.1]);
  const pki = await pkiFor(deps);
  const pages = report.pageCount;
  return signPdf(unsigned, {
    signer: await platformSigner(deps),
    timestamp: (imprint) => pki.timestamp(imprint),
    appearance: { pdf: stampPdf },
    placement: { pageIndex: pages - 1, rect: [W - M - 170, 20, W - M, 60] },
    name: PLATFORM_NAME,
    reason: 'Certificate of completion',
    signingTime: deps.clock.now(),
  });
}
