// The paths of contract/calls/company.ts (zod-free: src/api/company.ts imports them).
import { csign } from '../call-path.ts';

export const applyCompanyEsign = /* @__PURE__ */ csign('applyCompanyEsign');
export const getCompanyApply = /* @__PURE__ */ csign('getCompanyApply');
export const sendCompanyMicroPayment = /* @__PURE__ */ csign('sendCompanyMicroPayment');
export const confirmCompanyMicroPayment = /* @__PURE__ */ csign('confirmCompanyMicroPayment');
export const getCompanyCaCert = /* @__PURE__ */ csign('getCompanyCaCert');
export const getCompanyAccountInfo = /* @__PURE__ */ csign('getCompanyAccountInfo');
export const searchCompanyToJoin = /* @__PURE__ */ csign('searchCompanyToJoin');
export const joinCompany = /* @__PURE__ */ csign('joinCompany');
export const getMyCompanyList = /* @__PURE__ */ csign('getMyCompanyList');
export const cancelJoinCompany = /* @__PURE__ */ csign('cancelJoinCompany');
export const getCompanyMemberList = /* @__PURE__ */ csign('getCompanyMemberList');
export const getCompanyStaffList = /* @__PURE__ */ csign('getCompanyStaffList');
export const approveJoinCompany = /* @__PURE__ */ csign('approveJoinCompany');
export const addCompanyOperator = /* @__PURE__ */ csign('addCompanyOperator');
export const getCompanyInvitationList = /* @__PURE__ */ csign('getCompanyInvitationList');
export const withdrawCompanyInvitation = /* @__PURE__ */ csign('withdrawCompanyInvitation');
export const resendCompanyInvitation = /* @__PURE__ */ csign('resendCompanyInvitation');
export const getMyCompanyInvitations = /* @__PURE__ */ csign('getMyCompanyInvitations');
export const getCompanyInvitation = /* @__PURE__ */ csign('getCompanyInvitation');
export const answerCompanyInvitation = /* @__PURE__ */ csign('answerCompanyInvitation');
export const getCompanyAuditTrail = /* @__PURE__ */ csign('getCompanyAuditTrail');
export const disableCompanyOperator = /* @__PURE__ */ csign('disableCompanyOperator');
export const enableCompanyOperator = /* @__PURE__ */ csign('enableCompanyOperator');
export const removeCompanyOperator = /* @__PURE__ */ csign('removeCompanyOperator');
export const transferCompanyAdmin = /* @__PURE__ */ csign('transferCompanyAdmin');
export const getExclusiveCode = /* @__PURE__ */ csign('getExclusiveCode');
export const searchCompanyOperator = /* @__PURE__ */ csign('searchCompanyOperator');
export const chooseUserList = /* @__PURE__ */ csign('chooseUserList');
export const chooseUserOperatorList = /* @__PURE__ */ csign('chooseUserOperatorList');
export const getSwitchableAccounts = /* @__PURE__ */ csign('getSwitchableAccounts');
export const switchAccount = /* @__PURE__ */ csign('switchAccount');
export const setCompanyMemberRoles = /* @__PURE__ */ csign('setCompanyMemberRoles');
export const previewHandover = /* @__PURE__ */ csign('previewHandover');
export const handOverMember = /* @__PURE__ */ csign('handOverMember');
export const uploadPowerOfAttorney = /* @__PURE__ */ csign('uploadPowerOfAttorney', 'upload');

// GET download (company/routes.ts): `${path}/<companyId>`, the power-of-attorney letter's bytes.
export const companyPowerOfAttorney = /* @__PURE__ */ csign('companyPowerOfAttorney', 'download');
