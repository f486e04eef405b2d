// A party's signature and the completion of a flow. Crash safety: every new version is first written as
// a blob; only then does ONE transaction move the document's version pointer (a conditional UPDATE on the
// version read), record the party's signature and append the audit entry. A process killed in between
// leaves an unreferenced blob and the previous version intact. Two parties of a parallel step never lose
// a signature: the loser of the version check reads the new version and signs again on top of it.
import { sql } from 'drizzle-orm';
import * as pkijs from 'pkijs';
import { SIGNATURE_PNG_MAX_BYTES } from '#contract/calls/document.ts';
import { Code } from '#contract/codes.ts';
import { SealType, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { signerFromPki, type Signer } from '../../pdf/sign/cms.ts';
import { addDocumentTimestamp, addValidationData } from '../../pdf/sign/ltv.ts';
import { type Appearance, appearanceFromPdf } from '../../pdf/sign/appearance.ts';
import { prepareForSigning } from '../../pdf/sign/repair.ts';
import { type AppearanceInput, signPdf } from '../../pdf/sign/sign-pdf.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import { appendAudit } from '../audit/index.ts';
import { buildAuditReport } from '../audit/index.ts';
import { listActiveMembers } from '../company/index.ts';
import { type AppearancePart, compositeAppearance } from '../document/index.ts';
import { type DocumentRow, blobBytes, findDocument } from '../document/index.ts';
import { DbCertRepository } from '../pki/index.ts';
import { pkiFor } from '../pki/index.ts';
import { sealForSigning } from '../seal/index.ts';
import { findUserById } from '../session/index.ts';
import { confirmIntent } from './intent.ts';
import {
  type FlowRow,
  type PartyRow,
  accountOfFlow,
  appliesOf,
  findFlow,
  findParty,
  notifyEnd,
  notifySigned,
  partiesOf,
  positionsOf,
  sendLink,
} from './model.ts';
import { consumeUnit } from './quota.ts';
import { type Room, roomActor, roomState, signRefusal } from './room.ts';
import { flowDocuments } from './service.ts';
import { type Exec, dateOf, one, rows, ts } from './sql.ts';
import { F } from './texts.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';
const MAX_ATTEMPTS = 12;

/**
 * Test hooks: a failure injected after the blob is written and before the version pointer moves; a pause
 * (or a crash) after the transaction that stored a flow's last signature and before its completion.
 */
export type SigningFaults = {
  afterBlobWrite?: (documentId: string) => Promise<void> | void;
  afterLastSignature?: (flowId: string) => Promise<void> | void;
};
const faults = new WeakMap<AppDeps, SigningFaults>();
export function setSigningFaults(deps: AppDeps, f: SigningFaults | undefined): void {
  if (f) faults.set(deps, f);
  else faults.delete(deps);
}

export type SignInput = {
  smsCode?: string;
  signingPassword?: string;
  companySealId?: string;
  legalPersonSealId?: string;
  personSealId?: string;
  signaturePng?: string;
};

type Ctx = { ip?: string; userAgent?: string | null };

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function decodeSignaturePng(b64: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(b64.replace(/^data:image\/png;base64,/, ''), 'base64'));
  if (
    bytes.length < 32 ||
    bytes.length > SIGNATURE_PNG_MAX_BYTES ||
    !PNG_MAGIC.every((v, i) => bytes[i] === v)
  )
    throw new AppError(Code.Refused, F.badSignaturePng);
  return bytes;
}

/** PNG width and height from its IHDR chunk. */
const pngSize = (png: Uint8Array) => {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { w: v.getUint32(16), h: v.getUint32(20) };
};

/** A seal the caller may use, as sealForSigning decides; its refusals become this module's clear code. */
async function usableSeal(
  deps: AppDeps,
  holder: { userType: 0; userId: string } | { userType: 1; companyId: string; userId: string },
  sealId: string,
  expectType: number | null,
) {
  let seal: Awaited<ReturnType<typeof sealForSigning>>;
  try {
    seal = await sealForSigning(deps, { holder, sealId });
  } catch (err) {
    if (err instanceof AppError && err.code !== Code.Internal)
      throw new AppError(Code.SealNotUsable, F.sealNotUsable);
    throw err;
  }
  if (expectType !== null) {
    const row = await one<{ seal_type: number | null }>(
      deps.db,
      sql`SELECT seal_type FROM seals WHERE id = ${sealId}`,
    );
    if (row?.seal_type !== expectType) throw new AppError(Code.SealNotUsable, F.sealWrongType);
  }
  return seal;
}

