// Revised documents (issue 29). The launching account (its administrator or a handler, as for launch) uploads a
// revised PDF for a document of an open flow. The file is checked like an upload, made ready like a launch
// (repair, footer with the document's verification code, the signers' empty form fields: `readyForSigning`),
// and the parties' positions and fields are placed again (keywords found again in the new file, fixed boxes
// kept while their page exists). After a signature it needs the launcher's confirmation: every signature so
// far is then withdrawn (rows kept, marked), the parties go back to unsigned and the flow to its first step.
// One transaction: the flow's revision moved on (conditional on the one read), the document's version, the
// revision kept (flow_revisions; revision 1, the launched file, stored with the first revision), the
// placements, the audit entry and the `flow.revised` event. Afterwards every party is told, and the first
// step's parties whose signature was withdrawn are asked again (their links).
import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import type { Position } from '#contract/calls/flow.ts';
import { FLOW_REVISION_PATH, type FlowRevision, type PageDiff } from '#contract/calls/revisions.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import { PdfRejected, inspectPdf } from '../../pdf/compose/pdf-tools.ts';
import { appendAudit } from '../audit/index.ts';
import { HANDLING } from '../company/index.ts';
import {
  type Document,
  accountOf,
  blobBytes,
  findDocument,
  flowDocuments,
  launchVersionOf,
  pdfRefusal,
  reviseVersion,
} from '../document/index.ts';
import { findUserById } from '../session/index.ts';
import { type Reader, flowAccess, sessionActor } from './access.ts';
import { askToSign } from './ask-to-sign.ts';
import { storeFlowEvent } from './events.ts';
import { type PlannedField, formFieldsOf } from './fields.ts';
import { type FieldRow, fieldsOfFlow } from './fields-queries.ts';
import {
  DEFAULT_SIZE_MM,
  type PartyPlacement,
  type PlacementDoc,
  partyLabel,
  placementDoc,
  readyForSigning,
  resolvePosition,
} from './launch.ts';
import {
  type Flow,
  type Party,
  type ResolvedPosition,
  findFlow,
  notify,
  partiesOf,
  positionsOf,
} from './model.ts';
import { comparePages } from './revision-diff.ts';
import { R } from './revision-texts.ts';
import * as rq from './revisions-queries.ts';
import { F } from './texts.ts';

type ReviseInput = {
  flowId: string;
  documentId: string;
  note?: string;
  withdrawSignatures?: 'true' | 'false';
};

/** A refusal about a placement, naming the party (and the field) it is about. */
function aboutParty(party: Party, error: unknown, field?: string): unknown {
  if (!(error instanceof AppError) || typeof error.text === 'string') return error;
  const text: Text = field ? F.aboutField(field, error.text) : error.text;
  return new AppError(Code.Refused, F.aboutSigner(partyLabel(party), party.stepIndex, text));
}

/** The position as the launch gave it, or the box it was placed in (flows launched before placements were kept). */
function givenPosition(placed: ResolvedPosition, given: Position | undefined): Position {
  return given ?? { documentId: placed.documentId, page: placed.page, rect: placed.rect };
}

type Placed = {
  positions: { party: Party; positions: ResolvedPosition[] }[];
  fields: { row: FieldRow; place: ResolvedPosition }[];
};

/** The parties' positions and fields on the revised document, placed again on `doc` (its new file). */
async function placeAgain(
  parties: Party[],
  fieldRows: FieldRow[],
  documentId: string,
  doc: PlacementDoc,
): Promise<Placed> {
  const out: Placed = { positions: [], fields: [] };
  for (const party of parties) {
    const placement = party.placement ? jsonOf<PartyPlacement>(party.placement) : null;
    const positions = positionsOf(party);
    if (!positions.some((p) => p.documentId === documentId) && !fieldRows.some((f) => f.partyId === party.id))
      continue;
    const next: ResolvedPosition[] = [];
    for (const p of positions) {
      if (p.documentId !== documentId) {
        next.push(p);
        continue;
      }
      const given = placement?.positions.find((g) => g.documentId === documentId);
      try {
        next.push(await resolvePosition(givenPosition(p, given), doc, DEFAULT_SIZE_MM[party.kind]));
      } catch (error) {
        throw aboutParty(party, error);
      }
    }
    out.positions.push({ party, positions: next });
    for (const row of fieldRows.filter((f) => f.partyId === party.id)) {
      const placed = { documentId, page: row.page, rect: jsonOf<ResolvedPosition['rect']>(row.rect) };
      const given = placement?.fields.find((g) => g.key === row.key)?.position;
      try {
        out.fields.push({
          row,
          place: await resolvePosition(givenPosition(placed, given), doc, DEFAULT_SIZE_MM.field),
        });
      } catch (error) {
        throw aboutParty(party, error, row.label);
      }
    }
  }
  return out;
}

