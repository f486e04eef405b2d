// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export {
  companyLoginFlags,
  companyNamesOf,
  getCompany,
  listActiveMembers,
  requireCompanyRole,
  verifiedCompanyByCreditCode,
  verifiedCompanyIdByName,
} from './membership.ts';
export type { CompanyAccess } from './membership.ts';
export { findApplyOf, findCompanyByName } from './queries.ts';
export { companyModule } from './routes.ts';
export { applyCompany, applyView, confirmMicroPayment, sendMicroPayment } from './service.ts';
