import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { addDocumentTimestamp, addValidationData } from '../../pdf/sign/ltv.ts';
import { ocspRequestFor } from '../../pki/ocsp.ts';
import { appendAudit } from '../audit/index.ts';
import { blobBytes, findDocument, flowDocuments } from '../document/index.ts';
import { certificateBySerial } from '../pki/index.ts';
import { pkiFor } from '../pki/index.ts';
import { findUserById } from '../session/index.ts';
import { buildAuditReport } from './audit-report.ts';
import { accountOfFlow, findFlow, notifyEnd, partiesOf } from './model.ts';
import { consumeUnit } from '../package/index.ts';
import * as q from './queries.ts';
import { type EventsAfterCommit, nothingAfterCommit, storeFlowEvent } from './events.ts';
import type { FlowRuntime, ReportBuilds } from './runtime.ts';
import { moveVersion } from './versions.ts';
import { voidRescinded } from './rescission.ts';
import { F } from './texts.ts';

const MAX_ATTEMPTS = 12;

/** Certificates, OCSP responses and CRLs that let the signatures be validated later without this server. */
async function validationData(deps: AppDeps, flowId: string) {
  const pki = await pkiFor(deps);
  const serials = await q.certSerialsOf(deps.db, flowId);
  const certs: Uint8Array[] = [pki.ca.issuing.der, pki.ca.root.der, pki.ca.tsa.der, pki.ca.ocsp.der];
  const ocspResponses: Uint8Array[] = [];
  for (const serial of serials) {
    const rec = await certificateBySerial(deps, serial);
    if (!rec) continue;
    const der = new Uint8Array(Buffer.from(rec.pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    certs.push(der);
    ocspResponses.push(await pki.respondOcsp(await ocspRequestFor(der, pki.ca.issuing.der)));
  }
  return { certs, ocspResponses, crls: [await pki.crl(), pki.rootCrl] };
}

/**
 * Completes a flow whose parties have all signed: on each document the DSS (certificates, OCSP responses,
 * CRLs) and a document time-stamp (B-LTA), each a version of its own; then, once, status completed, the
 * quota unit used, audit entries, notices, and the audit report. Safe to call again after a crash: every
 * step checks what is already done.
 */
export async function completeFlow(
  deps: AppDeps,
  flowId: string,
  /**
   * The app's report builds under way: given, the report is built in the background by the job
   * `flow.auditReport` (any instance, once); else right here.
   */
  reportBuilds?: ReportBuilds,
): Promise<string> {
  const flow = await findFlow(deps.db, flowId);
  if (!flow) throw new Error('flow vanished');
  if (flow.status !== 'signing') return flow.status;
  const parties = await partiesOf(deps.db, flowId);
  if (!parties.every((p) => p.status === 'signed')) return flow.status;
  const pki = await pkiFor(deps);
  let data: Awaited<ReturnType<typeof validationData>> | undefined;
  for (const d0 of await flowDocuments(deps.db, flowId)) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const d = (await findDocument(deps.db, d0.id))!;
      if (d.isLtvDone) break;
      data ??= await validationData(deps, flowId);
      const withDss = addValidationData(await blobBytes(deps, d.currentKey), data);
      const bytes = await addDocumentTimestamp(withDss, (imprint) => pki.timestamp(imprint));
      const key = await deps.storage.put(bytes);
      const sha = key;
      const ok = await moveVersion(
        deps,
        d,
        { key, sha, size: bytes.length, reason: 'ltv', partyId: null },
        async () => true,
      );
      if (ok) break;
    }
  }
  const now = deps.clock.now();
  let afterCommit: EventsAfterCommit = nothingAfterCommit;
  const won = await deps.db.transaction(async (tx) => {
    const f = await q.markCompleted(tx, flowId, now);
    if (!f) return false;
    await consumeUnit(tx, accountOfFlow(f), flowId, now);
    for (const d of await flowDocuments(tx, flowId))
      await appendAudit(tx, {
        actor: 'platform',
        flowId,
        documentId: d.id,
        event: 'complete',
        detail: 'all parties signed; validation data and document time-stamp added (PAdES B-LTA)',
        at: now,
        hashBefore: d.launchedSha256,
        hashAfter: d.currentSha256,
      });
    // Stored with the completion (an outbox); the deliveries are queued after the commit.
    const completed = await storeFlowEvent(deps, tx, 'flow.completed', f);
    // A rescission agreement (issue 29) voids the contract it rescinds in this same transaction.
    const voided = await voidRescinded(deps, tx, f, now);
    afterCommit = async () => {
      await completed();
      await voided();
    };
    return true;
  });
  if (won) {
    const f = (await findFlow(deps.db, flowId))!;
    const initiator = await findUserById(deps.db, f.initiatorUserId);
    await notifyEnd(deps, f, 'completed', initiator?.phone ?? null);
    await afterCommit();
    // The report (about a second of work) is not the last signer's business: it is built after the commit
    // by a job (`flow.auditReport`: one waiting job per flow, run by one instance, retried after a failure
    // or a crash). The flow is complete and consistent without it; a download finds it, waits for the
    // build under way in its instance, or builds it then; a job that could not be queued here is queued
    // by the minute's sweep (completed flows without a report).
    if (reportBuilds)
      await queueReportBuild(deps, flowId).catch((err: unknown) =>
        deps.log.warn({ err, flowId }, 'audit report job not queued; the sweep will queue it'),
      );
    else await ensureAuditReport(deps, flowId);
  }
  return (await findFlow(deps.db, flowId))!.status;
}

