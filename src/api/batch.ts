// Typed client of contract/calls/batch.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/batch.ts';
import * as P from '#contract/paths/batch.ts';
import { call, type Res } from './http.ts';

export type { BatchSignable, SealChoice, SignBatch } from '#contract/calls/batch.ts';
export type PreparedBatch = Res<typeof calls.prepareSignBatch>;

/** The contract's constant (batch.ts holds zod, so repeated here and typed against it). */
export const MAX_BATCH_PARTIES: typeof calls.MAX_BATCH_PARTIES = 500;

export const listBatchSignable = call<typeof calls.listBatchSignable>(P.listBatchSignable);
export const prepareSignBatch = call<typeof calls.prepareSignBatch>(P.prepareSignBatch);
export const sendSignBatchCode = call<typeof calls.sendSignBatchCode>(P.sendSignBatchCode);
export const startSignBatchFace = call<typeof calls.startSignBatchFace>(P.startSignBatchFace);
export const startSignBatch = call<typeof calls.startSignBatch>(P.startSignBatch);
export const getSignBatch = call<typeof calls.getSignBatch>(P.getSignBatch);