/** The launching account's open flow and one of its documents; 1101 for another account, 1311 once ended. */
async function revisableFlow(deps: AppDeps, session: Actor, flowId: string, documentId: string) {
  const account = await accountOf(deps, session, HANDLING);
  const flow = await findFlow(deps.db, flowId);
  if (!flow || flow.ownerType !== account.ownerType || flow.ownerId !== account.ownerId)
    throw new AppError(Code.NotFound, R.notLauncher);
  const doc = await findDocument(deps.db, documentId);
  if (!doc || doc.flowId !== flowId) throw new AppError(Code.NotFound, R.documentNotInFlow);
  if (flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(flow.status));
  if (flow.heldForApproval) throw new AppError(Code.Refused, R.heldForApproval);
  return { flow, doc, account };
}

/** The first revision's rows (the launched files), stored when the first revision is made. */
async function launchRevisionRows(deps: AppDeps, flow: Flow, docs: Document[]) {
  const out: Omit<rq.RevisionRow, 'createdAt'>[] = [];
  for (const d of docs) {
    const v = await launchVersionOf(deps.db, d.id);
    if (!v) continue;
    out.push({
      flowId: flow.id,
      revision: 1,
      documentId: d.id,
      blobKey: v.blobKey,
      sha256: v.sha256,
      size: v.size,
      pages: d.pages,
      createdBy: flow.initiatorUserId,
      createdByName: flow.initiatorName,
      note: null,
    });
  }
  return out;
}

