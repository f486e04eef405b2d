import { z } from 'zod';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/package.ts';
import { zCreditCode } from './company.ts';
import { bi } from '../bilingual.ts';

// Packages, orders and the signing quota (server/modules/package).
//
// A package is a number of signings (`signings`, one per launched contract) sold at a price (CNY, kept in
// fen as integers: 12.34 CNY = 1234) and valid for `validityDays` from the day its payment is confirmed.
// Buying creates an order (`orderNo`, to quote on the bank transfer) awaiting payment; a platform
// administrator confirms the payment, and the account then owns the package's units until they expire.
// Group purchase (sale type 20): one company buys `copies` of a package at the tier price and distributes
// the signings to other companies by credit code; every receiver owns its share as a package of its own.
// The account's quota = the starter allowance (FREE_SIGNING_ALLOWANCE) + its live packages; see
// server/modules/package/README.md for the rules (reservation order, expiry, refunds).

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zIsoTime = z.iso.datetime({ offset: true });
/** The five sale product type codes of SPEC §3. */
export const zSaleProductType = z.enum(['00', '10', '20', '90', '91']);
/** An amount of money in fen (1 CNY = 100 fen): an integer, never a float. */
export const zFen = z
  .number()
  .int(bi('amounts are whole fen', '金额须为整数（分）'))
  .min(0, bi('an amount cannot be negative', '金额不能为负数'))
  .max(1e11);
export const zOrderStatus = z.enum(['awaiting_payment', 'paid', 'cancelled', 'refunded', 'expired']);
export const zQuotaState = z.enum(['reserved', 'used', 'released']);
export const zPurchaseRequirement = z.enum(['caCert', 'seal', 'operator', 'companyAdmin']);
/** Most copies of one package in one order. */
export const MAX_COPIES = 1000;

/** Tier price of group purchase: from `minCopies` copies on, each copy costs `priceFen`. */
export const zPriceTier = z.object({ minCopies: z.number().int().min(2).max(MAX_COPIES), priceFen: zFen });

export const zPackage = z.object({
  id: zId,
  name: z.string(),
  nameEn: z.string(),
  /** In Chinese; descriptionEn in English ('' both when the package has none). */
  description: z.string(),
  descriptionEn: z.string(),
  saleProductType: zSaleProductType,
  /** Signings (contracts launched) one copy gives. */
  signings: z.number().int(),
  /** Price of one copy in fen. */
  priceFen: z.number().int(),
  /** Days the signings stay usable, from the confirmation of the payment. */
  validityDays: z.number().int(),
  tiers: z.array(zPriceTier),
  isActive: z.boolean(),
});
export type PackageInfo = z.infer<typeof zPackage>;

/** What the buyer must do to pay (offline bank transfer: the account and the order number to quote). */
export const zPaymentNotes = z.object({
  provider: z.string(),
  accountName: z.string(),
  bankName: z.string(),
  accountNo: z.string(),
  /** The text to quote on the transfer: the order number. */
  reference: z.string(),
  amountFen: z.number().int(),
  payBy: zIsoTime,
  /** True while BANK_* are the development placeholders: no real account, do not transfer money. */
  isDevelopmentDefault: z.boolean(),
});
export type PaymentNotes = z.infer<typeof zPaymentNotes>;

export const zAllocation = z.object({
  companyId: z.string(),
  companyName: z.string(),
  creditCode: z.string(),
  quantity: z.number().int(),
});

