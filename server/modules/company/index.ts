// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  companyByName,
  companyLoginFlags,
  companyNamesOf,
  getCompany,
  HANDLING,
  listActiveMembers,
  requireCompanyRole,
  verifiedCompanyByCreditCode,
  verifiedCompanyIdByName,
} from './membership.ts';
export type { CompanyAccess, RequiredRole } from './membership.ts';
// Roles beside membership (issue 27) and the company's audit trail, for the modules that govern seals.
export {
  GRANTED_ROLES,
  hasMemberRole,
  memberRoles,
  membersWithRole,
  recordCompanyEvent,
} from './roles.ts';
export type { GrantedRole, MemberRole } from './roles.ts';
export {
  applyCompany,
  confirmMicroPayment,
  pendingApplyNamed,
  sendMicroPayment,
} from './service.ts';
// The development bank's address (development tools pay the micro-payment a real bank would carry).
export { devBankAddress } from './verification-provider.ts';
// The /message notice of an invitation: the flow module, which keeps the list, listens.
export { companyNotice, memberHandover, verifiedNames } from './hooks.ts';
export type { MemberHandover, MemberHandoverAnswer } from './hooks.ts';