// Parsed seal appearances by the SHA-256 of the seal PDF: a seal is parsed once, embedded many times.
const appearanceCache = new Map<string, Appearance>();
function sealAppearance(pdf: Uint8Array): Appearance {
  const key = blobKeyOf(pdf);
  let a = appearanceCache.get(key);
  if (!a) {
    a = appearanceFromPdf(pdf);
    if (appearanceCache.size >= 500) appearanceCache.delete(appearanceCache.keys().next().value as string);
    appearanceCache.set(key, a);
  }
  return a;
}

type Material = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof pkiFor>>['signer']>>>;
const materialCache = new WeakMap<AppDeps, Map<string, Material>>();

/**
 * The holder's signing material: the current certificate is looked up every time (a revoked or expired
 * certificate is never used), its decrypted key is kept in memory per certificate serial, so a busy account
 * does not pay the key unwrapping on every signature.
 */
async function signingMaterial(deps: AppDeps, holder: { userType: 0 | 1; accountId: string }) {
  const pki = await pkiFor(deps);
  let cache = materialCache.get(deps);
  if (!cache) {
    cache = new Map();
    materialCache.set(deps, cache);
  }
  const key = `${holder.userType}:${holder.accountId}`;
  const hit = cache.get(key);
  if (hit) {
    const current = await pki.current(holder);
    if (!current) return undefined;
    if (hit.certificate.serial === current.serial) return hit;
  }
  // A miss needs no separate look-up of the current certificate: signer() finds it itself.
  const m = await pki.signer(holder);
  if (!m) return undefined;
  if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
  cache.set(key, m);
  return m;
}

const dateText = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(d);

/** The party's signer (its own certificate) and the appearance it applies, after every permission check. */
async function prepareSignature(
  deps: AppDeps,
  room: Room,
  party: PartyRow,
  input: SignInput,
): Promise<{
  signer: Signer;
  certSerial: string;
  signerUserId: string;
  user: NonNullable<Awaited<ReturnType<typeof findUserById>>>;
  signerName: string;
  appearance: AppearanceInput;
  crossPage: AppearanceInput | null;
  sealIds: string[];
}> {
  if (!room.userId) throw new AppError(Code.SignerNoCertificate, F.noAccount);
  const user = await findUserById(deps.db, room.userId);
  if (!user) throw new AppError(Code.SignerNoCertificate, F.noAccount);
  const applies = appliesOf(party);
  const parts: AppearancePart[] = [];
  const sealIds: string[] = [];
  let crossPage: AppearanceInput | null = null;
  let material: Material | undefined;
  if (party.kind === 'company') {
    // A company not opened yet (its handler opens it from the room) has neither certificate nor seals.
    if (!party.company_id) throw new AppError(Code.SignerNoCertificate, F.noCompanyCertificate);
    const companyId = party.company_id;
    // Authorisation: only an active member of the party's company signs for it; which seals they may use is
    // sealForSigning's decision (administrator: any enabled seal; operator: seals authorised to them now).
    const member = (await listActiveMembers(deps, companyId)).find((m) => m.userId === room.userId);
    if (!member) throw new AppError(Code.Refused, F.notCompanyMember, { status: 602 });
    material = await signingMaterial(deps, { userType: UserType.Company, accountId: companyId });
    if (!material) throw new AppError(Code.SignerNoCertificate, F.noCompanyCertificate);
    const holder = { userType: 1 as const, companyId, userId: room.userId };
    if (applies.companySealType) {
      if (!input.companySealId) throw new AppError(Code.Refused, F.needCompanySeal);
      const s = await usableSeal(deps, holder, input.companySealId, applies.companySealType);
      parts.push({ pdf: s.pdf });
      sealIds.push(s.sealId);
      crossPage = { pdf: s.pdf };
    }
    if (applies.legalPersonSeal) {
      if (!input.legalPersonSealId) throw new AppError(Code.Refused, F.needLegalPersonSeal);
      const s = await usableSeal(deps, holder, input.legalPersonSealId, SealType.LegalPerson);
      parts.push({ pdf: s.pdf });
      sealIds.push(s.sealId);
      crossPage ??= { pdf: s.pdf };
    }
  } else {
    material = await signingMaterial(deps, { userType: UserType.Person, accountId: room.userId });
    if (!material) throw new AppError(Code.SignerNoCertificate, F.noPersonCertificate);
  }
  if (applies.personSignature) {
    if (input.personSealId) {
      const s = await usableSeal(deps, { userType: 0, userId: room.userId }, input.personSealId, null);
      parts.push({ pdf: s.pdf });
      sealIds.push(s.sealId);
      crossPage ??= { pdf: s.pdf };
    } else if (input.signaturePng) {
      const png = decodeSignaturePng(input.signaturePng);
      const { w, h } = pngSize(png);
      const widthMm = 40;
      const heightMm = Math.min(20, (widthMm * h) / Math.max(1, w));
      parts.push({ png, widthMm, heightMm });
      crossPage ??= { png, width: widthMm * PT_PER_MM, height: heightMm * PT_PER_MM };
    } else throw new AppError(Code.Refused, F.needPersonSignature);
  }
  const now = deps.clock.now();
  let appearance: AppearanceInput;
  const only = parts[0];
  if (parts.length === 1 && !applies.date) {
    // The common case needs no composing: the seal's own one-page PDF is the appearance.
    appearance =
      'pdf' in only
        ? sealAppearance(only.pdf)
        : { png: only.png, width: only.widthMm * PT_PER_MM, height: only.heightMm * PT_PER_MM };
  } else appearance = { pdf: await compositeAppearance(parts, applies.date ? dateText(now) : null) };
  return {
    signer: signerFromPki(material),
    certSerial: material.certificate.serial,
    signerUserId: user.id,
    user,
    signerName: party.kind === 'company' ? (party.company_name ?? '') : (user.name ?? party.name ?? ''),
    appearance,
    crossPage: applies.crossPageSeal ? crossPage : null,
    sealIds,
  };
}

