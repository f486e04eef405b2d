// Typed client of contract/calls/rescission.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/rescission.ts';
import * as P from '#contract/paths/rescission.ts';
import { call, type Res } from './http.ts';

export type { RescissionFlowRef, RescissionNote } from '#contract/calls/rescission.ts';
export type RescissionState = Res<typeof calls.getRescission>;

export const startRescission = call<typeof calls.startRescission>(P.startRescission);
export const getRescission = call<typeof calls.getRescission>(P.getRescission);
