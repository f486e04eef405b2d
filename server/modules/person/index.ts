// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { USER_AGREEMENT } from './agreement.ts';
export { findIdentity, spendFreshFaceCheck } from './queries.ts';
export { personModule } from './routes.ts';
export {
  acceptAgreementFor,
  identityProviderFor,
  issuePersonCertFor,
  maskPhone,
  personHasCaCert,
  personOnboardingState,
  startFaceFor,
  verifyAndRecordIdentity,
} from './service.ts';
