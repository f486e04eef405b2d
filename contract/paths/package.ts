// The paths of contract/calls/package.ts (zod-free: src/api/package.ts imports them).
import { csign } from '../call-path.ts';

export const getPackageList = /* @__PURE__ */ csign('getPackageList');
export const getPurchaseEligibility = /* @__PURE__ */ csign('getPurchaseEligibility');
export const createPackageOrder = /* @__PURE__ */ csign('createPackageOrder');
export const createGroupOrder = /* @__PURE__ */ csign('createGroupOrder');
export const getPackageOrder = /* @__PURE__ */ csign('getPackageOrder');
export const getPackageOrderList = /* @__PURE__ */ csign('getPackageOrderList');
export const cancelPackageOrder = /* @__PURE__ */ csign('cancelPackageOrder');
export const getUserPackageList = /* @__PURE__ */ csign('getUserPackageList');
export const getUserPackageDetail = /* @__PURE__ */ csign('getUserPackageDetail');
export const exportUserPackageDetail = /* @__PURE__ */ csign('exportUserPackageDetail');
export const getPlatformAdminInfo = /* @__PURE__ */ csign('getPlatformAdminInfo');
export const adminGetPackageList = /* @__PURE__ */ csign('adminGetPackageList');
export const adminSavePackage = /* @__PURE__ */ csign('adminSavePackage');
export const adminGetOrderList = /* @__PURE__ */ csign('adminGetOrderList');
export const adminConfirmOrder = /* @__PURE__ */ csign('adminConfirmOrder');
export const adminCancelOrder = /* @__PURE__ */ csign('adminCancelOrder');
export const adminRefundOrder = /* @__PURE__ */ csign('adminRefundOrder');
export const startOrderPayment = /* @__PURE__ */ csign('startOrderPayment');
