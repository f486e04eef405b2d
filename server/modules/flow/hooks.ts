import { defineHook } from '../../lib/hooks.ts';
import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';

// Points inside a signature where tests inject a failure or a pause (crash safety and races). Nothing
// listens to them in the product; a listener's failure is the signature's failure.

/** After a signed version is written as a blob, before the document's version pointer moves. */
export const afterBlobWrite = defineHook<{ documentId: string }>('flow.afterBlobWrite');

/** After the transaction that stored a flow's last signature, before its completion. */
export const afterLastSignature = defineHook<{ flowId: string }>('flow.afterLastSignature');

/** What a flow event names: the webhook events (issue 13). */
export type FlowEventType =
  | 'flow.launched'
  | 'party.opened'
  | 'party.signed'
  | 'party.refused'
  | 'flow.completed'
  | 'flow.expired'
  | 'flow.cancelled'
  | 'comment.created'
  | 'party.reassigned'
  | 'flow.deadline_changed'
  | 'flow.voided'
  | 'flow.revised'
  /** issue 29: a completed flow's term ends soon (`term`) */
  | 'flow.term_ending';

/**
 * One moment in a flow's life, told after it is stored (its transaction committed). `account` is the
 * launching account: the only one told (its webhook endpoints). `party` is what the launcher sees of a
 * party (no phone); `reason` a cancel or refusal reason.
 */
export type FlowEvent = {
  type: FlowEventType;
  at: Date;
  flowId: string;
  title: string;
  status: string;
  account: { ownerType: 0 | 1; ownerId: string };
  party?: {
    partyId: string;
    step: number;
    kind: 'person' | 'company';
    name: string | null;
    companyName: string | null;
    status: string;
  };
  reason?: string | null;
  /** comment.created (issue 29): the comment, as listFlowComments shows it, with its thread. */
  comment?: FlowEventComment;
  /** flow.term_ending: the term's end (Beijing date) and the whole days left. */
  term?: { endsOn: string; daysLeft: number };
};

/** What the `comment.created` event tells of the comment. */
export type FlowEventComment = {
  commentId: string;
  threadId: string;
  revision: number;
  author: { role: 'launcher' | 'party'; partyNumber: number | null; name: string };
  body: string;
  anchor: { documentId: string; page: number | null; x: number | null; y: number | null } | null;
};

/** What a `flowEvent` listener does once the change's transaction has committed (e.g. queue deliveries). */
export type AfterCommit = () => Promise<void>;

/**
 * Asked at launch, a party's first room view, a signature, a refusal, completion, expiry (both the
 * on-access check and the sweep go through endFlow) and cancel, inside the transaction that stores the
 * change (`tx`): a listener stores what it needs with `tx` (so the event exists exactly when the change
 * does: an outbox) and answers what to do after the commit. The webhook module listens.
 */
export const flowEvent = defineHook<{ deps: AppDeps; tx: Exec; event: FlowEvent }, AfterCommit | null>(
  'flow.event',
);

/** An automatic-signing authorisation (issue 27) that covers a company party now. */
export type AutoSignCover = {
  letterId: string;
  /** Shown to people (SQ-…): the signature's reason and the audit entry name it. */
  number: string;
  /** The company seal the letter authorises, and its type. */
  sealId: string;
  sealType: number | null;
  /** Who issued the letter: the signature's user of record (party_signatures.signer_user_id). */
  issuedBy: string;
};

/**
 * "Does an automatic-signing letter of this company cover a flow from this template or API key now?" (with
 * `letterId`: "is that letter still in force?"). The authorisation module answers; no listener, no letter.
 */
export const autoSignCover = defineHook<
  {
    deps: AppDeps;
    companyId: string;
    templateId: string | null;
    apiKeyId: string | null;
    /** Whether a seal of this type fills the party's company-seal slot. */
    sealFits: (sealType: number | null) => boolean;
    letterId?: string;
  },
  AutoSignCover | null
>('flow.autoSignCover');

/**
 * "Count one use of this letter", inside the transaction of the party's first automatic signature: false when
 * the letter is no longer in force or its count is reached (the transaction is then rolled back).
 */
export const useLetter = defineHook<{ deps: AppDeps; tx: Exec; letterId: string; now: Date }, boolean>(
  'flow.useLetter',
);

/**
 * "Which authorisation letter covers this member's use of these company seals now?" (a member letter, or the
 * cross-company grant a member of another company seals under, issue 27): its number goes into the `sign`
 * audit entry. The authorisation module answers.
 */
export const memberLetterCover = defineHook<
  { deps: AppDeps; companyId: string; userId: string; sealIds: string[]; now: Date },
  string | null
>('flow.memberLetterCover');
