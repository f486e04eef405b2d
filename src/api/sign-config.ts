// Typed client of contract/calls/sign-config.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/sign-config.ts';
import * as P from '#contract/paths/sign-config.ts';
import { call, type Req } from './http.ts';

export type { SignConfig } from '#contract/calls/sign-config.ts';
type SaveSignConfigRequest = Req<typeof calls.saveSignConfig>;
export type ConfigStep = SaveSignConfigRequest['steps'][number];

export const saveSignConfig = call<typeof calls.saveSignConfig>(P.saveSignConfig);

export const getSignConfig = call<typeof calls.getSignConfig>(P.getSignConfig);

export const listSignConfigs = call<typeof calls.listSignConfigs>(P.listSignConfigs);

export const deleteSignConfig = call<typeof calls.deleteSignConfig>(P.deleteSignConfig);
