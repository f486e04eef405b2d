// Launch drafts (issue 29): the launch screen's form kept on the server for one user of an account, resumed on
// any device. The form is the client's JSON, kept as given; its documents must be the account's uploads not
// launched yet (uploads are never swept, so they last as long as the draft). Opening a draft drops a document
// deleted or launched since. A launch deletes the drafts of its user that used its documents; a user deletes
// a draft on request. Any other user (of the account or not) gets 1101. SQL: drafts-queries.ts.
import { randomUUID } from 'node:crypto';
import type { LaunchDraftSummary } from '#contract/calls/drafts.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import type { Account } from '../../lib/account.ts';
import type { Actor } from '../../lib/actor.ts';
import { HANDLING } from '../company/index.ts';
import { accountOf, ownDocument } from '../document/index.ts';
import * as dq from './drafts-queries.ts';
import { TT } from './term-texts.ts';

/** Drafts a user keeps in one account at most (a new one beyond is refused: delete one first). */
export const MAX_DRAFTS = 100;

const ownerOf = async (deps: AppDeps, session: Actor) => ({
  account: await accountOf(deps, session, HANDLING),
  userId: session.userId,
});

function summary(r: dq.DraftRow): LaunchDraftSummary {
  return {
    draftId: r.id,
    title: r.title,
    documentCount: jsonOf<string[]>(r.documentIds).length,
    updatedAt: dateOf(r.updatedAt).toISOString(),
  };
}

/** The documents still usable for a launch (the account's uploads not launched), in order. */
async function usable(deps: AppDeps, account: Account, ids: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) {
    const doc = await ownDocument(deps, account, id).catch((err) => {
      if (err instanceof AppError && err.code === Code.NotFound) return null;
      throw err;
    });
    if (doc && !doc.flowId) out.push(id);
  }
  return out;
}

export async function saveDraft(
  deps: AppDeps,
  session: Actor,
  body: { draftId?: string; title: string; form: Record<string, unknown>; documentIds: string[] },
): Promise<LaunchDraftSummary> {
  const owner = await ownerOf(deps, session);
  const ids = [...new Set(body.documentIds)];
  if ((await usable(deps, owner.account, ids)).length !== ids.length)
    throw new AppError(Code.Refused, TT.draftDocumentUnusable);
  if (!body.draftId && (await dq.countDrafts(deps.db, owner)) >= MAX_DRAFTS)
    throw new AppError(Code.Refused, TT.tooManyDrafts(MAX_DRAFTS));
  const d = { id: body.draftId ?? randomUUID(), title: body.title, form: body.form, documentIds: ids };
  const now = deps.clock.now();
  const row = body.draftId
    ? await dq.updateDraft(deps.db, owner, d, now)
    : await dq.insertDraft(deps.db, owner, d, now);
  if (!row) throw new AppError(Code.NotFound, TT.draftNotFound);
  return summary(row);
}

export async function listDrafts(deps: AppDeps, session: Actor): Promise<{ items: LaunchDraftSummary[] }> {
  return { items: (await dq.listDrafts(deps.db, await ownerOf(deps, session))).map(summary) };
}

export async function openDraft(deps: AppDeps, session: Actor, draftId: string) {
  const owner = await ownerOf(deps, session);
  const row = await dq.findDraft(deps.db, owner, draftId);
  if (!row) throw new AppError(Code.NotFound, TT.draftNotFound);
  const ids = jsonOf<string[]>(row.documentIds);
  const documentIds = await usable(deps, owner.account, ids);
  return {
    ...summary(row),
    documentCount: documentIds.length,
    form: jsonOf<Record<string, unknown>>(row.form),
    documentIds,
    droppedDocuments: ids.length - documentIds.length,
  };
}

export async function removeDraft(deps: AppDeps, session: Actor, draftId: string): Promise<null> {
  if (!(await dq.deleteDraft(deps.db, await ownerOf(deps, session), draftId)))
    throw new AppError(Code.NotFound, TT.draftNotFound);
  return null;
}

/** In a launch's transaction: the launching user's drafts that used its documents are done. */
export function dropLaunchedDrafts(tx: Exec, account: Account, userId: string, documentIds: string[]) {
  return dq.deleteDraftsUsing(tx, { account, userId }, documentIds);
}
