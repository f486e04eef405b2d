import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/monitor.ts';

/**
 * Service status for the public `/monitor` screen: each dependency the signing depends on is exercised once
 * (not just pinged) and timed. Details of a failure stay in the server log; the answer says only up or down.
 */

/** The services the status call checks, in the order the screen shows them. */
export const MONITORED_SERVICES = ['database', 'storage', 'ca', 'tsa'] as const;
export type MonitoredService = (typeof MONITORED_SERVICES)[number];

export const ServiceState = { Up: 'up', Down: 'down' } as const;
export type ServiceState = (typeof ServiceState)[keyof typeof ServiceState];

/** A check that takes longer than this counts as down. */
export const SERVICE_CHECK_TIMEOUT_MS = 5000;

const zServiceCheck = z.object({
  service: z.enum(MONITORED_SERVICES),
  state: z.enum(['up', 'down']),
  /** Time the check took, in milliseconds (one decimal). */
  ms: z.number(),
  /** Why it is down, in a few words (never an internal message). Null when up. */
  problem: z.string().nullable(),
});
export type ServiceCheck = z.infer<typeof zServiceCheck>;

export const getServiceStatus = defineCall({
  call: P.getServiceStatus,
  auth: false,
  summary:
    'Status of the services signing depends on, each exercised and timed: database (a query), storage (a probe blob ' +
    'written and read back), CA (the issuing CA is within its validity and signs a CRL), TSA (issues a time-stamp ' +
    'token). A check slower than 5 s is down. `state` is up only when every service is up.',
  request: zBase,
  response: z.object({
    state: z.enum(['up', 'down']),
    checkedAt: z.string(),
    services: z.array(zServiceCheck),
  }),
});

export const monitorCalls = [getServiceStatus] as const;
