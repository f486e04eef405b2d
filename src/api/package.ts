// Typed client of contract/calls/package.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/package.ts';
import * as P from '#contract/paths/package.ts';
import { call, type Req, type Res } from './http.ts';

export type {
  AccountPackage,
  PackageInfo,
  PackageOrder,
  PaymentStart,
  UsageRow,
} from '#contract/calls/package.ts';
export type Eligibility = Res<typeof calls.getPurchaseEligibility>;
export type UserPackages = Res<typeof calls.getUserPackageList>;
export type UsagePage = Res<typeof calls.getUserPackageDetail>;
export type UsageFilters = Omit<Req<typeof calls.exportUserPackageDetail>, 'userType'>;
export type OrderPage = Res<typeof calls.getPackageOrderList>;

export const getPackageList = call<typeof calls.getPackageList>(P.getPackageList);
export const getPurchaseEligibility = call<typeof calls.getPurchaseEligibility>(P.getPurchaseEligibility);
export const createPackageOrder = call<typeof calls.createPackageOrder>(P.createPackageOrder);
export const createGroupOrder = call<typeof calls.createGroupOrder>(P.createGroupOrder);
export const getPackageOrder = call<typeof calls.getPackageOrder>(P.getPackageOrder);
export const getPackageOrderList = call<typeof calls.getPackageOrderList>(P.getPackageOrderList);
export const startOrderPayment = call<typeof calls.startOrderPayment>(P.startOrderPayment);
export const cancelPackageOrder = call<typeof calls.cancelPackageOrder>(P.cancelPackageOrder);
export const getUserPackageList = call<typeof calls.getUserPackageList>(P.getUserPackageList);
export const getUserPackageDetail = call<typeof calls.getUserPackageDetail>(P.getUserPackageDetail);
export const exportUserPackageDetail = call<typeof calls.exportUserPackageDetail>(P.exportUserPackageDetail);
export const getPlatformAdminInfo = call<typeof calls.getPlatformAdminInfo>(P.getPlatformAdminInfo);
export const adminGetPackageList = call<typeof calls.adminGetPackageList>(P.adminGetPackageList);
export const adminSavePackage = call<typeof calls.adminSavePackage>(P.adminSavePackage);
export const adminGetOrderList = call<typeof calls.adminGetOrderList>(P.adminGetOrderList);
export const adminConfirmOrder = call<typeof calls.adminConfirmOrder>(P.adminConfirmOrder);
export const adminCancelOrder = call<typeof calls.adminCancelOrder>(P.adminCancelOrder);
export const adminRefundOrder = call<typeof calls.adminRefundOrder>(P.adminRefundOrder);