/** Moves a document from `from` to a new blob in one transaction; false when another writer moved it first. */
async function moveVersion(
  deps: AppDeps,
  from: DocumentRow,
  next: { key: string; sha: string; size: number; reason: 'sign' | 'ltv'; partyId: string | null },
  extra: (tx: Exec) => Promise<boolean>,
  /** Runs first in the transaction (a signature locks and checks the flow row before the document's). */
  first?: (tx: Exec) => Promise<void>,
): Promise<boolean> {
  const now = deps.clock.now();
  class Lost extends Error {}
  try {
    await deps.db.transaction(async (tx) => {
      await first?.(tx);
      // One statement: the conditional pointer move (which also locks the document row for the audit
      // append) and, only when it moved, the version row.
      const moved = await rows(
        tx,
        sql`WITH moved AS (
              UPDATE documents SET current_key = ${next.key}, current_sha256 = ${next.sha}, current_size = ${next.size},
                version = version + 1,
                signature_count = signature_count + ${next.reason === 'sign' ? 1 : 0},
                is_ltv_done = is_ltv_done OR ${next.reason === 'ltv'}
              WHERE id = ${from.id} AND version = ${from.version} RETURNING id, version)
            INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, party_id, created_at)
            SELECT id, version, ${next.key}, ${next.sha}, ${next.size}, ${next.reason}, ${next.partyId}, ${ts(now)}
            FROM moved RETURNING document_id`,
      );
      if (moved.length !== 1) throw new Lost();
      if (!(await extra(tx))) throw new Lost();
    });
    return true;
  } catch (err) {
    if (err instanceof Lost) return false;
    throw err;
  }
}

/**
 * The room's flow and party, fresh. Like roomState, but the deadline is checked on the row read anyway:
 * only a flow actually past its deadline pays for expiring it and reading it again.
 */
async function signingState(deps: AppDeps, room: Room): Promise<{ flow: FlowRow; party: PartyRow }> {
  const [flow, party] = await Promise.all([findFlow(deps.db, room.flowId), findParty(deps.db, room.partyId)]);
  if (flow && party && !(flow.status === 'signing' && dateOf(flow.deadline) <= deps.clock.now()))
    return { flow, party };
  return roomState(deps, room);
}

/**
 * Signs every document of the room's party (one incremental update per document), then moves the flow on:
 * the next step's parties get their links, or after the last party the flow is completed.
 */
