// Typed client of contract/calls/sign-config.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/sign-config.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { ConfigParty, RoleKind, SignConfig } from '#contract/calls/sign-config.ts';
export type SaveSignConfigRequest = Req<typeof calls.saveSignConfig>;
export type ConfigStep = SaveSignConfigRequest['steps'][number];

export const saveSignConfig = (body: Req<typeof calls.saveSignConfig>) =>
  post<Res<typeof calls.saveSignConfig>>(`${CSIGN}/saveSignConfig`, body);

export const getSignConfig = (body: Req<typeof calls.getSignConfig>) =>
  post<Res<typeof calls.getSignConfig>>(`${CSIGN}/getSignConfig`, body);

export const listSignConfigs = (body: Req<typeof calls.listSignConfigs>) =>
  post<Res<typeof calls.listSignConfigs>>(`${CSIGN}/listSignConfigs`, body);

export const deleteSignConfig = (body: Req<typeof calls.deleteSignConfig>) =>
  post<Res<typeof calls.deleteSignConfig>>(`${CSIGN}/deleteSignConfig`, body);
