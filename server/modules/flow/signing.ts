import { beijingDate } from '../../lib/beijing-time.ts';
import { SIGNATURE_PNG_MAX_BYTES } from '#contract/calls/document.ts';
import { appliesCompanySeal, fitsCompanySeal } from '#contract/rules/seal-needs.ts';
import { Code } from '#contract/codes.ts';
import { SealType, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { signerFromPki, type Signer } from '../../pdf/sign/cms.ts';
import { type Appearance, appearanceFromPdf } from '../../pdf/sign/appearance.ts';
import { prepareForSigning } from '../../pdf/sign/repair.ts';
import { type AppearanceInput, signPdf } from '../../pdf/sign/sign-pdf.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import { markApprovalsUsed } from '../approval/index.ts';
import { appendAudit } from '../audit/index.ts';
import { memberRoles } from '../company/index.ts';
import { type AppearancePart, compositeAppearance } from '../../pdf/compose/pdf-tools.ts';
import { blobBytes, findDocument, flowDocuments } from '../document/index.ts';
import { pkiFor } from '../pki/index.ts';
import { sealForSigning, sealGrantsOf } from '../seal/index.ts';
import { findUserById } from '../session/index.ts';
import { approvalsForSealing } from './approvals.ts';
import { confirmIntent } from './intent.ts';
import { hasSigned } from './queries.ts';
import {
  type Flow,
  type Party,
  appliesOf,
  findFlow,
  findParty,
  notifySigned,
  partiesOf,
  positionsOf,
} from './model.ts';
import { type Room, roomActor, roomState, signRefusal } from './room.ts';
import { askToSign } from './ask-to-sign.ts';
import type { AuditActor } from '../audit/index.ts';
import { type Exec, dateOf } from '../../db/sql-helpers.ts';
import { afterBlobWrite, afterLastSignature, memberLetterCover } from './hooks.ts';
import * as q from './queries.ts';
import { type EventsAfterCommit, nothingAfterCommit, storeFlowEvent } from './events.ts';
import type { FlowRuntime, Material } from './runtime.ts';
import { completeFlow } from './complete.ts';
import { moveVersion } from './versions.ts';
import { F } from './texts.ts';
import { type FieldsToSign, fieldsToSign, filledDetail, markFieldsSigned, signedValuesOf } from './fields.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';
const MAX_ATTEMPTS = 12;

export type SignInput = {
  smsCode?: string;
  signingPassword?: string;
  companySealId?: string;
  legalPersonSealId?: string;
  personSealId?: string;
  signaturePng?: string;
  /** Values of the party's fields over those saved (issue 28). */
  fieldValues?: Record<string, string | boolean | null>;
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
  /** Whether the seal's type fills the slot it is offered for. */
  fits: (sealType: number | null) => boolean,
) {
  let seal: Awaited<ReturnType<typeof sealForSigning>>;
  try {
    seal = await sealForSigning(deps, { holder, sealId });
  } catch (err) {
    if (err instanceof AppError && err.code !== Code.Internal)
      throw new AppError(Code.SealNotUsable, F.sealNotUsable);
    throw err;
  }
  if (!fits(seal.sealType)) throw new AppError(Code.SealNotUsable, F.sealWrongType);
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

/**
 * The holder's signing material: the current certificate is looked up every time (a revoked or expired
 * certificate is never used), its decrypted key is kept in memory per certificate serial, so a busy account
 * does not pay the key unwrapping on every signature.
 */
export async function signingMaterial(
  deps: AppDeps,
  cache: FlowRuntime['materials'],
  holder: { userType: 0 | 1; accountId: string },
) {
  const pki = await pkiFor(deps);
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

/** Who signs and what they apply: the signer's certificate, the user of record, the appearance, the seals. */
export type Prepared = {
  signer: Signer;
  certSerial: string;
  signerUserId: string;
  user: NonNullable<Awaited<ReturnType<typeof findUserById>>>;
  signerName: string;
  appearance: AppearanceInput;
  crossPage: AppearanceInput | null;
  sealIds: string[];
  /** Seal-use approvals the company seals are applied under (issue 27): marked used with the signature. */
  approvalIds: string[];
};

/**
 * The party's signer (its own certificate) and the appearance it applies, after every permission check. The
 * room and batch signing (batch.ts, with a room of the batch's signer) both come here.
 */
export async function prepareSignature(
  deps: AppDeps,
  rt: FlowRuntime,
  room: Room,
  party: Party,
  input: SignInput,
): Promise<Prepared> {
  if (!room.userId) throw new AppError(Code.SignerNoCertificate, F.noAccount);
  const user = await findUserById(deps.db, room.userId);
  if (!user) throw new AppError(Code.SignerNoCertificate, F.noAccount);
  const applies = appliesOf(party);
  const parts: AppearancePart[] = [];
  const sealIds: string[] = [];
  let crossPage: AppearanceInput | null = null;
  let material: Material | undefined;
  let approvalIds: string[] = [];
  if (party.kind === 'company') {
    // A company not opened yet (its handler opens it from the room) has neither certificate nor seals.
    if (!party.companyId) throw new AppError(Code.SignerNoCertificate, F.noCompanyCertificate);
    const companyId = party.companyId;
    // Authorisation: only the administrator or a handler of the party's company (now), or of a company it
    // granted seals to (a cross-company grant in force), signs for it; which seals they may use is
    // sealForSigning's decision (administrator: any enabled seal; a handler: seals authorised to them now; a
    // grantee's member: the granted seals).
    const roles = await memberRoles(deps, companyId, room.userId);
    if (
      !roles.includes('admin') &&
      !roles.includes('handler') &&
      (await sealGrantsOf(deps, companyId, room.userId)).length === 0
    )
      throw new AppError(Code.Refused, F.notCompanyMember, { status: 602 });
    material = await signingMaterial(deps, rt.materials, {
      userType: UserType.Company,
      accountId: companyId,
    });
    if (!material) throw new AppError(Code.SignerNoCertificate, F.noCompanyCertificate);
    const holder = { userType: 1 as const, companyId, userId: room.userId };
    if (appliesCompanySeal(applies)) {
      if (!input.companySealId) throw new AppError(Code.Refused, F.needCompanySeal);
      // The launcher's type, or with anyCompanySeal whichever company seal the signer chose among theirs.
      const s = await usableSeal(deps, holder, input.companySealId, (t) => fitsCompanySeal(applies, t));
      parts.push({ pdf: s.pdf });
      sealIds.push(s.sealId);
      crossPage = { pdf: s.pdf };
    }
    if (applies.legalPersonSeal) {
      if (!input.legalPersonSealId) throw new AppError(Code.Refused, F.needLegalPersonSeal);
      const s = await usableSeal(deps, holder, input.legalPersonSealId, (t) => t === SealType.LegalPerson);
      parts.push({ pdf: s.pdf });
      sealIds.push(s.sealId);
      crossPage ??= { pdf: s.pdf };
    }
    // Seal-use approval: each company seal whose policy applies to this flow needs its approval (1330).
    approvalIds = await approvalsForSealing(deps, room, party, companyId, room.userId, sealIds);
  } else {
    material = await signingMaterial(deps, rt.materials, {
      userType: UserType.Person,
      accountId: room.userId,
    });
    if (!material) throw new AppError(Code.SignerNoCertificate, F.noPersonCertificate);
  }
  if (applies.personSignature) {
    if (input.personSealId) {
      const s = await usableSeal(deps, { userType: 0, userId: room.userId }, input.personSealId, () => true);
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
  return {
    signer: signerFromPki(material),
    certSerial: material.certificate.serial,
    signerUserId: user.id,
    user,
    signerName: party.kind === 'company' ? (party.companyName ?? '') : (user.name ?? party.name ?? ''),
    appearance: await appearanceOf(parts, applies.date, deps.clock.now()),
    crossPage: applies.crossPageSeal ? crossPage : null,
    sealIds,
    approvalIds,
  };
}

/** The appearance of what a party applies: one seal as it is, or the parts composed (with the date). */
export async function appearanceOf(
  parts: AppearancePart[],
  withDate: boolean | undefined,
  now: Date,
): Promise<AppearanceInput> {
  const only = parts[0];
  // The common case needs no composing: the seal's own one-page PDF is the appearance.
  if (parts.length === 1 && !withDate)
    return 'pdf' in only
      ? sealAppearance(only.pdf)
      : { png: only.png, width: only.widthMm * PT_PER_MM, height: only.heightMm * PT_PER_MM };
  return { pdf: await compositeAppearance(parts, withDate ? beijingDate(now) : null) };
}

/**
 * The room's flow and party, fresh. Like roomState, but the deadline is checked on the row read anyway:
 * only a flow actually past its deadline pays for expiring it and reading it again.
 */
async function signingState(deps: AppDeps, room: Room): Promise<{ flow: Flow; party: Party }> {
  const [flow, party] = await Promise.all([findFlow(deps.db, room.flowId), findParty(deps.db, room.partyId)]);
  if (flow && party && !(flow.status === 'signing' && dateOf(flow.deadline) <= deps.clock.now()))
    return { flow, party };
  return roomState(deps, room);
}

/**
 * Signs every document of the room's party (one incremental update per document), then moves the flow on:
 * the next step's parties get their links, or after the last party the flow is completed.
 */
export async function signAsParty(deps: AppDeps, rt: FlowRuntime, room: Room, input: SignInput, ctx: Ctx) {
  const { flow, party } = await signingState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  // Certificate and seals are checked before the code is used, so a refusal there does not burn the code.
  const prepared = await prepareSignature(deps, rt, room, party, input);
  // The fields' values, checked and complete, before the intent check too (a refusal burns no code).
  const fields = await fieldsToSign(deps, party.id, input.fieldValues, deps.clock.now());
  const intent = await confirmIntent(deps, room, party, prepared.signerUserId, input, ctx.ip ?? '');
  const actor = await roomActor(deps, room, party, ctx, prepared.user);
  const { signed } = await signPartyDocuments(deps, rt, flow, party, prepared, {
    actor,
    intent: await provenIntentDetail(deps, party, prepared, intent),
    reason: flow.title,
    fields,
  });
  const docs = await flowDocuments(deps.db, flow.id);
  return {
    flowStatus: signed.flowStatus as 'signing',
    partyStatus: 'signed' as const,
    documents: signed.documents.map((s) => {
      const d = docs.find((x) => x.id === s.documentId);
      return {
        documentId: s.documentId,
        sha256: d?.currentSha256 ?? s.sha256,
        signatureCount: d?.signatureCount ?? s.signatureCount,
      };
    }),
  };
}

/**
 * The end of a `sign` entry of a signer who proved the intent (in the room, or once for a batch): the check,
 * when its code was sent, the seal-use approvals, the member letter a company seal is used under (issue 27),
 * and the batch (issue 28).
 */
export async function provenIntentDetail(
  deps: AppDeps,
  party: Party,
  prepared: Prepared,
  intent: { check: string; codeSentAt: Date | null; batchId?: string },
): Promise<string> {
  // A company seal used under a member's authorisation letter (issue 27): the entry names the letter.
  const letter =
    party.kind === 'company' && party.companyId && prepared.sealIds.length
      ? (
          await deps.hooks.collect(memberLetterCover, {
            deps,
            companyId: party.companyId,
            userId: prepared.signerUserId,
            sealIds: prepared.sealIds,
            now: deps.clock.now(),
          })
        ).find(Boolean)
      : null;
  return `intent ${intent.check}${intent.codeSentAt ? ` code sent ${intent.codeSentAt.toISOString()}` : ''}${prepared.approvalIds.length ? ` approval ${prepared.approvalIds.join(',')}` : ''}${letter ? ` letter ${letter}` : ''}${intent.batchId ? ` batch ${intent.batchId}` : ''}`;
}

/** How a party's signature is made and recorded, beyond the signer: the room's person or an automatic one. */
export type SigningWay = {
  actor: AuditActor;
  /** The end of the `sign` audit entry after the certificate and seals: how the intent was confirmed. */
  intent: string;
  /** The signature's reason. */
  reason: string;
  /** Who signed, as the flow shows it (default: the signer's name). */
  signedByName?: string;
  /** Runs in the transaction of the party's first signature; throwing there stores nothing. */
  inFirstSignature?: (tx: Exec) => Promise<void>;
  /** The values of the party's fields to write (issue 28); default: the saved ones (batch, automatic). */
  fields?: FieldsToSign;
};

/**
 * After every permission and intent check: signs every document of the party (one incremental update per
 * document), then moves the flow on (the next step's parties are asked to sign, or the flow is completed).
 * The signing room and automatic signing both come here.
 */
export async function signPartyDocuments(
  deps: AppDeps,
  rt: FlowRuntime,
  flow: Flow,
  party: Party,
  prepared: Prepared,
  way: SigningWay,
) {
  const pki = await pkiFor(deps);
  const timestamp = (imprint: Uint8Array) => pki.timestamp(imprint);
  const actor = way.actor;
  const signed: { documentId: string; sha256: string; signatureCount: number }[] = [];
  const positions = positionsOf(party);
  const documentCount = new Set(positions.map((p) => p.documentId)).size;
  const signedByName = way.signedByName ?? prepared.user.name ?? actor.actor;
  // The party's fields: written into each document with its signature, in the same incremental update.
  const fields = way.fields ?? (await fieldsToSign(deps, party.id, undefined, deps.clock.now()));
  // The flow row is locked first and must still be open: a signature never lands in a cancelled, declined
  // or expired flow, and the transaction that stores the party's last document also marks the party
  // signed and moves the flow on (advanceIn), so "every party signed" and the last signature are one fact.
  // The row locked by the transaction under way (advanceIn goes on from it instead of locking it again).
  let locked: Flow | undefined;
  const lockOpenFlow = async (tx: Exec) => {
    const f = await q.lockFlow(tx, flow.id);
    if (!f) throw new Error('flow vanished');
    if (f.status !== 'signing' || f.currentStep >= f.stepCount)
      throw new AppError(Code.FlowClosed, F.flowClosed(f.status));
    if (dateOf(f.deadline).getTime() <= deps.clock.now().getTime())
      throw new AppError(Code.DeadlinePassed, F.deadlinePassed);
    locked = f;
  };
  let outcome: Advance | undefined;
  // `party.signed` is stored in the transaction that marks the party signed (an outbox), and its deliveries
  // are queued after that commit.
  let afterCommit: EventsAfterCommit = nothingAfterCommit;
  // The party.signed event, stored by the signing transaction; the party and flow rows as that transaction
  // left them (no second read).
  const tellSigned = async (tx: Exec, advanced: Advance) => {
    const signedParty = advanced.party ?? (await q.findParty(tx, party.id));
    return signedParty
      ? storeFlowEvent(deps, tx, 'party.signed', advanced.flow ?? flow.id, { party: signedParty })
      : nothingAfterCommit;
  };
  for (const pos of positions) {
    let done = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !done; attempt++) {
      const doc = await findDocument(deps.db, pos.documentId);
      if (!doc) throw new Error(`document ${pos.documentId} of flow ${flow.id} is missing`);
      if (await hasSigned(deps.db, party.id, doc.id)) {
        signed.push({ documentId: doc.id, sha256: doc.currentSha256, signatureCount: doc.signatureCount });
        done = true;
        break;
      }
      // A file with damaged cross-reference data is repaired once, before its first signature (a signed
      // file never is): the repaired bytes are kept as a blob, the repair goes into the audit trail, and
      // the signature is appended to them.
      const ready = prepareForSigning(await blobBytes(deps, doc.currentKey));
      const repairedKey = ready.repaired ? await deps.storage.put(ready.bytes) : undefined;
      const fill = fields.fillOf(doc.id);
      const bytes = await signPdf(ready.bytes, {
        ...(fill.length ? { fill } : {}),
        signer: prepared.signer,
        timestamp,
        placement: { pageIndex: pos.page - 1, rect: pos.rect },
        appearance: prepared.appearance,
        signingTime: deps.clock.now(),
        name: prepared.signerName,
        reason: way.reason,
        location: 'e-Sign platform',
        crossPageSeal: prepared.crossPage ? { appearance: prepared.crossPage } : undefined,
      });
      // Blobs are content-addressed: the key is the SHA-256 of the bytes, no second hash needed. A new
      // signature (its time, its timestamp token) makes bytes no store holds yet.
      const key = await deps.storage.put(bytes, { fresh: true });
      await deps.hooks.emit(afterBlobWrite, { documentId: doc.id });
      const sha = key;
      const at = deps.clock.now();
      const ok = await moveVersion(
        deps,
        doc,
        { key, sha, size: bytes.length, reason: 'sign', partyId: party.id },
        async (tx) => {
          const isNew = await q.insertSignature(tx, {
            partyId: party.id,
            documentId: doc.id,
            version: doc.version + 1,
            sha256: sha,
            signerUserId: prepared.signerUserId,
            certSerial: prepared.certSerial,
            sealIds: prepared.sealIds,
            at,
          });
          if (!isNew) return false;
          await markApprovalsUsed(tx, prepared.approvalIds, at);
          await markFieldsSigned(tx, signedValuesOf(fields.values, doc.id), at);
          const filled = filledDetail(fields.values, doc.id);
          const mine = await q.signatureCountOf(tx, party.id);
          if (mine === 1 && way.inFirstSignature) await way.inFirstSignature(tx);
          if (repairedKey)
            await appendAudit(tx, {
              ...actor,
              isDocumentLocked: true,
              flowId: flow.id,
              documentId: doc.id,
              event: 'repair',
              detail: `repaired before signing: ${ready.problem ?? ''}`.slice(0, 300),
              at,
              hashBefore: doc.currentSha256,
              hashAfter: repairedKey,
            });
          await appendAudit(tx, {
            ...actor,
            isDocumentLocked: true,
            flowId: flow.id,
            documentId: doc.id,
            event: 'sign',
            detail: `certificate ${prepared.certSerial}${prepared.sealIds.length ? ` seals ${prepared.sealIds.join(',')}` : ''} ${way.intent}${filled ? ` · ${filled}` : ''}`,
            at,
            hashBefore: repairedKey ?? doc.currentSha256,
            hashAfter: sha,
          });
          if (mine >= documentCount) {
            outcome = await advanceIn(tx, flow.id, party.id, prepared.signerUserId, signedByName, at, locked);
            afterCommit = await tellSigned(tx, outcome);
          }
          return true;
        },
        lockOpenFlow,
      );
      if (ok) {
        signed.push({ documentId: doc.id, sha256: sha, signatureCount: doc.signatureCount + 1 });
        done = true;
      }
    }
    if (!done) throw new AppError(Code.SigningBusy, F.signingBusy);
  }
  // Every document was signed before (a signature stored by an earlier version of this code, which moved
  // the flow on in a transaction of its own): move it on now.
  outcome ??= await deps.db.transaction(async (tx) => {
    const advanced = await advanceIn(
      tx,
      flow.id,
      party.id,
      prepared.signerUserId,
      signedByName,
      deps.clock.now(),
    );
    afterCommit = await tellSigned(tx, advanced);
    return advanced;
  });
  await afterCommit();
  if (outcome.isLast) await deps.hooks.emit(afterLastSignature, { flowId: flow.id });
  // The links name the flow by id and title, which never change: the row read at the start serves.
  for (const p of outcome.next) await askToSign(deps, flow, p);
  if (!outcome.isLast) await notifySigned(deps, flow, signedByName, prepared.signerUserId);
  let flowStatus = outcome.status;
  if (outcome.isLast) flowStatus = await completeFlow(deps, flow.id, rt.reportBuilds);
  return { signed: { flowStatus, documents: signed } };
}

type Advance = {
  next: Party[];
  isLast: boolean;
  status: string;
  /** The flow row as this transaction left it (locked, so no one else changed it meanwhile). */
  flow?: Flow;
  /** The party row as marked signed here (undefined when it was signed before). */
  party?: Party;
};

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
  /** The flow row, when this transaction has already locked it. */
  lockedFlow?: Flow,
): Promise<Advance> {
  const flow = lockedFlow ?? (await q.lockFlow(tx, flowId));
  if (!flow) throw new Error('flow vanished');
  const party = await q.markPartySigned(tx, partyId, { userId, name: signedByName, now });
  const status = flow.status;
  if (status !== 'signing') return { next: [], isLast: false, status, flow, party };
  if (flow.currentStep >= flow.stepCount) return { next: [], isLast: true, status, flow, party };
  const parties = await partiesOf(tx, flowId);
  const step = parties.filter((p) => p.stepIndex === flow.currentStep);
  if (!step.every((p) => p.status === 'signed')) return { next: [], isLast: false, status, flow, party };
  const nextIndex = flow.currentStep + 1;
  await q.setCurrentStep(tx, flowId, nextIndex);
  const moved = { ...flow, currentStep: nextIndex };
  if (nextIndex >= flow.stepCount) return { next: [], isLast: true, status, flow: moved, party };
  const next = await q.openStep(tx, flowId, nextIndex);
  next.sort((a, b) => a.ord - b.ord);
  return { next, isLast: false, status, flow: moved, party };
}
