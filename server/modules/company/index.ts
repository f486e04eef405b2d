// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  companyByName,
  companyLoginFlags,
  companyNamesOf,
  getCompany,
  listActiveMembers,
  requireCompanyRole,
  verifiedCompanyByCreditCode,
  verifiedCompanyIdByName,
} from './membership.ts';
export type { CompanyAccess } from './membership.ts';
export {
  applyCompany,
  applyView,
  confirmMicroPayment,
  pendingApplyNamed,
  sendMicroPayment,
} from './service.ts';
