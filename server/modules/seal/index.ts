// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { roomTokenUser, sealAuthorisationEnded, sealInUnfinishedSigning } from './hooks.ts';
export {
  authoriseSeal,
  type CompanySealInfo,
  companySealInfo,
  enabledCompanySeals,
  hasUsableSeal,
  requireSealManager,
  revokeSealAuthorisation,
  saveCompanySeal,
  sealForSigning,
  sealsUsableBy,
} from './service.ts';
