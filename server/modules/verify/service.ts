// Rules of the verification service: who may verify how often, what is trusted, how a file or a platform
// document becomes a kept report.
import { randomUUID } from 'node:crypto';
import { Code } from '#contract/codes.ts';
import { type PlatformDocument, REPORT_TTL_MINUTES, type VerifyResult } from '#contract/calls/verify.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { certFromDer, serialHex } from '../../pdf/verify/cert.ts';
import { VerifyErrorCode } from '../../pdf/verify/errors.ts';
import { dateOf, isoOrNull } from '../../db/sql-helpers.ts';
import { blobBytes, findByVerificationCode } from '../document/index.ts';
import { findFlow, rescissionNoteOf, rescissionNoteOfFile } from '../flow/index.ts';
import { certificateBySerial } from '../pki/index.ts';
import { pkiFor } from '../pki/index.ts';
import { platformRevocation } from './platform-revocation.ts';
import { presentKept, presentVerification } from './present.ts';
import { findReport, insertReport, pruneReports, type ReportRow } from './queries.ts';
import { packReport, unpackReport } from './report-codec.ts';
import { loadTrustAnchors, loadVerifySettings, type VerifySettings } from './settings.ts';
import { V } from './texts.ts';
import { PoolBusyError, VerifyPool } from './worker-pool.ts';

const MINUTE_MS = 60_000;

/** A kept report, its result read back. */
type StoredReport = Omit<ReportRow, 'result'> & { result: VerifyResult };

type VerifyService = {
  settings: VerifySettings;
  pool: VerifyPool;
  /** The platform root first, then the configured anchors (DER). */
  trustAnchors: Uint8Array[];
  platformRootSerial: string;
};

/** Starts the service: settings and trust anchors are checked now, so a bad folder stops the start. */
export function createVerifyService(deps: AppDeps): Promise<VerifyService> {
  // Read now, so that bad settings or trust anchors throw at once (the module's register, so the start).
  const settings = loadVerifySettings(deps.config);
  const extra = loadTrustAnchors(settings.trustAnchorsDir);
  // The platform's root comes with the CA, which a fresh start may still be making while the server listens.
  return pkiFor(deps).then((pki) => verifyServiceWith(deps, settings, extra, pki));
}

function verifyServiceWith(
  deps: AppDeps,
  settings: ReturnType<typeof loadVerifySettings>,
  extra: ReturnType<typeof loadTrustAnchors>,
  pki: Awaited<ReturnType<typeof pkiFor>>,
): VerifyService {
  const root = certFromDer(pki.ca.root.der);
  if (!root) throw new Error('the platform root certificate cannot be read');
  return {
    settings,
    // Certificates of this platform revoked after a document's DSS was written are still seen as revoked.
    pool: new VerifyPool(
      settings.workers,
      platformRevocation(pki.issuingDer, (serial) => certificateBySerial(deps, serial)),
      {
        heapLimitMb: settings.workerHeapMb,
        maxJobsPerWorker: settings.workerMaxJobs,
      },
    ),
    trustAnchors: [pki.ca.root.der, ...extra],
    platformRootSerial: serialHex(root),
  };
}

/**
 * Public verification costs CPU: each client address gets VERIFY_MAX_PER_IP_MINUTE a minute, counted in the
 * database so the limit holds across instances. Checked before a byte of the file is read.
 */
export async function checkRate(deps: AppDeps, svc: VerifyService, ip: string): Promise<void> {
  const count = await hitCounter(deps.db, `verify-ip:${ip}`, MINUTE_MS, deps.clock.now());
  if (count > svc.settings.maxPerIpMinute) throw new AppError(Code.RateLimited, V.tooMany);
}

const maxMb = (svc: VerifyService) => Math.round(svc.settings.maxBytes / (1024 * 1024));

/** The refusal for a file the verifier cannot verify at all, with its own code per cause. */
export function refusalFor(svc: VerifyService, code: string): AppError {
  const map: Record<string, [number, Text]> = {
    [VerifyErrorCode.Empty]: [Code.VerifyEmpty, V.empty],
    [VerifyErrorCode.NotPdf]: [Code.VerifyNotPdf, V.notPdf],
    [VerifyErrorCode.TooLarge]: [Code.VerifyTooLarge, V.tooLarge(maxMb(svc))],
    [VerifyErrorCode.Encrypted]: [Code.VerifyEncrypted, V.encrypted],
    [VerifyErrorCode.Unreadable]: [Code.VerifyUnreadable, V.unreadable],
    [VerifyErrorCode.Timeout]: [Code.VerifyTimeout, V.timeout],
  };
  const [c, text] = map[code] ?? map[VerifyErrorCode.Unreadable];
  return new AppError(c, text);
}

