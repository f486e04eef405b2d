import type { AppDeps } from '../../deps.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import type { pkiFor } from '../pki/index.ts';

/** A holder's decrypted signing material (certificate and key), as the PKI hands it out. */
export type Material = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof pkiFor>>['signer']>>>;

/** Audit report builds under way, per flow id. */
export type ReportBuilds = Map<string, Promise<Uint8Array>>;

/**
 * What the flow module keeps in memory for one app: on the app's perApp (flowRuntimeOf), made on first use
 * by flowModule.register, the flow sweep job or the downloads served to other callers (the integrator
 * API), and passed down to the calls that use it (never module-level state, so every app a test builds
 * has its own).
 */
export type FlowRuntime = {
  /** Decrypted signing material per holder (`userType:accountId`), at most 1000, checked against the current certificate on every use. */
  materials: Map<string, Material>;
  /** Report builds under way: a download during the background build waits for it; closing waits for all. */
  reportBuilds: ReportBuilds;
};

const createFlowRuntime = (): FlowRuntime => ({ materials: new Map(), reportBuilds: new Map() });

const FLOW_RUNTIME = definePerAppSlot<FlowRuntime>('flow.runtime');

/** The flow runtime of this app. */
export const flowRuntimeOf = (deps: Pick<AppDeps, 'perApp'>): FlowRuntime =>
  deps.perApp.get(FLOW_RUNTIME, createFlowRuntime);
