// Typed client of contract/calls/centre.ts, the contract centre (types only from the contract).
import type * as calls from '#contract/calls/centre.ts';
import * as P from '#contract/paths/centre.ts';
import { call } from './http.ts';
import { downloadAt } from './transfer.ts';

export type {
  CentreFilter,
  CentreFolder,
  CentreTag,
  CentreView,
  ContractItem,
  ContractsZip,
} from '#contract/calls/centre.ts';

export const searchContracts = call<typeof calls.searchContracts>(P.searchContracts);
export const getCentreLabels = call<typeof calls.getCentreLabels>(P.getCentreLabels);
export const saveCentreTag = call<typeof calls.saveCentreTag>(P.saveCentreTag);
export const deleteCentreTag = call<typeof calls.deleteCentreTag>(P.deleteCentreTag);
export const saveCentreFolder = call<typeof calls.saveCentreFolder>(P.saveCentreFolder);
export const deleteCentreFolder = call<typeof calls.deleteCentreFolder>(P.deleteCentreFolder);
export const tagContracts = call<typeof calls.tagContracts>(P.tagContracts);
export const moveContracts = call<typeof calls.moveContracts>(P.moveContracts);
export const saveCentreView = call<typeof calls.saveCentreView>(P.saveCentreView);
export const deleteCentreView = call<typeof calls.deleteCentreView>(P.deleteCentreView);
export const startContractsZip = call<typeof calls.startContractsZip>(P.startContractsZip);
export const getContractsZip = call<typeof calls.getContractsZip>(P.getContractsZip);

/** The GET URL of a ready zip (with the session cookie). */
export const contractsZipUrl = (zipId: string) => downloadAt(P.downloadContractsZip, [zipId]);
