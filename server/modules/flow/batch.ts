// Batch signing (批量签署, issue 28): a person, or a company's administrator or handler, signs many of the
// flows waiting for them with ONE intent check. prepareSignBatch stores the chosen parties (each one the caller
// may sign for, else 1101) and the seals chosen once, and answers the strictest intent check the parties need
// (face > signing password > SMS code); startSignBatch takes the proof once and queues the job
// `flow.signBatch`, which signs each party exactly as its signing room would (prepareSignature: roles, seal
// authorisation, seal-use approval; signPartyDocuments: its own positions, one incremental update per document,
// the flow moved on), recording each result. Each item is claimed with a conditional UPDATE before it is
// signed, so a job run again after a crash (or two workers) never signs a party twice; a party the job finds
// signed by this signer after a crash counts as signed.
import { randomUUID } from 'node:crypto';
import type { SealChoice, SignBatch } from '#contract/calls/batch.ts';
import { Code } from '#contract/codes.ts';
import { SmsPurpose } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { jsonOf } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Lang } from '../../lib/text.ts';
import { consumeSmsCode, findUserById, sendSmsCode } from '../session/index.ts';
import * as bq from './batch-queries.ts';
import {
  type IntentCheck,
  checkSigningPassword,
  intentOf,
  spendFaceIntent,
  startFaceIntent,
} from './intent.ts';
import { type Party, appliesOf, findParty, maskPhone, summaries } from './model.ts';
import type * as q from './queries.ts';
import { signerScope } from './query.ts';
import { requestRoomApproval } from './approvals.ts';
import { type Room, roomActor, roomState, signRefusal } from './room.ts';
import type { FlowRuntime } from './runtime.ts';
import { prepareSignature, provenIntentDetail, signPartyDocuments } from './signing.ts';
import { type FieldsToSign, fieldsToSign } from './fields.ts';
import { partyPage } from './queries.ts';
import { sweepExpired } from './end.ts';
import { F } from './texts.ts';

export const SIGN_BATCH_JOB = 'flow.signBatch';

/** How long a worker holds an item it signs; a claim past it (the worker died) is taken again. */
const CLAIM_MS = 60_000;
/** Claims of one item before it is given up (a fault that is not a refusal, every time). */
const MAX_ITEM_ATTEMPTS = 3;
/** Parties of one batch signed at the same time. */
const BATCH_CONCURRENCY = 4;
const STRICTNESS: Record<IntentCheck, number> = { sms: 0, password: 1, face: 2 };

type Ctx = { ip?: string; userAgent?: string | null };
type Scope = Awaited<ReturnType<typeof signerScope>>;

/** The SMS codes of a batch are its own (stored and counted apart from every room's). */
const batchSmsScope = (batchId: string) => `batch:${batchId}`;

/** Whether a party is one the scope signs for (as the pending list shows it). */
const isInScope = (scope: Scope, p: Party) =>
  scope.kind === 'person'
    ? p.kind === 'person' && p.phone === scope.phone
    : p.kind === 'company' &&
      p.companyId === scope.companyId &&
      (scope.phone === null || p.phone === scope.phone);