export const zOrder = z.object({
  orderNo: z.string(),
  kind: z.enum(['single', 'group']),
  status: zOrderStatus,
  packageId: zId,
  packageName: z.string(),
  packageNameEn: z.string(),
  saleProductType: zSaleProductType,
  signingsPerCopy: z.number().int(),
  copies: z.number().int(),
  /** Signings bought: copies x signingsPerCopy. */
  totalQuantity: z.number().int(),
  unitPriceFen: z.number().int(),
  amountFen: z.number().int(),
  validityDays: z.number().int(),
  buyerType: z.number().int(),
  buyerName: z.string(),
  createdAt: zIsoTime,
  /** Unpaid after this moment, the order expires (ORDER_PAYMENT_DAYS). */
  payBy: zIsoTime,
  paidAt: zIsoTime.nullable(),
  /** End of validity of the bought signings (set when paid). */
  validUntil: zIsoTime.nullable(),
  endedAt: zIsoTime.nullable(),
  endReason: z.string().nullable(),
  paymentReference: z.string().nullable(),
  /** Group purchase: the shares of the receiving companies (the rest stays with the buyer). */
  allocations: z.array(zAllocation),
  /** Present while the order awaits payment. */
  paymentNotes: zPaymentNotes.nullable(),
});
export type PackageOrder = z.infer<typeof zOrder>;

/** One package an account owns (bought, or received from a group purchase). */
export const zAccountPackage = z.object({
  id: zId,
  name: z.string(),
  nameEn: z.string(),
  saleProductType: zSaleProductType,
  source: z.enum(['purchase', 'group']),
  /** Group purchase: the company that bought it. */
  fromCompanyName: z.string().nullable(),
  orderNo: z.string(),
  quantity: z.number().int(),
  reserved: z.number().int(),
  used: z.number().int(),
  /** Still usable: 0 once expired or refunded. */
  remaining: z.number().int(),
  startsAt: zIsoTime,
  expiresAt: zIsoTime,
  status: z.enum(['active', 'expired', 'refunded']),
});
export type AccountPackage = z.infer<typeof zAccountPackage>;

export const zQuota = z.object({
  totalQuantitySum: z.number().int(),
  totalReserveQuantity: z.number().int(),
  totalUseQuantity: z.number().int(),
  remainQuantity: z.number().int(),
  /** The starter allowance's part of the above. */
  starter: z.object({ total: z.number().int(), reserved: z.number().int(), used: z.number().int() }),
});

/** One signing unit taken by a launched flow. */
export const zUsageRow = z.object({
  flowId: zId,
  title: z.string(),
  initiatorName: z.string().nullable(),
  launchedAt: zIsoTime,
  state: zQuotaState,
  /** When it was used or released; null while reserved. */
  settledAt: zIsoTime.nullable(),
  /** The package the unit came from; null: the starter allowance. */
  accountPackageId: zId.nullable(),
  packageName: z.string().nullable(),
  packageNameEn: z.string().nullable(),
});
export type UsageRow = z.infer<typeof zUsageRow>;

const zUsageFilters = z.object({
  state: zQuotaState.optional(),
  /** A package id, or 'starter' for the starter allowance. */
  packageId: z.union([zId, z.literal('starter')]).optional(),
  /** Launched at or after / before (ISO times). */
  dateFrom: zIsoTime.optional(),
  dateTo: zIsoTime.optional(),
  keyword: z.string().max(100).optional(),
});

export const zEligibility = z.object({
  canBuy: z.boolean(),
  userType: z.number().int(),
  missing: z.array(zPurchaseRequirement),
});

const zOrderNo = z.string().min(4).max(40);
const zCopies = z
  .number()
  .int(bi('copies are whole numbers', '份数须为整数'))
  .min(1, bi('buy at least one copy', '至少购买 1 份'))
  .max(MAX_COPIES);

export const getPackageList = defineCall({
  call: P.getPackageList,
  auth: false,
  summary:
    'Packages on sale (active), optionally of one sale product type; type 20 is sold by group purchase.',
  request: zBase.extend({ saleProductType: zSaleProductType.optional() }),
  response: z.array(zPackage),
});

export const getPurchaseEligibility = defineCall({
  call: P.getPurchaseEligibility,
  auth: true,
  summary:
    'Whether the session account may buy (SPEC §6: person certificate + seal; company certificate + seal + ' +
    'operator, bought by its administrator) and what is missing.',
  request: zBase,
  response: zEligibility,
});

export const createPackageOrder = defineCall({
  call: P.createPackageOrder,
  auth: true,
  summary: 'Checkout: an order for copies of a package, awaiting payment, with the payment notes.',
  request: zBase.extend({ packageId: zId, copies: zCopies }),
  response: zOrder,
});