export async function reviseDocument(
  deps: AppDeps,
  session: Actor,
  input: ReviseInput,
  file: { bytes: Uint8Array; filename: string },
  req: { ip?: string; userAgent?: string | null },
): Promise<{ revision: number; withdrawn: string[] }> {
  const { flow, doc, account } = await revisableFlow(deps, session, input.flowId, input.documentId);
  const now = deps.clock.now();
  // The same checks as an upload: a file that cannot be signed is refused, naming why; nothing changes.
  let parsed: Awaited<ReturnType<typeof inspectPdf>>;
  try {
    parsed = await inspectPdf(file.bytes);
  } catch (err) {
    const refusal = pdfRefusal(err);
    if (!refusal || !(err instanceof PdfRejected)) throw err;
    throw new AppError(Code.Refused, refusal.text);
  }
  const parties = await partiesOf(deps.db, flow.id);
  const signed = parties.filter((p) => p.status === 'signed');
  const docs = await flowDocuments(deps.db, flow.id);
  const withdraws = signed.length > 0 || (await rq.standingSignatureCount(deps.db, flow.id)) > 0;
  const withdrawn = signed.map(partyLabel);
  if (withdraws && input.withdrawSignatures !== 'true')
    throw new AppError(Code.Refused, R.signedAlready(withdrawn), { data: { signedParties: withdrawn } });

  const fieldRows = (await fieldsOfFlow(deps.db, flow.id)).filter((f) => f.documentId === doc.id);
  const placed = await placeAgain(parties, fieldRows, doc.id, placementDoc(file.bytes, parsed.pageSizes));
  const planned: PlannedField[] = placed.fields.map(({ row, place }) => ({
    id: row.id,
    documentId: doc.id,
    key: row.key,
    label: row.label,
    kind: row.kind,
    isRequired: row.isRequired,
    options: jsonOf<string[] | null>(row.options),
    page: place.page,
    rect: place.rect,
    pdfName: row.pdfName,
  }));
  const ready = await readyForSigning(
    deps,
    file.bytes,
    doc.verificationCode ?? '',
    formFieldsOf(planned, doc.id),
    doc.name,
  );

  const user = await findUserById(deps.db, session.userId);
  const actor = await sessionActor(deps, session, req, account.companyName);
  const from = flow.revision ?? 1;
  const revision = from + 1;
  const note = input.note?.trim() || null;
  const firstRows = from === 1 ? await launchRevisionRows(deps, flow, docs) : [];
  // Withdrawing: the flow's other signed documents go back to their latest revision's file (unsigned), so
  // that no withdrawn signature stays in a file the parties sign again.
  const known = from === 1 ? firstRows : await rq.revisionsOf(deps.db, flow.id);
  const resets = withdraws
    ? docs
        .filter((d) => d.id !== doc.id && d.signatureCount > 0)
        .map((d) => ({ d, base: known.find((r) => r.documentId === d.id) }))
        .filter((x): x is { d: Document; base: Omit<rq.RevisionRow, 'createdAt'> } => x.base !== undefined)
    : [];
  const afterCommit = await deps.db.transaction(async (tx) => {
    if (!(await rq.nextRevision(tx, flow.id, from, withdraws)))
      throw new AppError(Code.Refused, R.revisionMoved);
    // A signature stored meanwhile (the pointer moved) loses this revision, as a second revision would.
    const moved = await reviseVersion(tx, doc, {
      key: ready.key,
      sha: ready.sha,
      size: ready.size,
      pages: parsed.pages,
      pageSizes: parsed.pageSizes,
      now,
    });
    if (!moved) throw new AppError(Code.Refused, R.revisionMoved);
    for (const r of firstRows) await rq.insertRevision(tx, { ...r, at: dateOf(flow.createdAt) });
    await rq.insertRevision(tx, {
      flowId: flow.id,
      revision,
      documentId: doc.id,
      blobKey: ready.key,
      sha256: ready.sha,
      size: ready.size,
      pages: parsed.pages,
      createdBy: session.userId,
      createdByName: user?.name ?? null,
      note,
      at: now,
    });
    for (const p of placed.positions) await rq.setPartyPositions(tx, p.party.id, p.positions);
    for (const f of placed.fields) await rq.setFieldPlace(tx, f.row.id, f.place);
    if (withdraws) await rq.withdrawSignatures(tx, flow.id, now);
    for (const { d, base } of resets) {
      const back = { key: base.blobKey, sha: base.sha256, size: base.size, pages: d.pages, now };
      if (!(await reviseVersion(tx, d, { ...back, pageSizes: d.pageSizes })))
        throw new AppError(Code.Refused, R.revisionMoved);
      await appendAudit(tx, {
        ...actor,
        flowId: flow.id,
        documentId: d.id,
        event: 'revise',
        detail: `revision ${revision} · signatures withdrawn: ${withdrawn.join(', ')}`.slice(0, 1000),
        at: now,
        hashBefore: d.currentSha256,
        hashAfter: base.sha256,
        isDocumentLocked: true,
      });
    }
    await appendAudit(tx, {
      ...actor,
      flowId: flow.id,
      documentId: doc.id,
      event: 'revise',
      detail: `revision ${revision}${ready.noFooter ? ` · no footer (${ready.noFooter})` : ''}${
        withdrawn.length ? ` · signatures withdrawn: ${withdrawn.join(', ')}` : ''
      }${note ? ` · note: ${note}` : ''}`.slice(0, 1000),
      at: now,
      hashBefore: doc.currentSha256,
      hashAfter: ready.sha,
      isDocumentLocked: true,
    });
    return storeFlowEvent(deps, tx, 'flow.revised', flow.id);
  });

  // Every party is told; the first step's parties whose signature was withdrawn get their links again.
  const who = flow.initiatorCompanyName ?? flow.initiatorName ?? '';
  const notice = R.revisedNotice(flow.title, revision, who, withdraws);
  const now2 = await findFlow(deps.db, flow.id);
  const told = new Set<string>();
  for (const p of await partiesOf(deps.db, flow.id)) {
    if (withdraws && p.stepIndex === 0 && signed.some((s) => s.id === p.id)) await askToSign(deps, now2!, p);
    const key = `${p.phone}|${p.companyId}`;
    if (told.has(key)) continue;
    told.add(key);
    await notify(
      deps,
      { phone: p.phone, companyId: p.companyId },
      {
        kind: 'revised',
        ...notice,
        flowId: flow.id,
        link: null,
        mail: { flowTitle: flow.title, who },
      },
    );
  }
  await afterCommit();
  return { revision, withdrawn };
}

