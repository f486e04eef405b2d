/**
 * An e-signature account: a person's (ownerType 0, ownerId the user's id) or a company's (1, the company's
 * id). Documents, flows, templates, sign configs, quotas, API keys and webhooks belong to one; every query
 * of theirs is scoped to it.
 */
export type Account = { ownerType: 0 | 1; ownerId: string };
