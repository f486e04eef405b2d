// Bulk sending for integrators (issue 28): rows as JSON, checked as a sheet would be; sending starts when every
// row is good (or with onlyGood); the batch's progress and rows. Webhook `bulk_send.completed` when done.
import {
  zBulkSummary,
  zBulkRow,
  zOpenBulkIdParams,
  zOpenBulkQuery,
  zOpenBulkSendAnswer,
  zOpenBulkSendBody,
} from '#contract/calls/bulk.ts';
import { zPage } from '#contract/envelope.ts';
import { checkJsonRows, getBulkSend, startBulkSend } from '../../modules/bulk/index.ts';
import { defineOpenRoute } from '../route.ts';

export const bulkSendRoutes = [
  defineOpenRoute({
    method: 'POST',
    path: '/bulk-sends',
    operationId: 'createBulkSend',
    tag: 'bulk-sends',
    summary:
      'Checks up to 1,000 rows for a template (keys: the headers of the template’s bulk sheet, Chinese or English) ' +
      'and answers the problems by row (the first element is row 1) and column; starts sending one flow per ' +
      'good row when every row is good, or with onlyGood.',
    scope: 'flows:write',
    body: zOpenBulkSendBody,
    response: zOpenBulkSendAnswer,
    handler: async ({ deps, caller, body, lang }) => {
      const check = await checkJsonRows(deps, caller.actor, body, lang);
      const started = check.good > 0 && (check.problems.length === 0 || body.onlyGood);
      if (started) await startBulkSend(deps, caller.actor, check.bulkId, body.onlyGood);
      return { ...check, started };
    },
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/bulk-sends/:bulkId',
    operationId: 'getBulkSend',
    tag: 'bulk-sends',
    summary: 'A bulk send of the key’s account: status, counts and a page of its rows (with their flows).',
    scope: 'flows:read',
    params: zOpenBulkIdParams,
    query: zOpenBulkQuery,
    response: zBulkSummary.extend({ rows: zPage(zBulkRow) }),
    handler: ({ deps, caller, params, query, lang }) =>
      getBulkSend(deps, caller.actor, { bulkId: params.bulkId, ...query }, lang),
  }),
];