// ---------------------------------------------------------------------------------------------------------
// Reading

const downloadUrlOf = (flowId: string, revision: number, documentId: string) =>
  `${FLOW_REVISION_PATH}/${flowId}/${revision}/${documentId}`;

/** Every revision of the flow, newest first; before any revision, the launched files as revision 1. */
async function revisionRows(deps: AppDeps, flow: Flow): Promise<rq.RevisionRow[]> {
  const stored = await rq.revisionsOf(deps.db, flow.id);
  if (stored.length) return stored;
  const docs = await flowDocuments(deps.db, flow.id);
  return (await launchRevisionRows(deps, flow, docs)).map((r) => ({ ...r, createdAt: flow.createdAt }));
}

function present(r: rq.RevisionRow, names: Map<string, string>): FlowRevision {
  return {
    revision: r.revision,
    documentId: r.documentId,
    documentName: names.get(r.documentId) ?? '',
    sha256: r.sha256,
    size: r.size,
    pages: r.pages,
    createdByName: r.createdByName,
    note: r.note,
    createdAt: dateOf(r.createdAt).toISOString(),
    downloadUrl: downloadUrlOf(r.flowId, r.revision, r.documentId),
  };
}

export async function listRevisions(deps: AppDeps, reader: Reader, flowId: string) {
  const { flow } = await flowAccess(deps, reader, flowId);
  const names = new Map((await flowDocuments(deps.db, flow.id)).map((d) => [d.id, d.name]));
  return {
    currentRevision: flow.revision ?? 1,
    items: (await revisionRows(deps, flow)).map((r) => present(r, names)),
  };
}

/** The file of one document at one revision: the latest revision up to `revision` that holds it. */
async function revisionOf(deps: AppDeps, flow: Flow, revision: number, documentId: string) {
  const rows = await revisionRows(deps, flow);
  const found = rows.find((r) => r.documentId === documentId && r.revision <= revision);
  if (!found || revision > (flow.revision ?? 1)) throw new AppError(Code.NotFound, R.revisionNotFound);
  return { ...found, revision };
}

export async function revisionFile(
  deps: AppDeps,
  reader: Reader,
  flowId: string,
  revision: number,
  documentId: string,
) {
  const { flow } = await flowAccess(deps, reader, flowId);
  const row = await revisionOf(deps, flow, revision, documentId);
  const doc = await findDocument(deps.db, documentId);
  const name = (doc?.name ?? 'document.pdf').replace(/\.pdf$/i, '');
  return { bytes: await blobBytes(deps, row.blobKey), filename: `${name}-r${revision}.pdf` };
}

export async function compareRevisions(
  deps: AppDeps,
  reader: Reader,
  input: { flowId: string; documentId: string; older: number; newer: number },
): Promise<{ older: FlowRevision; newer: FlowRevision; pages: PageDiff[] }> {
  const { flow } = await flowAccess(deps, reader, input.flowId);
  if (input.older === input.newer) throw new AppError(Code.Refused, R.sameRevision);
  const [lo, hi] = input.older < input.newer ? [input.older, input.newer] : [input.newer, input.older];
  const a = await revisionOf(deps, flow, lo, input.documentId);
  const b = await revisionOf(deps, flow, hi, input.documentId);
  const names = new Map((await flowDocuments(deps.db, flow.id)).map((d) => [d.id, d.name]));
  const pages = await comparePages(await blobBytes(deps, a.blobKey), await blobBytes(deps, b.blobKey));
  return { older: present(a, names), newer: present(b, names), pages };
}