async function buildAndStoreReport(deps: AppDeps, flowId: string): Promise<Uint8Array> {
  const bytes = await buildAuditReport(deps, flowId);
  const key = await deps.storage.put(bytes);
  if (await q.storeReportKey(deps.db, flowId, key)) return bytes;
  // Another process stored its report first: serve that one, so every download gets the same file.
  const again = (await findFlow(deps.db, flowId))!;
  return blobBytes(deps, again.reportKey!);
}

/** The audit report of a completed flow: made once (platform-signed PDF), stored as a blob. */
export async function ensureAuditReport(
  deps: AppDeps,
  flowId: string,
  /** Builds under way in this app (a download during the background build waits for it, no second copy). */
  builds: ReportBuilds = new Map(),
): Promise<Uint8Array> {
  const flow = await findFlow(deps.db, flowId);
  if (flow?.status !== 'completed') throw new AppError(Code.Refused, F.notCompleted);
  if (flow.reportKey) return blobBytes(deps, flow.reportKey);
  const running = builds.get(flowId);
  if (running) return running;
  const build = buildAndStoreReport(deps, flowId).finally(() => builds.delete(flowId));
  builds.set(flowId, build);
  return build;
}

/** The job that builds a completed flow's audit report (data: `{ flowId }`). */
export const REPORT_JOB = 'flow.auditReport';

/** Queues the report build of a completed flow: at most one waiting job per flow. */
async function queueReportBuild(deps: AppDeps, flowId: string): Promise<void> {
  await deps.jobs.send(REPORT_JOB, { flowId }, { singletonKey: flowId });
}

/**
 * The job's work: the report of a completed flow that has none yet (a download or an earlier attempt may
 * have stored it meanwhile: then nothing). A build under way in this instance is waited for, not repeated.
 */
export async function buildMissingReport(deps: AppDeps, flowId: string, builds: ReportBuilds): Promise<void> {
  const flow = await findFlow(deps.db, flowId);
  if (flow?.status !== 'completed' || flow.reportKey) return;
  await ensureAuditReport(deps, flowId, builds);
}

/** Queues the report job of completed flows still without a report (a send lost with its instance). */
export async function queueMissingReports(deps: AppDeps): Promise<void> {
  for (const id of await q.reportlessFlowIds(deps.db)) await queueReportBuild(deps, id);
}

/** Waits for background report builds (before the database closes). */
export async function settleBackgroundWork(rt: FlowRuntime): Promise<void> {
  await Promise.allSettled([...rt.reportBuilds.values()]);
}

/** Completes flows left with every party signed (a crash between the last signature and completion). */
export async function completeStragglers(deps: AppDeps, rt?: FlowRuntime): Promise<void> {
  for (const id of await q.straggleFlowIds(deps.db)) await completeFlow(deps, id, rt?.reportBuilds);
}
