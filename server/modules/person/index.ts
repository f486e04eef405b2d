// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { USER_AGREEMENT } from './agreement.ts';
export {
  acceptAgreementFor,
  identityProviderFor,
  issuePersonCertFor,
  maskPhone,
  personHasCaCert,
  personOnboardingState,
  spendFaceCheck,
  startFaceFor,
  verifiedNameOf,
  verifyAndRecordIdentity,
} from './service.ts';
