import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';

// What the company module tells the modules above it, without importing them (lib/hooks.ts, server/README.md).

/**
 * "Put this notice in the person's message list (/message)": the flow module, which keeps that list, answers.
 * `phone` is the recipient's (the list is per phone, so an unregistered phone finds it after registering);
 * the notice is the person's own, not a company's. Title and text carry both languages, as the list's others.
 */
export const companyNotice = defineHook<{
  deps: AppDeps;
  phone: string;
  kind: 'company_invitation';
  title: string;
  text: string;
  /** SPA path (hash router) the message opens. */
  link: string;
}>('company.notice');

/** A hand-over of one member's work to another (issue 27), as each module that keeps such work sees it. */
export type MemberHandover = {
  deps: AppDeps;
  /** The transaction of the whole hand-over: every listener writes in it, so all of it moves or none. */
  tx: Exec;
  companyId: string;
  fromUserId: string;
  /** `from`'s phone: parties and links are addressed to phones. */
  fromPhone: string;
  toUserId: string;
  toPhone: string;
  toName: string | null;
  /** The administrator who hands over. */
  byUserId: string;
  now: Date;
  /** Only count what would move (previewHandover): change nothing. */
  dryRun: boolean;
};

/** A listener's answer: how many of each kind of row it moved (or would move), and what to do after commit. */
export type MemberHandoverAnswer = {
  counts: Record<string, number>;
  /** Runs once the transaction committed (sending `to` the links of what they now sign); never on a dry run. */
  afterCommit?: () => Promise<void>;
};

/**
 * "Hand `from`'s open work in this company to `to`": each module that keeps a member's work answers for its own
 * rows, in the caller's transaction — flow (open flows launched, open parties addressed to `from`), template
 * (templates created), seal (live seal authorisations, seal keepings). Rows of other members, other companies
 * and closed work stay. A module added later (approvals, authorisation letters) answers it the same way.
 */
export const memberHandover = defineHook<MemberHandover, MemberHandoverAnswer>('company.memberHandover');

/**
 * "The verified real names of these users": the person module, which keeps identities, answers (a user without
 * one is left out). The member lists mark the legal representative by it.
 */
export const verifiedNames = defineHook<{ deps: AppDeps; userIds: string[] }, Map<string, string>>(
  'company.verifiedNames',
);
