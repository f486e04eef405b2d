/**
 * Who acts in a use case: a user, the account they act for (the person, or the company whose member they
 * are: `userType` 1 and `companyId`), and how they were proven. Every service of a module takes an Actor, so
 * the workspace's calls (a logged-in session), the integrator API (an API key of the account) and a signing
 * room (its token, for the room's signer) pass the same thing and meet the same rules.
 */
export type Actor = {
  userId: string;
  /** 0 person, 1 company (contract/enums.ts UserType). */
  userType: number;
  /** The company acted for (userType 1), else null. */
  companyId: string | null;
  via: ActorVia;
};

/** How the actor was proven: a login session, an API key of the account, or a signing room's token. */
type ActorVia =
  | { kind: 'session'; sessionId: string }
  | { kind: 'apiKey'; keyId: string }
  | { kind: 'room'; tokenHash: string };
