import { createHash } from 'node:crypto';
import {
  MONITORED_SERVICES,
  type MonitoredService,
  SERVICE_CHECK_TIMEOUT_MS,
  type ServiceCheck,
  ServiceState,
} from '#contract/calls/monitor.ts';
import type { AppDeps } from '../../deps.ts';
import { pkiFor } from '../pki/index.ts';
import { pingDatabase } from './queries.ts';

// A fixed probe: the store is content-addressed, so writing it again costs nothing and names the same blob.
// No document can be these bytes (it is not a PDF or image), so the probe never shares a key with user data.
const STORAGE_PROBE = new TextEncoder().encode('esign-monitor-probe/v1');

/** A failure the screen may show: a few words, no internal message. */
class CheckProblem extends Error {}

type Check = (deps: AppDeps) => Promise<void>;

const checks: Record<MonitoredService, Check> = {
  async database(deps) {
    await pingDatabase(deps.db);
  },
  async storage(deps) {
    const key = await deps.storage.put(STORAGE_PROBE);
    const back = await deps.storage.get(key);
    if (!back || Buffer.compare(Buffer.from(back), Buffer.from(STORAGE_PROBE)) !== 0)
      throw new CheckProblem('probe read back differs');
  },
  async ca(deps) {
    const pki = await pkiFor(deps);
    const now = deps.clock.now();
    const issuing = pki.ca.issuing.cert;
    if (now < issuing.notBefore || now > issuing.notAfter) throw new CheckProblem('issuing CA not valid now');
    // Signing a CRL proves the issuing key can be unwrapped and used, not only that files exist.
    const crl = await pki.crl();
    if (crl.length === 0) throw new CheckProblem('empty CRL');
  },
  async tsa(deps) {
    const pki = await pkiFor(deps);
    const imprint = createHash('sha256').update(`monitor ${deps.clock.now().toISOString()}`).digest();
    const token = await pki.timestamp(new Uint8Array(imprint));
    if (token.length === 0) throw new CheckProblem('empty token');
  },
};

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckProblem(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Runs one check and times it; any failure is logged in full and reported as down with a short reason. */
async function runCheck(
  deps: AppDeps,
  service: MonitoredService,
  check: Check = checks[service],
  timeoutMs = SERVICE_CHECK_TIMEOUT_MS,
): Promise<ServiceCheck> {
  const started = performance.now();
  try {
    await withTimeout(check(deps), timeoutMs);
    return { service, state: ServiceState.Up, ms: elapsed(started), problem: null };
  } catch (err) {
    // The question this check answers: a failing service is reported down (logged in full), not thrown.
    deps.log.error({ err, service }, 'monitor: service check failed');
    const problem = err instanceof CheckProblem ? err.message : 'check failed';
    return { service, state: ServiceState.Down, ms: elapsed(started), problem };
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/** Every service in turn (one after the other, so each time is that service's own, not a shared wait). */
export async function serviceStatus(
  deps: AppDeps,
  override: Partial<Record<MonitoredService, Check>> = {},
  timeoutMs = SERVICE_CHECK_TIMEOUT_MS,
) {
  const services: ServiceCheck[] = [];
  for (const service of MONITORED_SERVICES) {
    services.push(await runCheck(deps, service, override[service] ?? checks[service], timeoutMs));
  }
  const isUp = services.every((s) => s.state === ServiceState.Up);
  return {
    state: isUp ? ServiceState.Up : ServiceState.Down,
    checkedAt: deps.clock.now().toISOString(),
    services,
  };
}
