// Typed client of contract/calls/platform.ts and monitor.ts (types only from the contract).
import type * as monitor from '#contract/calls/monitor.ts';
import type * as platform from '#contract/calls/platform.ts';
import * as monitorPaths from '#contract/paths/monitor.ts';
import * as platformPaths from '#contract/paths/platform.ts';
import { call, type Res } from './http.ts';

export type { ServiceCheck } from '#contract/calls/monitor.ts';
export type PlatformConfig = Res<typeof platform.getPlatformConfig>;
export type ServiceStatus = Res<typeof monitor.getServiceStatus>;

export const getPlatformConfig = call<typeof platform.getPlatformConfig>(platformPaths.getPlatformConfig);

export const getServiceStatus = call<typeof monitor.getServiceStatus>(monitorPaths.getServiceStatus);
