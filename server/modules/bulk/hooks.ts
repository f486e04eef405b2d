import { defineHook } from '../../lib/hooks.ts';

// What bulk sending tells: only the crash tests listen (nothing in the product does).

/** After a row's flow was launched, before the row records it (a server killed here must not send it twice). */
export const afterRowLaunch = defineHook<{ bulkId: string; rowNo: number; flowId: string }>(
  'bulk.afterRowLaunch',
);
