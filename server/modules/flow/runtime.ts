import type { AppDeps } from '../../deps.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import type { pkiFor } from '../pki/index.ts';

/** A holder's decrypted signing material (certificate and key), as the PKI hands it out. */
export type Material = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof pkiFor>>['signer']>>>;

/** Audit report builds under way, per flow id. */
export type ReportBuilds = Map<string, Promise<Uint8Array>>;

/**
 * What the flow module keeps in memory for one app (deps.perApp, made on first use; never module-level state,
 * so every app a test builds has its own). flowModule.register passes it down to the calls that use it; the
 * downloads served to other callers (the integrator API) take it with flowRuntimeOf.
 */
export type FlowRuntime = {
  /** Decrypted signing material per holder (`userType:accountId`), at most 1000, checked against the current certificate on every use. */
  materials: Map<string, Material>;
  /** Report builds under way: a download during the background build waits for it; closing waits for all. */
  reportBuilds: ReportBuilds;
};

export const createFlowRuntime = (): FlowRuntime => ({ materials: new Map(), reportBuilds: new Map() });

const RUNTIME = definePerAppSlot<FlowRuntime>('flow-runtime');

/** The app's flow runtime. */
export const flowRuntimeOf = (deps: AppDeps): FlowRuntime => deps.perApp.get(RUNTIME, createFlowRuntime);
