// Typed client of contract/calls/company.ts. Only types come from the contract (no zod in the bundle).
import type * as calls from '#contract/calls/company.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { POWER_OF_ATTORNEY_FILE_PATH, UPLOAD_POWER_OF_ATTORNEY_PATH } from '#contract/rules/company.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type CompanyApply = Res<typeof calls.applyCompanyEsign>;
export type Member = Res<typeof calls.approveJoinCompany>;
export type MyCompany = Res<typeof calls.joinCompany>;
export type CompanyAccountInfo = Res<typeof calls.getCompanyAccountInfo>;
export type CompanyCert = NonNullable<Res<typeof calls.getCompanyCaCert>>;
export type SwitchableAccount = Res<typeof calls.getSwitchableAccounts>[number];
export type MemberStatus = Member['status'];

const call =
  <D>(name: string) =>
  (body: Req<D>) =>
    post<Res<D>>(`${CSIGN}/${name}`, body as object);

export const applyCompanyEsign = call<typeof calls.applyCompanyEsign>('applyCompanyEsign');
export const getCompanyApply = call<typeof calls.getCompanyApply>('getCompanyApply');
export const sendCompanyMicroPayment = call<typeof calls.sendCompanyMicroPayment>('sendCompanyMicroPayment');
export const confirmCompanyMicroPayment = call<typeof calls.confirmCompanyMicroPayment>(
  'confirmCompanyMicroPayment',
);
export const getCompanyCaCert = call<typeof calls.getCompanyCaCert>('getCompanyCaCert');
export const getCompanyAccountInfo = call<typeof calls.getCompanyAccountInfo>('getCompanyAccountInfo');
export const searchCompanyToJoin = call<typeof calls.searchCompanyToJoin>('searchCompanyToJoin');
export const joinCompany = call<typeof calls.joinCompany>('joinCompany');
export const getMyCompanyList = call<typeof calls.getMyCompanyList>('getMyCompanyList');
export const cancelJoinCompany = call<typeof calls.cancelJoinCompany>('cancelJoinCompany');
export const getCompanyMemberList = call<typeof calls.getCompanyMemberList>('getCompanyMemberList');
export const getCompanyStaffList = call<typeof calls.getCompanyStaffList>('getCompanyStaffList');
export const approveJoinCompany = call<typeof calls.approveJoinCompany>('approveJoinCompany');
export const addCompanyOperator = call<typeof calls.addCompanyOperator>('addCompanyOperator');
export const disableCompanyOperator = call<typeof calls.disableCompanyOperator>('disableCompanyOperator');
export const enableCompanyOperator = call<typeof calls.enableCompanyOperator>('enableCompanyOperator');
export const removeCompanyOperator = call<typeof calls.removeCompanyOperator>('removeCompanyOperator');
export const transferCompanyAdmin = call<typeof calls.transferCompanyAdmin>('transferCompanyAdmin');
export const getExclusiveCode = call<typeof calls.getExclusiveCode>('getExclusiveCode');
export const searchCompanyOperator = call<typeof calls.searchCompanyOperator>('searchCompanyOperator');
export const chooseUserList = call<typeof calls.chooseUserList>('chooseUserList');
export const chooseUserOperatorList = call<typeof calls.chooseUserOperatorList>('chooseUserOperatorList');
export const getSwitchableAccounts = call<typeof calls.getSwitchableAccounts>('getSwitchableAccounts');
export const switchAccount = call<typeof calls.switchAccount>('switchAccount');

/** Uploads (or replaces) the power-of-attorney letter; fields go before the file, as the server reads them. */
export function uploadPowerOfAttorney(companyId: string, file: File | Blob, filename = 'letter') {
  const form = new FormData();
  form.append('companyId', companyId);
  form.append('file', file, file instanceof File ? file.name : filename);
  return post<Res<typeof calls.uploadPowerOfAttorney>>(UPLOAD_POWER_OF_ATTORNEY_PATH, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
  });
}

/** URL of the letter's bytes (GET with the session cookie); `version` defeats the browser cache after a change. */
export function powerOfAttorneyUrl(companyId: string, version: string | number): string {
  const base = apiBaseUrl(window.location.hostname, readEnv());
  return `${base}${POWER_OF_ATTORNEY_FILE_PATH}/${companyId}?ts=${encodeURIComponent(String(version))}`;
}