export async function signAsParty(deps: AppDeps, room: Room, input: SignInput, ctx: Ctx) {
  const { flow, party } = await signingState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  // Certificate and seals are checked before the code is used, so a refusal there does not burn the code.
  const prepared = await prepareSignature(deps, room, party, input);
  const intent = await confirmIntent(deps, room, party, prepared.signerUserId, input, ctx.ip ?? '');
  const pki = await pkiFor(deps);
  const timestamp = (imprint: Uint8Array) => pki.timestamp(imprint);
  const actor = await roomActor(deps, room, party, ctx, prepared.user);
  const signed: { documentId: string; sha256: string; signatureCount: number }[] = [];
  const positions = positionsOf(party);
  const documentCount = new Set(positions.map((p) => p.documentId)).size;
  const signedByName = prepared.user.name ?? actor.actor;
  // The flow row is locked first and must still be open: a signature never lands in a cancelled, declined
  // or expired flow, and the transaction that stores the party's last document also marks the party
  // signed and moves the flow on (advanceIn), so "every party signed" and the last signature are one fact.
  const lockOpenFlow = async (tx: Exec) => {
    const f = await one<FlowRow>(tx, sql`SELECT * FROM flows WHERE id = ${flow.id} FOR UPDATE`);
    if (!f) throw new Error('flow vanished');
    if (f.status !== 'signing' || f.current_step >= f.step_count)
      throw new AppError(Code.FlowClosed, F.flowClosed(f.status));
    if (dateOf(f.deadline).getTime() <= deps.clock.now().getTime())
      throw new AppError(Code.DeadlinePassed, F.deadlinePassed);
  };
  let outcome: Advance | undefined;
  for (const pos of positions) {
    let done = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !done; attempt++) {
      const doc = await one<DocumentRow & { already: boolean }>(
        deps.db,
        sql`SELECT d.*, EXISTS (SELECT 1 FROM party_signatures s WHERE s.party_id = ${party.id} AND s.document_id = d.id)
              AS already
            FROM documents d WHERE d.id = ${pos.documentId} AND d.deleted_at IS NULL`,
      );
      if (!doc) throw new Error(`document ${pos.documentId} of flow ${flow.id} is missing`);
      if (doc.already) {
        signed.push({ documentId: doc.id, sha256: doc.current_sha256, signatureCount: doc.signature_count });
        done = true;
        break;
      }
      // A file with damaged cross-reference data is repaired once, before its first signature (a signed
      // file never is): the repaired bytes are kept as a blob, the repair goes into the audit trail, and
      // the signature is appended to them.
      const ready = prepareForSigning(await blobBytes(deps, doc.current_key));
      const repairedKey = ready.repaired ? await deps.storage.put(ready.bytes) : undefined;
      const bytes = await signPdf(ready.bytes, {
        signer: prepared.signer,
        timestamp,
        placement: { pageIndex: pos.page - 1, rect: pos.rect },
        appearance: prepared.appearance,
        signingTime: deps.clock.now(),
        name: prepared.signerName,
        reason: `${flow.title}`,
        location: 'e-Sign platform',
        crossPageSeal: prepared.crossPage ? { appearance: prepared.crossPage } : undefined,
      });
      // Blobs are content-addressed: the key is the SHA-256 of the bytes, no second hash needed.
      const key = await deps.storage.put(bytes);
      await faults.get(deps)?.afterBlobWrite?.(doc.id);
      const sha = key;
      const at = deps.clock.now();
      const ok = await moveVersion(
        deps,
        doc,
        { key, sha, size: bytes.length, reason: 'sign', partyId: party.id },
        async (tx) => {
          const inserted = await rows(
            tx,
            sql`INSERT INTO party_signatures (party_id, document_id, version, sha256, signer_user_id, cert_serial, seal_ids, signed_at)
              VALUES (${party.id}, ${doc.id}, ${doc.version + 1}, ${sha}, ${prepared.signerUserId}, ${prepared.certSerial},
                ${JSON.stringify(prepared.sealIds)}::jsonb, ${ts(at)})
              ON CONFLICT DO NOTHING RETURNING party_id`,
          );
          if (inserted.length !== 1) return false;
          const mine = await one<{ n: number }>(
            tx,
            sql`SELECT count(*)::int AS n FROM party_signatures WHERE party_id = ${party.id}`,
          );
          if (repairedKey)
            await appendAudit(tx, {
              ...actor,
              isDocumentLocked: true,
              flowId: flow.id,
              documentId: doc.id,
              event: 'repair',
              detail: `repaired before signing: ${ready.problem ?? ''}`.slice(0, 300),
              at,
              hashBefore: doc.current_sha256,
              hashAfter: repairedKey,
            });
          await appendAudit(tx, {
            ...actor,
            isDocumentLocked: true,
            flowId: flow.id,
            documentId: doc.id,
            event: 'sign',
            detail: `certificate ${prepared.certSerial}${prepared.sealIds.length ? ` seals ${prepared.sealIds.join(',')}` : ''} intent ${intent}`,
            at,
            hashBefore: repairedKey ?? doc.current_sha256,
            hashAfter: sha,
          });
          if ((mine?.n ?? 0) >= documentCount)
            outcome = await advanceIn(tx, flow.id, party.id, prepared.signerUserId, signedByName, at);
          return true;
        },
        lockOpenFlow,
      );
      if (ok) {
        signed.push({ documentId: doc.id, sha256: sha, signatureCount: doc.signature_count + 1 });
        done = true;
      }
    }
    if (!done) throw new AppError(Code.SigningBusy, F.signingBusy);
  }
  // Every document was signed before (a signature stored by an earlier version of this code, which moved
  // the flow on in a transaction of its own): move it on now.
  outcome ??= await deps.db.transaction((tx) =>
    advanceIn(tx, flow.id, party.id, prepared.signerUserId, signedByName, deps.clock.now()),
  );
  if (outcome.isLast) await faults.get(deps)?.afterLastSignature?.(flow.id);
  // The links name the flow by id and title, which never change: the row read at the start serves.
  for (const p of outcome.next) await sendLink(deps, flow, p, 'sign_request');
  if (!outcome.isLast)
    await notifySigned(deps, flow, prepared.user.name ?? actor.actor, prepared.signerUserId);
  let flowStatus = outcome.status;
  if (outcome.isLast) flowStatus = await completeFlow(deps, flow.id);
  const docs = await flowDocuments(deps.db, flow.id);
  return {
    flowStatus: flowStatus as 'signing',
    partyStatus: 'signed' as const,
    documents: signed.map((s) => {
      const d = docs.find((x) => x.id === s.documentId);
      return {
        documentId: s.documentId,
        sha256: d?.current_sha256 ?? s.sha256,
        signatureCount: d?.signature_count ?? s.signatureCount,
      };
    }),
  };
}