export const createGroupOrder = defineCall({
  call: P.createGroupOrder,
  auth: true,
  summary:
    'Group purchase (company administrator, sale type 20): copies at the tier price, signings distributed to ' +
    'companies by credit code (at most what is bought; the rest stays with the buyer).',
  request: zBase.extend({
    packageId: zId,
    copies: zCopies,
    allocations: z
      .array(
        z.object({
          creditCode: zCreditCode,
          quantity: z
            .number()
            .int()
            .min(1, bi('give each company at least one signing', '每家企业至少分配 1 份签署')),
        }),
      )
      .min(1, bi('name at least one receiving company', '请至少指定一家接收企业'))
      .max(50),
  }),
  response: zOrder,
});

export const getPackageOrder = defineCall({
  call: P.getPackageOrder,
  auth: true,
  summary: 'One order of the session account, with its payment notes while it awaits payment.',
  request: zBase.extend({ orderNo: zOrderNo }),
  response: zOrder,
});

export const getPackageOrderList = defineCall({
  call: P.getPackageOrderList,
  auth: true,
  summary: "The session account's orders, newest first.",
  request: zBase.extend(zPageRequest.shape).extend({ status: zOrderStatus.optional() }),
  response: zPage(zOrder),
});

export const cancelPackageOrder = defineCall({
  call: P.cancelPackageOrder,
  auth: true,
  summary: 'The buyer cancels its own order while it awaits payment.',
  request: zBase.extend({ orderNo: zOrderNo }),
  response: zOrder,
});

export const getUserPackageList = defineCall({
  call: P.getUserPackageList,
  auth: true,
  summary: "The session account's packages (bought or received) and its quota.",
  request: zBase,
  response: z.object({ packages: z.array(zAccountPackage), quota: zQuota }),
});

export const getUserPackageDetail = defineCall({
  call: P.getUserPackageDetail,
  auth: true,
  summary: 'Usage detail: the signing units launched flows took, with filters and pagination.',
  request: zBase.extend(zPageRequest.shape).extend(zUsageFilters.shape),
  response: zPage(zUsageRow),
});

/** Most rows one export returns. */
export const MAX_EXPORT_ROWS = 5000;

export const exportUserPackageDetail = defineCall({
  call: P.exportUserPackageDetail,
  auth: true,
  summary: `Usage detail for the spreadsheet export: every row matching the filters (at most ${MAX_EXPORT_ROWS}).`,
  request: zBase.extend(zUsageFilters.shape),
  response: z.object({ rows: z.array(zUsageRow), isTruncated: z.boolean() }),
});

export const getPlatformAdminInfo = defineCall({
  call: P.getPlatformAdminInfo,
  auth: true,
  summary: 'Whether the logged-in user is a platform administrator (PLATFORM_ADMIN_PHONES).',
  request: zBase,
  response: z.object({ isPlatformAdmin: z.boolean() }),
});

export const adminGetPackageList = defineCall({
  call: P.adminGetPackageList,
  auth: true,
  summary: 'Platform administrator: every package, active or not.',
  request: zBase,
  response: z.array(zPackage),
});

export const zPackageInput = z.object({
  name: z.string().trim().min(1, bi('name the package', '请输入套餐名称')).max(60),
  nameEn: z.string().trim().min(1, bi('name the package in English', '请输入套餐的英文名称')).max(80),
  description: z.string().trim().max(500).default(''),
  descriptionEn: z.string().trim().max(500).default(''),
  saleProductType: zSaleProductType,
  signings: z
    .number()
    .int()
    .min(1, bi('a package has at least one signing', '套餐至少包含 1 份签署'))
    .max(1_000_000),
  priceFen: zFen,
  validityDays: z.number().int().min(1, bi('valid for at least one day', '有效期至少 1 天')).max(3650),
  tiers: z.array(zPriceTier).max(10).default([]),
  isActive: z.boolean().default(true),
});
export type PackageInput = z.input<typeof zPackageInput>;

