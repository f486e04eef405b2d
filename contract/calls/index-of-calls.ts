import type { CallDef } from '../envelope.ts';
import { companyCalls } from './company.ts';
import { personCalls } from './person.ts';
import { partnerCalls } from './partner.ts';
import { sealCalls } from './seal.ts';
import { sessionCalls } from './session.ts';
import { documentCalls } from './document.ts';
import { flowCalls } from './flow.ts';

/**
 * Every call of the contract, for the server to register and for OpenAPI.
 * A domain adds its `<domain>Calls` array here when it arrives.
 */
export const allCalls: readonly CallDef[] = [...sessionCalls, ...partnerCalls, ...personCalls, ...companyCalls, ...sealCalls, ...documentCalls, ...flowCalls];