async function verifyBytes(
  deps: AppDeps,
  svc: VerifyService,
  bytes: Uint8Array,
  name: string | null,
  maxBytes: number,
): Promise<Omit<VerifyResult, 'reportId' | 'expiresAt' | 'source'>> {
  let outcome: Awaited<ReturnType<VerifyPool['run']>>;
  try {
    outcome = await svc.pool.run({
      bytes,
      trustAnchors: svc.trustAnchors,
      now: deps.clock.now().toISOString(),
      timeLimitMs: svc.settings.timeLimitMs,
      maxBytes,
    });
  } catch (err) {
    if (err instanceof PoolBusyError) throw new AppError(Code.RateLimited, V.busy);
    throw err;
  }
  if (!outcome.ok) throw refusalFor(svc, outcome.code);
  return presentVerification(
    outcome.report,
    outcome.layout,
    { name, size: bytes.length, sha256: outcome.sha256 },
    { platformSerial: svc.platformRootSerial },
  );
}

async function keep(
  deps: AppDeps,
  svc: VerifyService,
  source: StoredReport['source'],
  result: Omit<VerifyResult, 'reportId' | 'expiresAt' | 'source'>,
  document: PlatformDocument | null,
): Promise<VerifyResult> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + REPORT_TTL_MINUTES * MINUTE_MS);
  const full: VerifyResult = {
    reportId: randomUUID(),
    expiresAt: expiresAt.toISOString(),
    source,
    ...result,
  };
  const packed = await packReport(full);
  await pruneReports(deps.db, now, svc.settings.maxKeptReports);
  await insertReport(deps.db, {
    id: full.reportId,
    source,
    verificationCode: document?.verificationCode ?? null,
    packed,
    document,
    expiresAt,
    createdAt: now,
  });
  return full;
}

/** Verifies an uploaded file and keeps the report (never the file) for REPORT_TTL_MINUTES. */
export async function verifyUpload(
  deps: AppDeps,
  svc: VerifyService,
  file: { bytes: Uint8Array; filename: string },
): Promise<VerifyResult> {
  const name = file.filename.slice(0, 255) || null;
  const result = await verifyBytes(deps, svc, file.bytes, name, svc.settings.maxBytes);
  // The signed PDF of a contract voided by agreement (issue 29) carries its rescission.
  const rescission = await rescissionNoteOfFile(deps, result.file.sha256);
  return keep(deps, svc, 'upload', rescission ? { ...result, rescission } : result, null);
}

const normaliseCode = (code: string) => code.trim().toUpperCase();

/**
 * The current signed version of a platform document, or undefined for an unknown code (or a document that is
 * deleted or was never launched). The document and its flow are read through their modules.
 */
export async function platformDocument(
  deps: AppDeps,
  code: string,
): Promise<{ document: PlatformDocument; bytes: Uint8Array; flowId: string } | undefined> {
  const wanted = normaliseCode(code);
  const doc = await findByVerificationCode(deps.db, wanted);
  if (!doc?.flowId || doc.deletedAt !== null) return undefined;
  const flow = await findFlow(deps.db, doc.flowId);
  if (!flow) return undefined;
  const document: PlatformDocument = {
    verificationCode: doc.verificationCode ?? wanted,
    documentName: doc.name,
    flowTitle: flow.title,
    flowStatus: flow.status,
    launchedAt: dateOf(flow.createdAt).toISOString(),
    completedAt: isoOrNull(flow.completedAt),
  };
  return { document, bytes: await blobBytes(deps, doc.currentKey), flowId: flow.id };
}

/** Verifies the current signed version of the platform document with this code; null when unknown. */
export async function verifyByCode(
  deps: AppDeps,
  svc: VerifyService,
  code: string,
): Promise<{ document: PlatformDocument; result: VerifyResult } | null> {
  const found = await platformDocument(deps, code);
  if (!found) return null;
  const { document, bytes } = found;
  // The platform's own files are not limited by the upload limit: they were accepted when uploaded.
  const presented = await verifyBytes(
    deps,
    svc,
    bytes,
    document.documentName,
    Math.max(svc.settings.maxBytes, bytes.length),
  );
  const rescission = await rescissionNoteOf(deps, found.flowId);
  const result = rescission ? { ...presented, rescission } : presented;
  return { document, result: await keep(deps, svc, 'platform', result, document) };
}

export async function keptReport(deps: AppDeps, id: string): Promise<StoredReport | undefined> {
  const row = await findReport(deps.db, id, deps.clock.now());
  if (!row) return undefined;
  const result = 'packed' in row.result ? await unpackReport(row.result.packed) : row.result.json;
  return { ...row, result: presentKept(result) };
}