type Advance = { next: PartyRow[]; isLast: boolean; status: string };

/**
 * Marks the party signed and, under the flow's row lock, decides what comes next: when every party of the
 * current step has signed, the next step's parties become pending (returned, to be sent their links), or,
 * after the last step, the flow is ready to complete.
 */
async function advanceIn(
  tx: Exec,
  flowId: string,
  partyId: string,
  userId: string,
  signedByName: string,
  now: Date,
): Promise<Advance> {
  const flow = await one<FlowRow>(tx, sql`SELECT * FROM flows WHERE id = ${flowId} FOR UPDATE`);
  if (!flow) throw new Error('flow vanished');
  await tx.execute(sql`UPDATE flow_parties SET status = 'signed', signed_at = ${ts(now)}, signed_by_user = ${userId},
    signed_by_name = ${signedByName} WHERE id = ${partyId} AND status = 'pending'`);
  const status = flow.status;
  if (status !== 'signing') return { next: [], isLast: false, status };
  if (flow.current_step >= flow.step_count) return { next: [], isLast: true, status };
  const parties = await partiesOf(tx, flowId);
  const step = parties.filter((p) => p.step_index === flow.current_step);
  if (!step.every((p) => p.status === 'signed')) return { next: [], isLast: false, status };
  const nextIndex = flow.current_step + 1;
  await tx.execute(sql`UPDATE flows SET current_step = ${nextIndex} WHERE id = ${flowId}`);
  if (nextIndex >= flow.step_count) return { next: [], isLast: true, status };
  const next = await rows<PartyRow>(
    tx,
    sql`UPDATE flow_parties SET status = 'pending' WHERE flow_id = ${flowId} AND step_index = ${nextIndex}
        AND status = 'waiting' RETURNING *`,
  );
  next.sort((a, b) => a.ord - b.ord);
  return { next, isLast: false, status };
}

// ---------------------------------------------------------------------------------------------------------
// Completion: B-LTA, quota, audit report

async function ocspRequestFor(certDer: Uint8Array, issuerDer: Uint8Array): Promise<Uint8Array> {
  const ab = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  const cert = pkijs.Certificate.fromBER(ab(certDer));
  const issuer = pkijs.Certificate.fromBER(ab(issuerDer));
  const req = new pkijs.OCSPRequest();
  await req.createForCertificate(cert, { hashAlgorithm: 'SHA-256', issuerCertificate: issuer });
  return new Uint8Array(req.toSchema(true).toBER());
}

