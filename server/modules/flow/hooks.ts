import { defineHook } from '../../lib/hooks.ts';

// Points inside a signature where tests inject a failure or a pause (crash safety and races). Nothing
// listens to them in the product; a listener's failure is the signature's failure.

/** After a signed version is written as a blob, before the document's version pointer moves. */
export const afterBlobWrite = defineHook<{ documentId: string }>('flow.afterBlobWrite');

/** After the transaction that stored a flow's last signature, before its completion. */
export const afterLastSignature = defineHook<{ flowId: string }>('flow.afterLastSignature');
