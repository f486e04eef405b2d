// The state of the key's company's authorisation letters (issue 27): list and read (the authorisation module's
// services; the letter PDF stays in the workspace).
import {
  zAuthorisation,
  zAuthorisationIdParams,
  zAuthorisationPage,
  zListAuthorisationsQuery,
} from '#contract/open/v1.ts';
import { authorisationForKey, authorisationsForKey } from '../../modules/authorisation/index.ts';
import { defineOpenRoute } from '../route.ts';

/** The integrator's view of a letter: no workspace URL, no caller-relative flag. */
const openLetter = <L extends { pdfUrl: string; isMine: boolean }>({ pdfUrl: _u, isMine: _m, ...rest }: L) =>
  rest;

export const authorisationRoutes = [
  defineOpenRoute({
    method: 'GET',
    path: '/authorisations',
    operationId: 'listAuthorisations',
    tag: 'authorisations',
    summary:
      'Authorisation letters of the key’s company (issued by it or granted to it), newest first: kind, grantee, ' +
      'seals, templates and API keys, period, uses, state (pending, active, not_yet, expired, used_up, revoked).',
    scope: 'authorisations:read',
    query: zListAuthorisationsQuery,
    response: zAuthorisationPage,
    handler: async ({ deps, caller, query }) => {
      const page = await authorisationsForKey(deps, caller.actor, query);
      return { ...page, list: page.list.map(openLetter), pageNum: query.pageNum, pageSize: query.pageSize };
    },
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/authorisations/:letterId',
    operationId: 'getAuthorisation',
    tag: 'authorisations',
    summary: 'One authorisation letter of the key’s company; another company’s is 1101.',
    scope: 'authorisations:read',
    params: zAuthorisationIdParams,
    response: zAuthorisation,
    handler: async ({ deps, caller, params }) =>
      openLetter(await authorisationForKey(deps, caller.actor, params.letterId)),
  }),
];
