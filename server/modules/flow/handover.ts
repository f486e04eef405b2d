import type { MemberHandover, MemberHandoverAnswer } from '../company/index.ts';
import * as hq from './handover-queries.ts';
import { findFlow, findParty, sendLink } from './model.ts';

/**
 * The flow module's part of a member's hand-over (company's memberHandover hook), in the hand-over's
 * transaction: the open flows `from` launched for the company become `to`'s, and the open company parties
 * addressed to `from` are readdressed to `to` (`from`'s links and rooms for them stop working). Once the
 * hand-over committed, `to` is sent the link of each pending one. A dry run only counts.
 */
export async function handOverFlows(e: MemberHandover): Promise<MemberHandoverAnswer> {
  const who = { companyId: e.companyId, fromUserId: e.fromUserId, fromPhone: e.fromPhone };
  if (e.dryRun) return { counts: await hq.handoverCounts(e.tx, who) };
  const flows = await hq.moveInitiator(e.tx, { ...who, toUserId: e.toUserId, toName: e.toName });
  const parties = await hq.readdressParties(e.tx, {
    ...who,
    toPhone: e.toPhone,
    toName: e.toName,
    now: e.now,
  });
  return {
    counts: { flows, parties: parties.length },
    afterCommit: async () => {
      for (const p of parties.filter((x) => x.status === 'pending')) {
        const [flow, party] = [await findFlow(e.deps.db, p.flowId), await findParty(e.deps.db, p.id)];
        if (flow && party?.status === 'pending') await sendLink(e.deps, flow, party, 'sign_request');
      }
    },
  };
}