/** A description is read in both languages: given in Chinese and in English, or in neither. */
const describedInBoth = (p: { description?: string; descriptionEn?: string }) =>
  !p.description === !p.descriptionEn;
const describedInBothIssue = {
  message: bi(
    'describe the package in Chinese and in English, or in neither',
    '请同时填写套餐的中文和英文说明，或都不填',
  ),
  path: ['descriptionEn'],
};
/** zPackageInput with its rule across fields (a catalogue file is checked by it too). */
export const zCheckedPackageInput = zPackageInput.refine(describedInBoth, describedInBothIssue);

export const adminSavePackage = defineCall({
  call: P.adminSavePackage,
  auth: true,
  summary:
    'Platform administrator: create a package (no id) or change one (id); inactive ones are not on sale.',
  request: zBase
    .extend(zPackageInput.shape)
    .extend({ id: zId.optional() })
    .refine(describedInBoth, describedInBothIssue),
  response: zPackage,
});

export const adminGetOrderList = defineCall({
  call: P.adminGetOrderList,
  auth: true,
  summary: 'Platform administrator: every order, newest first, by status and order number / buyer name.',
  request: zBase
    .extend(zPageRequest.shape)
    .extend({ status: zOrderStatus.optional(), keyword: z.string().max(100).optional() }),
  response: zPage(zOrder),
});

export const adminConfirmOrder = defineCall({
  call: P.adminConfirmOrder,
  auth: true,
  summary:
    'Platform administrator: the transfer has arrived; the order becomes paid and its signings are ' +
    'credited (to the receivers of a group purchase too). Refused unless it awaits payment.',
  request: zBase.extend({ orderNo: zOrderNo, paymentReference: z.string().max(100).optional() }),
  response: zOrder,
});

export const adminCancelOrder = defineCall({
  call: P.adminCancelOrder,
  auth: true,
  summary: 'Platform administrator: cancel an order that awaits payment.',
  request: zBase.extend({ orderNo: zOrderNo, reason: z.string().max(200).optional() }),
  response: zOrder,
});

export const adminRefundOrder = defineCall({
  call: P.adminRefundOrder,
  auth: true,
  summary:
    'Platform administrator: a paid order was refunded; its unused signings are withdrawn (units already ' +
    'reserved by running flows stay honoured).',
  request: zBase.extend({ orderNo: zOrderNo, reason: z.string().max(200).optional() }),
  response: zOrder,
});

/** How the buyer pays an order online: a QR code to scan (PC) or the provider's page to open (phone). */
export const zPaymentStart = z.object({
  provider: z.string(),
  kind: z.enum(['qr', 'redirect']),
  /** WeChat Pay Native: the code_url, and its QR code as an image (SVG data URL). */
  codeUrl: z.string().nullable(),
  qrDataUrl: z.string().nullable(),
  /** The provider's page (WeChat Pay H5, Alipay page and wap pay). */
  url: z.string().nullable(),
});
export type PaymentStart = z.infer<typeof zPaymentStart>;

export const startOrderPayment = defineCall({
  call: P.startOrderPayment,
  auth: true,
  summary:
    'The buyer pays its order awaiting payment at the online provider (PAYMENT_PROVIDER wechat or alipay): ' +
    'channel pc answers a QR code (WeChat Native) or the page-pay address, h5 the phone payment address. ' +
    "Only the provider's verified notification marks the order paid; coming back from the provider does not.",
  request: zBase.extend({ orderNo: zOrderNo, channel: z.enum(['pc', 'h5']) }),
  response: zPaymentStart,
});

export const packageCalls = [
  getPackageList,
  startOrderPayment,
  getPurchaseEligibility,
  createPackageOrder,
  createGroupOrder,
  getPackageOrder,
  getPackageOrderList,
  cancelPackageOrder,
  getUserPackageList,
  getUserPackageDetail,
  exportUserPackageDetail,
  getPlatformAdminInfo,
  adminGetPackageList,
  adminSavePackage,
  adminGetOrderList,
  adminConfirmOrder,
  adminCancelOrder,
  adminRefundOrder,
] as const;
