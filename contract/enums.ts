/** Enumerations of SPEC §3 and §4, named so that logic never uses bare numbers. */

export const UserType = { Person: 0, Company: 1 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

export const SealType = {
  Official: 1,
  LegalPerson: 101,
  Contract: 102,
  Finance: 103,
  Invoice: 104,
  HR: 105,
  Other: 99,
} as const;
export type SealType = (typeof SealType)[keyof typeof SealType];
export const SEAL_TYPES: readonly SealType[] = Object.values(SealType);

export const SaleProductType = {
  Administrator: '00',
  CapacityPreSale: '10',
  UnifiedPurchase: '20',
  Other: '90',
  SteelMakerSealUse: '91',
} as const;
export type SaleProductType = (typeof SaleProductType)[keyof typeof SaleProductType];

/** Names of the sale product types, in both languages (SPEC §3). */
export const SALE_PRODUCT_TYPE_NAMES: Record<SaleProductType, { zh: string; en: string }> = {
  '00': { zh: '管理员', en: 'Administrator' },
  '10': { zh: '产能预售', en: 'Capacity pre-sale' },
  '20': { zh: '统购统配', en: 'Unified purchase and distribution' },
  '90': { zh: '其他', en: 'Other' },
  '91': { zh: '钢厂合同电子签章使用', en: 'Steel-maker contract e-signature seal use' },
};

/** Login state (SPEC §4). `Verified` is the value 11 the spec shows. */
export const LoginState = { LoggedOut: 0, TokenPresent: 1, Verified: 11 } as const;
export type LoginState = (typeof LoginState)[keyof typeof LoginState];

export const PlatformCode = { Default: 'BCP_STFWPT', Guarantee: 'ZHDB', Research: 'ZYPT' } as const;
export type PlatformCode = (typeof PlatformCode)[keyof typeof PlatformCode];
export const PLATFORM_CODES: readonly PlatformCode[] = Object.values(PlatformCode);

/** isHyCenterLogin's answer (SPEC §6, §7): 1 (person) or 4 (company) means the central user centre reports a login. */
export const HyLoginType = { None: 0, Person: 1, Company: 4 } as const;
export type HyLoginType = (typeof HyLoginType)[keyof typeof HyLoginType];

/** Purposes an SMS code can be sent for; a code is only valid for its own purpose. */
export const SmsPurpose = {
  Register: 'register',
  Login: 'login',
  ResetPassword: 'resetPassword',
  /** Opening a signing room by its link (SMS to the party's phone). */
  RoomLogin: 'roomLogin',
  /** Confirming a signature inside the room: its own purpose, so it may follow the room login at once. */
  Sign: 'sign',
  RealName: 'realName',
  RecoverAccount: 'recoverAccount',
  CertChange: 'certChange',
  /** Setting or changing the signing password (an intent check of the signing room). */
  SigningPassword: 'signingPassword',
} as const;
export type SmsPurpose = (typeof SmsPurpose)[keyof typeof SmsPurpose];

/**
 * Codes a signing room asks for its own party (sendLinkSmsCode, sendSignSmsCode): never sent by the public
 * sendSmsCode, so nobody can use up a signer's codes from outside the room (issue 23).
 */
export const ROOM_SMS_PURPOSES: readonly string[] = [SmsPurpose.RoomLogin, SmsPurpose.Sign];

/** Names of the seal types (SPEC §3) in both languages. */
export const SEAL_TYPE_NAMES: Record<SealType, { zh: string; en: string }> = {
  1: { zh: '公章', en: 'Official seal' },
  101: { zh: '法定代表人章', en: 'Legal-person seal' },
  102: { zh: '合同专用章', en: 'Contract seal' },
  103: { zh: '财务专用章', en: 'Finance seal' },
  104: { zh: '发票专用章', en: 'Invoice seal' },
  105: { zh: '人事专用章', en: 'HR seal' },
  99: { zh: '其他印章', en: 'Other seal' },
};

/** How a seal was made: generated from a definition, an uploaded image, or a signature drawn on a pad. */
export const SealKind = { Generated: 'generated', Uploaded: 'uploaded', Drawn: 'drawn' } as const;
export type SealKind = (typeof SealKind)[keyof typeof SealKind];

export const SealStatus = { Enabled: 'enabled', Disabled: 'disabled' } as const;
export type SealStatus = (typeof SealStatus)[keyof typeof SealStatus];

/** States of a package order (packages, server/modules/package). */
export const OrderStatus = {
  AwaitingPayment: 'awaiting_payment',
  Paid: 'paid',
  Cancelled: 'cancelled',
  Refunded: 'refunded',
  Expired: 'expired',
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** What buying a package needs (SPEC §6) and may be missing: certificate, seal, operator (company), admin role. */
export const PurchaseRequirement = {
  CaCert: 'caCert',
  Seal: 'seal',
  Operator: 'operator',
  CompanyAdmin: 'companyAdmin',
} as const;
export type PurchaseRequirement = (typeof PurchaseRequirement)[keyof typeof PurchaseRequirement];

/** The events a webhook endpoint may subscribe to (contract/calls/webhook.ts), in the order screens list them. */
export const WEBHOOK_EVENTS = [
  'flow.launched',
  'party.opened',
  'party.signed',
  'party.refused',
  'flow.completed',
  'flow.expired',
  'flow.cancelled',
  /** seal-use approval (issue 27), to the seal company's endpoints */
  'approval.requested',
  'approval.decided',
  /** bulk sending (issue 28): a batch has every row sent or failed */
  'bulk_send.completed',
  /** comments (issue 29): a new comment or reply on an open flow */
  'comment.created',
  /** reassign and deadline change (issue 29) */
  'party.reassigned',
  'flow.deadline_changed',
  /** void by agreement (issue 29): the contract's rescission agreement completed */
  'flow.voided',
  /** a revised document (issue 29): the flow's revision moved on */
  'flow.revised',
  /** contract term (issue 29): a completed flow's term ends in 30, 7 or 1 days (`daysLeft`) */
  'flow.term_ending',
] as const;