/** Certificates, OCSP responses and CRLs that let the signatures be validated later without this server. */
async function validationData(deps: AppDeps, flowId: string) {
  const pki = await pkiFor(deps);
  const serials = await rows<{ cert_serial: string }>(
    deps.db,
    sql`SELECT DISTINCT s.cert_serial FROM party_signatures s JOIN flow_parties p ON p.id = s.party_id
        WHERE p.flow_id = ${flowId}`,
  );
  const certs: Uint8Array[] = [pki.ca.issuing.der, pki.ca.root.der, pki.ca.tsa.der, pki.ca.ocsp.der];
  const ocspResponses: Uint8Array[] = [];
  const repo = new DbCertRepository(deps.db);
  for (const { cert_serial } of serials) {
    const rec = await repo.findBySerial(cert_serial);
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
export async function completeFlow(deps: AppDeps, flowId: string): Promise<string> {
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
      if (d.is_ltv_done) break;
      data ??= await validationData(deps, flowId);
      const withDss = addValidationData(await blobBytes(deps, d.current_key), data);
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
  const won = await deps.db.transaction(async (tx) => {
    const f = await one<FlowRow>(
      tx,
      sql`UPDATE flows SET status = 'completed', completed_at = ${ts(now)}, quota_state = 'used'
          WHERE id = ${flowId} AND status = 'signing' RETURNING *`,
    );
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
        hashBefore: d.launched_sha256,
        hashAfter: d.current_sha256,
      });
    return true;
  });
  if (won) {
    const f = (await findFlow(deps.db, flowId))!;
    const initiator = await findUserById(deps.db, f.initiator_user_id);
    await notifyEnd(deps, f, 'completed', initiator?.phone ?? null);
    // The report (about a second of work) is not the last signer's business: it is built right after the
    // commit, in the background. The flow is complete and consistent without it; a download finds it, waits
    // for the build under way, or (after a crash before it was stored) builds it then.
    void ensureAuditReport(deps, flowId).catch((err) => deps.log.error({ err }, 'audit report failed'));
  }
  return (await findFlow(deps.db, flowId))!.status;
}

// Audit report builds under way, per flow: a download during the background build waits for it instead of
// building a second copy.
const reportBuilds = new WeakMap<AppDeps, Map<string, Promise<Uint8Array>>>();

async function buildAndStoreReport(deps: AppDeps, flowId: string): Promise<Uint8Array> {
  const bytes = await buildAuditReport(deps, flowId);
  const key = await deps.storage.put(bytes);
  const stored = await rows<{ id: string }>(
    deps.db,
    sql`UPDATE flows SET report_key = ${key}, report_sha256 = ${key} WHERE id = ${flowId} AND report_key IS NULL
        RETURNING id`,
  );
  if (stored.length === 1) return bytes;
  // Another process stored its report first: serve that one, so every download gets the same file.
  const again = (await findFlow(deps.db, flowId))!;
  return blobBytes(deps, again.report_key!);
}

/** The audit report of a completed flow: made once (platform-signed PDF), stored as a blob. */
export async function ensureAuditReport(deps: AppDeps, flowId: string): Promise<Uint8Array> {
  const flow = await findFlow(deps.db, flowId);
  if (flow?.status !== 'completed') throw new AppError(Code.Refused, F.notCompleted);
  if (flow.report_key) return blobBytes(deps, flow.report_key);
  let builds = reportBuilds.get(deps);
  if (!builds) {
    builds = new Map();
    reportBuilds.set(deps, builds);
  }
  const running = builds.get(flowId);
  if (running) return running;
  const build = buildAndStoreReport(deps, flowId).finally(() => builds.delete(flowId));
  builds.set(flowId, build);
  return build;
}

/** Waits for background report builds (before the database closes). */
export async function settleBackgroundWork(deps: AppDeps): Promise<void> {
  await Promise.allSettled([...(reportBuilds.get(deps)?.values() ?? [])]);
}

/** Completes flows left with every party signed (a crash between the last signature and completion). */
export async function completeStragglers(deps: AppDeps): Promise<void> {
  const list = await rows<{ id: string }>(
    deps.db,
    sql`SELECT f.id FROM flows f WHERE f.status = 'signing'
        AND NOT EXISTS (SELECT 1 FROM flow_parties p WHERE p.flow_id = f.id AND p.status <> 'signed') LIMIT 50`,
  );
  for (const f of list) await completeFlow(deps, f.id);
}

export { findParty };
