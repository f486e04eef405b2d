// The room's side of seal-use approval (issue 27): the approval module decides; flow, which owns rooms,
// flows and parties, tells it which flow, party and document versions a request or a signature concerns.
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { type RoomUse, requestApproval, requireApprovedUse, roomApprovals } from '../approval/index.ts';
import { findDocument } from '../document/index.ts';
import { type Flow, type Party, findFlow, positionsOf } from './model.ts';
import { type Room, roomActor, roomState, signRefusal } from './room.ts';
import { F } from './texts.ts';

type Ctx = { ip?: string; userAgent?: string | null };

const amountOf = (flow: Flow) =>
  flow.amountFen === null || flow.amountFen === undefined ? null : Number(flow.amountFen);

/** The party's documents as they are now (the versions a request binds and a signature seals). */
async function partyDocuments(deps: AppDeps, party: Party): Promise<RoomUse['documents']> {
  const ids = [...new Set(positionsOf(party).map((p) => p.documentId))];
  const out: RoomUse['documents'] = [];
  for (const id of ids) {
    const d = await findDocument(deps.db, id);
    if (!d) throw new Error(`document ${id} of party ${party.id} is missing`);
    out.push({
      documentId: d.id,
      version: d.version,
      sha256: d.currentSha256,
      blobKey: d.currentKey,
      name: d.name,
      pages: d.pages,
    });
  }
  return out;
}

/** What approval needs of a company party's room: the company, the user, the flow, the party, its documents. */
async function roomUse(deps: AppDeps, room: Room, ctx: Ctx): Promise<RoomUse> {
  const { flow, party } = await roomState(deps, room);
  if (party.kind !== 'company' || !party.companyId) throw new AppError(Code.Refused, F.approvalOnlyCompany);
  if (!room.userId) throw new AppError(Code.SignerNoCertificate, F.noAccount);
  return {
    companyId: party.companyId,
    userId: room.userId,
    flow: {
      id: flow.id,
      title: flow.title,
      templateId: flow.templateId ?? null,
      amountFen: amountOf(flow),
      initiatorUserId: flow.initiatorUserId,
      initiatorCompanyName: flow.initiatorCompanyName,
    },
    party: { id: party.id, step: party.stepIndex + 1 },
    documents: await partyDocuments(deps, party),
    auditActor: await roomActor(deps, room, party, ctx),
  };
}

/** getRoomApprovals: nothing to approve for a person's party or a company not opened yet. */
export async function roomApprovalState(deps: AppDeps, room: Room, ctx: Ctx) {
  const { party } = await roomState(deps, room);
  if (party.kind !== 'company' || !party.companyId || !room.userId) return { seals: [] };
  return roomApprovals(deps, await roomUse(deps, room, ctx));
}

/** requestSealApproval: only while the party may sign (its turn, the flow open). */
export async function requestRoomApproval(deps: AppDeps, room: Room, sealId: string, ctx: Ctx) {
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  return requestApproval(deps, await roomUse(deps, room, ctx), sealId);
}

/**
 * Before a company party's seals are applied: each seal whose policy applies to the flow needs its approval
 * (approval's requireApprovedUse throws 1330 otherwise). Answers the approvals to mark used.
 */
export async function approvalsForSealing(
  deps: AppDeps,
  room: Room,
  party: Party,
  companyId: string,
  userId: string,
  sealIds: string[],
): Promise<string[]> {
  if (sealIds.length === 0) return [];
  // signAsParty read the flow fresh (and expired it when due) just before.
  const flow = await findFlow(deps.db, room.flowId);
  if (!flow) throw new AppError(Code.NotFound, F.flowNotFound);
  const documents = (await partyDocuments(deps, party)).map(({ documentId, version, sha256 }) => ({
    documentId,
    version,
    sha256,
  }));
  const ids: string[] = [];
  for (const sealId of sealIds) {
    const id = await requireApprovedUse(deps, {
      companyId,
      sealId,
      flowId: flow.id,
      partyId: party.id,
      userId,
      templateId: flow.templateId ?? null,
      amountFen: amountOf(flow),
      documents,
    });
    if (id) ids.push(id);
  }
  return ids;
}