/** listBatchSignable: the pending list's parties, with what each needs. */
export async function listSignable(deps: AppDeps, session: Actor, f: q.ListFilters) {
  await sweepExpired(deps);
  const { list, total } = await partyPage(deps.db, await signerScope(deps, session), {
    ...f,
    status: 'pending',
  });
  const sums = await summaries(deps.db, list);
  return {
    list: list.map((r, i) => ({
      flowId: r.id,
      partyId: r.partyId,
      title: r.title,
      initiatorName: r.initiatorName,
      initiatorCompanyName: r.initiatorCompanyName,
      templateId: r.templateId ?? null,
      templateName: r.templateName,
      createdAt: sums[i].createdAt,
      deadline: sums[i].deadline,
      documentNames: sums[i].documentNames,
      partyKind: r.partyKind,
      companyName: r.partyCompanyName,
      intent: (r.partyIntent as IntentCheck | null) ?? 'sms',
      applies: appliesOf({ applies: r.partyApplies } as Party),
    })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

async function callerPhone(deps: AppDeps, userId: string): Promise<string> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError(Code.NotFound, F.batchNotFound);
  return user.phone;
}

async function sendCode(deps: AppDeps, batchId: string, phone: string, ip: string) {
  const sent = await sendSmsCode(deps, phone, SmsPurpose.Sign, ip, batchSmsScope(batchId));
  await bq.setCodeSent(deps.db, batchId, deps.clock.now());
  return { ...sent, phoneMasked: maskPhone(phone) };
}

/** prepareSignBatch: the parties (every one the caller's, else 1101), the seals chosen once, the intent asked. */
export async function prepareBatch(
  deps: AppDeps,
  session: Actor,
  body: { partyIds: string[]; sealChoice: SealChoice; sendCode: boolean },
  ctx: Ctx,
) {
  const scope = await signerScope(deps, session);
  const ids = [...new Set(body.partyIds)];
  const parties: Party[] = [];
  for (const id of ids) {
    const p = await findParty(deps.db, id);
    // Another account's party is not found, the same answer as one that does not exist.
    if (!p || !isInScope(scope, p)) throw new AppError(Code.NotFound, F.batchPartyNotFound);
    parties.push(p);
  }
  const intent = parties
    .map(intentOf)
    .reduce<IntentCheck>((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a), 'sms');
  const batchId = randomUUID();
  await deps.db.transaction((tx) =>
    bq.insertBatch(tx, {
      id: batchId,
      userId: session.userId,
      userType: session.userType,
      companyId: session.companyId,
      intent,
      sealChoice: body.sealChoice,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent ?? null,
      now: deps.clock.now(),
      items: parties.map((p) => ({ flowId: p.flowId, partyId: p.id })),
    }),
  );
  const code =
    intent === 'sms' && body.sendCode
      ? await sendCode(deps, batchId, await callerPhone(deps, session.userId), ctx.ip ?? '')
      : null;
  return { batchId, total: parties.length, intent, code };
}

async function preparedBatch(deps: AppDeps, session: Actor, batchId: string) {
  const batch = await bq.findBatch(deps.db, batchId, session.userId);
  if (!batch) throw new AppError(Code.NotFound, F.batchNotFound);
  if (batch.status !== 'prepared') throw new AppError(Code.Refused, F.batchStarted);
  return batch;
}

/** sendSignBatchCode: the batch's SMS code (again) to the caller's phone. */
export async function sendBatchCode(deps: AppDeps, session: Actor, batchId: string, ip: string) {
  const batch = await preparedBatch(deps, session, batchId);
  if (batch.intent !== 'sms') throw new AppError(Code.Refused, F.intentNotFace);
  return sendCode(deps, batch.id, await callerPhone(deps, session.userId), ip);
}

/** startSignBatchFace: the face check of the caller for this batch (businessCode = the batch's id). */
export async function startBatchFace(
  deps: AppDeps,
  session: Actor,
  body: { batchId: string; deviceType: 'h5' | 'pc'; signUrl: string },
) {
  const batch = await preparedBatch(deps, session, body.batchId);
  if (batch.intent !== 'face') throw new AppError(Code.Refused, F.batchNotFace);
  return startFaceIntent(deps, session.userId, batch.id, body);
}

/** startSignBatch: the intent proven once, then the batch is signed in the background. */
export async function startBatch(
  deps: AppDeps,
  session: Actor,
  body: { batchId: string; smsCode?: string; signingPassword?: string },
  ctx: Ctx,
  lang: Lang,
) {
  const batch = await preparedBatch(deps, session, body.batchId);
  if (batch.intent === 'sms') {
    if (!batch.codeSentAt) throw new AppError(Code.SmsCodeInvalid, F.batchNoCode);
    if (!body.smsCode) throw new AppError(Code.SmsCodeInvalid, F.intentSmsMissing);
    const phone = await callerPhone(deps, session.userId);
    const used = await consumeSmsCode(
      deps,
      phone,
      SmsPurpose.Sign,
      body.smsCode,
      ctx.ip ?? '',
      batchSmsScope(batch.id),
    );
    await bq.setCodeSent(deps.db, batch.id, used.sentAt);
  } else if (batch.intent === 'password') {
    if (!body.signingPassword) throw new AppError(Code.IntentNotConfirmed, F.intentPasswordMissing);
    await checkSigningPassword(deps, session.userId, body.signingPassword);
  } else await spendFaceIntent(deps, session.userId, batch.id);
  if (!(await bq.startBatch(deps.db, batch.id, deps.clock.now())))
    throw new AppError(Code.Refused, F.batchStarted);
  await queueBatch(deps, batch.id);
  deps.log.info({ batchId: batch.id, total: batch.total, intent: batch.intent }, 'sign batch started');
  return batchView(deps, session, batch.id, lang);
}

const queueBatch = (deps: AppDeps, batchId: string, startAfter?: Date) =>
  deps.jobs.send(SIGN_BATCH_JOB, { batchId }, { singletonKey: batchId, startAfter });

/** getSignBatch: progress and each party's result, in the reader's language. */
export async function batchView(
  deps: AppDeps,
  session: Actor,
  batchId: string,
  lang: Lang,
): Promise<SignBatch> {
  const batch = await bq.findBatch(deps.db, batchId, session.userId);
  if (!batch) throw new AppError(Code.NotFound, F.batchNotFound);
  const items = await bq.batchItems(deps.db, batchId);
  return {
    batchId: batch.id,
    status: batch.status,
    intent: batch.intent,
    total: batch.total,
    signed: batch.signed,
    failed: batch.failed,
    createdAt: new Date(batch.createdAt).toISOString(),
    finishedAt: batch.finishedAt ? new Date(batch.finishedAt).toISOString() : null,
    items: items.map((it) => {
      const e = it.error ? jsonOf<{ code: number; en: string; zh: string }>(it.error) : null;
      return {
        flowId: it.flowId,
        partyId: it.partyId,
        title: it.title,
        status: it.status,
        error: e ? { code: e.code, msg: e[lang] } : null,
      };
    }),
  };
}

type ItemResult = { status: 'signed' | 'failed'; error: { code: number; en: string; zh: string } | null };

const failedWith = (err: AppError): ItemResult => ({
  status: 'failed',
  error: {
    code: err.code,
    en: typeof err.text === 'string' ? err.text : err.text.en,
    zh: typeof err.text === 'string' ? err.text : err.text.zh,
  },
});

/**
 * The job: claims the batch's items one by one and signs each. A refusal (not their turn any more, deadline
 * passed, seal approval needed, cancelled) is the item's result and the rest go on; anything else fails the
 * job, which runs again (the item claimed then is taken again once its claim ends).
 */
export async function runBatch(deps: AppDeps, rt: FlowRuntime, batchId: string): Promise<void> {
  const batch = await bq.findBatch(deps.db, batchId);
  if (batch?.status !== 'running') return;
  const user = await findUserById(deps.db, batch.userId);
  if (!user) throw new Error(`user ${batch.userId} of batch ${batchId} is missing`);
  const choice = jsonOf<SealChoice>(batch.sealChoice);
  const actor: Actor = {
    userId: batch.userId,
    userType: batch.userType,
    companyId: batch.companyId,
    via: { kind: 'session', sessionId: `batch:${batchId}` },
  };
  let scope: Scope | AppError;
  try {
    scope = await signerScope(deps, actor);
  } catch (err) {
    // No longer a member of the company: each item fails with the reason.
    if (!(err instanceof AppError)) throw err;
    scope = err;
  }
  // A few parties at a time: one signature's database work overlaps another's hashing, signing and
  // time-stamping (the parties are different flows; each is claimed by one of them only).
  const worker = async () => {
    for (;;) {
      const now = deps.clock.now();
      const item = await bq.claimItem(deps.db, batchId, now, new Date(now.getTime() + CLAIM_MS));
      if (!item) return;
      const result: ItemResult =
        scope instanceof AppError
          ? failedWith(scope)
          : item.attempts > MAX_ITEM_ATTEMPTS
            ? failedWith(new AppError(Code.Internal, F.batchKeptFailing))
            : await signItem(deps, rt, { batch, user, choice, scope }, item);
      await deps.db.transaction((tx) => bq.finishItem(tx, batchId, item.partyId, result, deps.clock.now()));
    }
  };
  // Every worker stops before the job ends (or fails: then with the first fault, and runs again).
  const ends = await Promise.allSettled(Array.from({ length: BATCH_CONCURRENCY }, worker));
  const fault = ends.find((e) => e.status === 'rejected');
  if (fault) throw fault.reason;
  // Items another worker still holds (or held when it died): looked at again when their claims end.
  const claimEnd = await bq.pendingClaimEnd(deps.db, batchId);
  if (claimEnd) await queueBatch(deps, batchId, claimEnd);
  else await bq.finishBatch(deps.db, batchId, deps.clock.now());
}

/** Running batches whose job was lost (its retries spent) are queued again: the sweep calls this. */
export async function resumeBatches(deps: AppDeps): Promise<void> {
  for (const id of await bq.runningBatchIds(deps.db)) await queueBatch(deps, id);
}

type BatchCtx = {
  batch: bq.SignBatchRow;
  user: NonNullable<Awaited<ReturnType<typeof findUserById>>>;
  choice: SealChoice;
  scope: Scope;
};

/** One party, signed as its room would sign it, the intent proven once for the batch. */
async function signItem(deps: AppDeps, rt: FlowRuntime, b: BatchCtx, item: bq.SignBatchItemRow) {
  const room: Room = {
    tokenHash: `batch:${b.batch.id}`,
    partyId: item.partyId,
    flowId: item.flowId,
    userId: b.user.id,
    phone: b.user.phone,
    madeAccount: false,
    via: 'session',
    phoneProof: 'session',
    apiKeyId: null,
  };
  try {
    const { flow, party } = await roomState(deps, room);
    // Signed by this signer in an earlier run of the job that died before recording it.
    if (party.status === 'signed' && party.signedByUser === b.user.id && item.attempts > 1)
      return { status: 'signed', error: null } satisfies ItemResult;
    // Still theirs now (a hand-over, a changed role): as the pending list decides.
    if (!isInScope(b.scope, party)) throw new AppError(Code.NotFound, F.batchNotYours);
    const refusal = signRefusal(flow, party, deps.clock.now());
    if (refusal) throw refusal;
    // Fields to fill (issue 28): the values saved in the room; a required field left empty is this item's
    // refusal ("fill the fields in the signing room first"), and the rest go on.
    let fields: FieldsToSign;
    try {
      fields = await fieldsToSign(deps, party.id, undefined, deps.clock.now());
    } catch (err) {
      if (err instanceof AppError && err.code === Code.Refused)
        throw new AppError(Code.Refused, F.fillFieldsFirst);
      throw err;
    }
    const prepared = await prepareSignature(deps, rt, room, party, b.choice);
    const actor = await roomActor(
      deps,
      room,
      party,
      { ip: b.batch.ip ?? undefined, userAgent: b.batch.userAgent },
      prepared.user,
    );
    const codeSentAt = b.batch.codeSentAt ? new Date(b.batch.codeSentAt) : null;
    await signPartyDocuments(deps, rt, flow, party, prepared, {
      actor,
      intent: await provenIntentDetail(deps, party, prepared, {
        check: b.batch.intent,
        codeSentAt,
        batchId: b.batch.id,
      }),
      reason: flow.title,
      fields,
    });
    return { status: 'signed', error: null } satisfies ItemResult;
  } catch (err) {
    if (err instanceof AppError && err.code === Code.SealApprovalRequired)
      return failedWith(await askForApproval(deps, room, err, b.batch));
    if (err instanceof AppError) return failedWith(err);
    throw err;
  }
}

/**
 * A seal that needs approval (1330): as the room's "ask for approval" would, the batch asks its approvers now
 * (unless a request already waits for them), and the item says so: sign it again once approved.
 */
async function askForApproval(
  deps: AppDeps,
  room: Room,
  err: AppError,
  batch: bq.SignBatchRow,
): Promise<AppError> {
  const sealId = typeof err.data?.sealId === 'string' ? err.data.sealId : null;
  if (!sealId) return err;
  if (err.data?.status !== 'pending')
    try {
      await requestRoomApproval(deps, room, sealId, {
        ip: batch.ip ?? undefined,
        userAgent: batch.userAgent,
      });
    } catch (asked) {
      // Asking was refused (too many requests, no approver could decide): the item keeps the original reason.
      if (asked instanceof AppError) return err;
      throw asked;
    }
  return new AppError(Code.SealApprovalRequired, F.batchApprovalAsked, { data: err.data ?? undefined });
}
