// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { roomTokenUser, sealInUnfinishedSigning } from './hooks.ts';
export {
  type CompanySealInfo,
  companySealInfo,
  hasUsableSeal,
  saveCompanySeal,
  sealForSigning,
  sealsUsableBy,
} from './service.ts';
