// The paths of contract/calls/sign-config.ts (zod-free: src/api/sign-config.ts imports them).
import { csign } from '../call-path.ts';

export const saveSignConfig = /* @__PURE__ */ csign('saveSignConfig');
export const getSignConfig = /* @__PURE__ */ csign('getSignConfig');
export const listSignConfigs = /* @__PURE__ */ csign('listSignConfigs');
export const deleteSignConfig = /* @__PURE__ */ csign('deleteSignConfig');
