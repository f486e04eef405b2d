// Typed client of contract/calls/package.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/package.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type {
  AccountPackage,
  PackageInfo,
  PackageInput,
  PackageOrder,
  PaymentNotes,
  PaymentStart,
  UsageRow,
} from '#contract/calls/package.ts';
export type Eligibility = Res<typeof calls.getPurchaseEligibility>;
export type UserPackages = Res<typeof calls.getUserPackageList>;
export type UsagePage = Res<typeof calls.getUserPackageDetail>;
export type UsageFilters = Omit<Req<typeof calls.exportUserPackageDetail>, 'userType'>;
export type OrderPage = Res<typeof calls.getPackageOrderList>;

const call =
  <D>(name: string) =>
  (body: Req<D>) =>
    post<Res<D>>(`${CSIGN}/${name}`, body);

export const getPackageList = (body: Req<typeof calls.getPackageList> = {}) =>
  call<typeof calls.getPackageList>('getPackageList')(body);
export const getPurchaseEligibility = (body: Req<typeof calls.getPurchaseEligibility> = {}) =>
  call<typeof calls.getPurchaseEligibility>('getPurchaseEligibility')(body);
export const createPackageOrder = call<typeof calls.createPackageOrder>('createPackageOrder');
export const createGroupOrder = call<typeof calls.createGroupOrder>('createGroupOrder');
export const getPackageOrder = call<typeof calls.getPackageOrder>('getPackageOrder');
export const getPackageOrderList = call<typeof calls.getPackageOrderList>('getPackageOrderList');
export const startOrderPayment = call<typeof calls.startOrderPayment>('startOrderPayment');
export const cancelPackageOrder = call<typeof calls.cancelPackageOrder>('cancelPackageOrder');
export const getUserPackageList = (body: Req<typeof calls.getUserPackageList> = {}) =>
  call<typeof calls.getUserPackageList>('getUserPackageList')(body);
export const getUserPackageDetail = call<typeof calls.getUserPackageDetail>('getUserPackageDetail');
export const exportUserPackageDetail = call<typeof calls.exportUserPackageDetail>('exportUserPackageDetail');
export const getPlatformAdminInfo = (body: Req<typeof calls.getPlatformAdminInfo> = {}) =>
  call<typeof calls.getPlatformAdminInfo>('getPlatformAdminInfo')(body);
export const adminGetPackageList = (body: Req<typeof calls.adminGetPackageList> = {}) =>
  call<typeof calls.adminGetPackageList>('adminGetPackageList')(body);
export const adminSavePackage = call<typeof calls.adminSavePackage>('adminSavePackage');
export const adminGetOrderList = call<typeof calls.adminGetOrderList>('adminGetOrderList');
export const adminConfirmOrder = call<typeof calls.adminConfirmOrder>('adminConfirmOrder');
export const adminCancelOrder = call<typeof calls.adminCancelOrder>('adminCancelOrder');
export const adminRefundOrder = call<typeof calls.adminRefundOrder>('adminRefundOrder');
