// Typed client of contract/calls/company.ts. Only types come from the contract (no zod in the bundle).
import type * as calls from '#contract/calls/company.ts';
import * as P from '#contract/paths/company.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { call, type Res } from './http.ts';
import { upload } from './transfer.ts';

export type CompanyApply = Res<typeof calls.applyCompanyEsign>;
export type Member = Res<typeof calls.approveJoinCompany>;
export type MyCompany = Res<typeof calls.joinCompany>;
export type CompanyAccountInfo = Res<typeof calls.getCompanyAccountInfo>;
export type CompanyCert = NonNullable<Res<typeof calls.getCompanyCaCert>>;
export type SwitchableAccount = Res<typeof calls.getSwitchableAccounts>[number];
export type MemberStatus = Member['status'];
export type CompanyInvitation = Res<typeof calls.addCompanyOperator>;
export type InvitationStatus = CompanyInvitation['status'];
export type CompanyEvent = Res<typeof calls.getCompanyAuditTrail>['list'][number];

export const applyCompanyEsign = call<typeof calls.applyCompanyEsign>(P.applyCompanyEsign);
export const getCompanyApply = call<typeof calls.getCompanyApply>(P.getCompanyApply);
export const sendCompanyMicroPayment = call<typeof calls.sendCompanyMicroPayment>(P.sendCompanyMicroPayment);
export const confirmCompanyMicroPayment = call<typeof calls.confirmCompanyMicroPayment>(
  P.confirmCompanyMicroPayment,
);
export const getCompanyCaCert = call<typeof calls.getCompanyCaCert>(P.getCompanyCaCert);
export const getCompanyAccountInfo = call<typeof calls.getCompanyAccountInfo>(P.getCompanyAccountInfo);
export const searchCompanyToJoin = call<typeof calls.searchCompanyToJoin>(P.searchCompanyToJoin);
export const joinCompany = call<typeof calls.joinCompany>(P.joinCompany);
export const getMyCompanyList = call<typeof calls.getMyCompanyList>(P.getMyCompanyList);
export const cancelJoinCompany = call<typeof calls.cancelJoinCompany>(P.cancelJoinCompany);
export const getCompanyMemberList = call<typeof calls.getCompanyMemberList>(P.getCompanyMemberList);
export const getCompanyStaffList = call<typeof calls.getCompanyStaffList>(P.getCompanyStaffList);
export const approveJoinCompany = call<typeof calls.approveJoinCompany>(P.approveJoinCompany);
export const addCompanyOperator = call<typeof calls.addCompanyOperator>(P.addCompanyOperator);
export const getCompanyInvitationList = call<typeof calls.getCompanyInvitationList>(
  P.getCompanyInvitationList,
);
export const withdrawCompanyInvitation = call<typeof calls.withdrawCompanyInvitation>(
  P.withdrawCompanyInvitation,
);
export const resendCompanyInvitation = call<typeof calls.resendCompanyInvitation>(P.resendCompanyInvitation);
export const getMyCompanyInvitations = call<typeof calls.getMyCompanyInvitations>(P.getMyCompanyInvitations);
export const getCompanyInvitation = call<typeof calls.getCompanyInvitation>(P.getCompanyInvitation);
export const answerCompanyInvitation = call<typeof calls.answerCompanyInvitation>(P.answerCompanyInvitation);
export const getCompanyAuditTrail = call<typeof calls.getCompanyAuditTrail>(P.getCompanyAuditTrail);
export const setCompanyMemberRoles = call<typeof calls.setCompanyMemberRoles>(P.setCompanyMemberRoles);
export const previewHandover = call<typeof calls.previewHandover>(P.previewHandover);
export const handOverMember = call<typeof calls.handOverMember>(P.handOverMember);
export type HandoverCounts = Res<typeof calls.handOverMember>;
export type MemberRole = NonNullable<Member['roles']>[number];
export const disableCompanyOperator = call<typeof calls.disableCompanyOperator>(P.disableCompanyOperator);
export const enableCompanyOperator = call<typeof calls.enableCompanyOperator>(P.enableCompanyOperator);
export const removeCompanyOperator = call<typeof calls.removeCompanyOperator>(P.removeCompanyOperator);
export const transferCompanyAdmin = call<typeof calls.transferCompanyAdmin>(P.transferCompanyAdmin);
export const getExclusiveCode = call<typeof calls.getExclusiveCode>(P.getExclusiveCode);
export const searchCompanyOperator = call<typeof calls.searchCompanyOperator>(P.searchCompanyOperator);
export const chooseUserList = call<typeof calls.chooseUserList>(P.chooseUserList);
export const chooseUserOperatorList = call<typeof calls.chooseUserOperatorList>(P.chooseUserOperatorList);
export const getSwitchableAccounts = call<typeof calls.getSwitchableAccounts>(P.getSwitchableAccounts);
export const switchAccount = call<typeof calls.switchAccount>(P.switchAccount);

/** Uploads (or replaces) the power-of-attorney letter; fields go before the file, as the server reads them. */
export function uploadPowerOfAttorney(companyId: string, file: File | Blob, filename = 'letter') {
  const form = new FormData();
  form.append('companyId', companyId);
  form.append('file', file, file instanceof File ? file.name : filename);
  return upload<typeof calls.uploadPowerOfAttorney>(P.uploadPowerOfAttorney, form);
}

/** URL of the letter's bytes (GET with the session cookie); `version` defeats the browser cache after a change. */
export function powerOfAttorneyUrl(companyId: string, version: string | number): string {
  const base = apiBaseUrl(window.location.hostname, readEnv());
  return `${base}${P.companyPowerOfAttorney.path}/${companyId}?ts=${encodeURIComponent(String(version))}`;
}
