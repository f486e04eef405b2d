import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';

// What the seal module asks the modules above it, without importing them (lib/hooks.ts, README.md).

/**
 * "Which user does this signing-room token act as?": a seal image may be shown in a signing room opened
 * by a link, without a session. The flow module (which owns room tokens) answers the user, or null for a
 * token it does not know or that has expired. Any other failure is thrown (a database error is not "no
 * access").
 */
export const roomTokenUser = defineHook<{ deps: AppDeps; roomToken: string }, string | null>(
  'seal.roomTokenUser',
);

/**
 * "Does a contract still being signed carry this seal in a signature?": deleting it then would leave the
 * unfinished contract with a seal its owner no longer has. The flow module (which owns the signatures)
 * answers.
 */
export const sealInUnfinishedSigning = defineHook<{ deps: AppDeps; sealId: string }, boolean>(
  'seal.sealInUnfinishedSigning',
);

/**
 * "A seal authorisation was revoked": the authorisation module ends the member letter issued with it (issue 27),
 * so revoking either ends both.
 */
export const sealAuthorisationEnded = defineHook<{
  deps: AppDeps;
  companyId: string;
  authorisationId: string;
  by: string | null;
}>('seal.sealAuthorisationEnded');

/** A company seal another company's member may use under a cross-company grant (issue 27). */
export type SealGrant = {
  sealId: string;
  /** The letter that grants it: shown to people (SQ-…). */
  letterNumber: string;
};

/**
 * "Which seals of this company may this user use now under a cross-company grant?": accepted `company`
 * letters of the company in force now, granted to a company where the user is an active administrator or
 * handler. The authorisation module (which owns the letters) answers; no listener, no grant.
 */
export const sealGrants = defineHook<{ deps: AppDeps; companyId: string; userId: string }, SealGrant[]>(
  'seal.sealGrants',
);
