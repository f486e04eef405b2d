import { z } from 'zod';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/company.ts';
import { CREDIT_CODE_MESSAGES, creditCodeProblem, normaliseCreditCode } from '../rules/credit-code.ts';
import { zLoginInfo, zPhone } from './session.ts';

// Company accounts: opening (application, power-of-attorney letter, verification), membership
// (join, approve, operators, hand-over), account switch and the signer pickers. Company calls act for
// the company of the SESSION (userType 1 + companyId set by login or switchAccount); ids in a body are
// only ever looked up inside that company.

import { INVITATION_LIFETIME_DAYS } from '../rules/company.ts';

export {
  COMPANY_INVITATION_ROUTE,
  INVITATION_LIFETIME_DAYS,
  MICRO_PAYMENT_MAX_ATTEMPTS,
  POWER_OF_ATTORNEY_FILE_PATH,
  POWER_OF_ATTORNEY_MAX_BYTES,
  companyInvitationPath,
} from '../rules/company.ts';
import { bi } from '../bilingual.ts';

/** Unified social credit code (GB 32100), normalised to upper case; the message names the problem. */
export const zCreditCode = z
  .string()
  .max(40, CREDIT_CODE_MESSAGES.length)
  .transform(normaliseCreditCode)
  .superRefine((code, ctx) => {
    const problem = creditCodeProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: CREDIT_CODE_MESSAGES[problem] });
  });

const zCompanyName = z
  .string()
  .trim()
  .min(2, bi('the company name needs at least 2 characters', '企业名称至少 2 个字符'))
  .max(64, bi('the company name has at most 64 characters', '企业名称最多 64 个字符'));
const zPersonName = z
  .string()
  .trim()
  .min(2, bi('the legal representative name needs at least 2 characters', '法定代表人姓名至少 2 个字符'))
  .max(32, bi('the legal representative name has at most 32 characters', '法定代表人姓名最多 32 个字符'));
const zId = z.uuid(bi('not a valid id', '不是有效的 ID'));

export const zCompanyRole = z.enum(['admin', 'operator']);
/**
 * Roles granted beside membership (issue 27): `handler` launches and signs for the company with the seals
 * authorised to them, `seal_keeper` manages the seals they keep, `approver` approves seal uses where a seal's
 * policy names them. The administrator is `zCompanyRole` 'admin'.
 */
export const GRANTED_ROLES = ['handler', 'seal_keeper', 'approver'] as const;
export const zGrantedRole = z.enum(GRANTED_ROLES);
export const zMemberRole = z.enum(['admin', ...GRANTED_ROLES]);
export const zMemberStatus = z.enum(['pending', 'active', 'disabled', 'rejected', 'removed']);
export const zApplicantRole = z.enum(['legal_rep', 'agent']);

/** A company application as its applicant sees it. */
export const zCompanyApply = z.object({
  companyId: z.string(),
  companyName: z.string(),
  creditCode: z.string(),
  legalRepName: z.string(),
  applicantRole: zApplicantRole,
  status: z.enum(['pending', 'verified', 'rejected']),
  hasPowerOfAttorney: z.boolean(),
  /** MIME type of the letter (image/png, image/jpeg, application/pdf), null when none. */
  powerOfAttorneyType: z.string().nullable(),
  /** True when a micro-payment was sent and waits for the amount. */
  isPaymentSent: z.boolean(),
  attemptsLeft: z.number().int(),
  /** Name of the verification provider; 'development' means simulated (no real bank). */
  provider: z.string(),
  verifiedAt: z.string().nullable(),
});
export type CompanyApply = z.infer<typeof zCompanyApply>;

export const applyCompanyEsign = defineCall({
  call: P.applyCompanyEsign,
  auth: true,
  summary:
    'Start a company opening: name, unified social credit code (GB 32100), legal representative and whether the ' +
    'applicant is the legal representative or an agent (an agent then uploads a power-of-attorney letter). ' +
    'Refused when a verified company already has this credit code.',
  request: zBase.extend({
    companyName: zCompanyName,
    creditCode: zCreditCode,
    legalRepName: zPersonName,
    applicantRole: zApplicantRole,
  }),
  response: zCompanyApply,
});

export const getCompanyApply = defineCall({
  call: P.getCompanyApply,
  auth: true,
  summary:
    "The caller's own company application: the one named by companyId, else the latest pending one (null if none).",
  request: zBase.extend({ companyId: zId.optional() }),
  response: zCompanyApply.nullable(),
});

export const sendCompanyMicroPayment = defineCall({
  call: P.sendCompanyMicroPayment,
  auth: true,
  summary:
    "Ask the verification provider to pay a random small amount (0.01-0.99 CNY) into the company's bank account; " +
    'the amount is never in the answer. Needs the letter when the applicant is an agent. Sending again replaces the ' +
    'previous amount and restores the attempts.',
  request: zBase.extend({ companyId: zId }),
  response: zCompanyApply,
});

export const confirmCompanyMicroPayment = defineCall({
  call: P.confirmCompanyMicroPayment,
  auth: true,
  summary:
    'Confirm the received amount (yuan, e.g. "0.37"). Right: the company is verified, the applicant becomes its ' +
    'administrator and the company certificate is issued. Wrong: refused with the attempts left; after 3 wrong ' +
    'amounts the payment must be sent again.',
  request: zBase.extend({
    companyId: zId,
    amount: z
      .string()
      .trim()
      .regex(
        /^(\d{1,3}(\.\d{1,2})?|\.\d{1,2})$/,
        bi('enter the amount in yuan, e.g. 0.37', '请输入以元为单位的金额，例如 0.37'),
      ),
  }),
  response: zCompanyApply,
});

export const zCompanyCert = z.object({
  serial: z.string(),
  subject: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  status: z.string(),
  pem: z.string(),
});

export const getCompanyCaCert = defineCall({
  call: P.getCompanyCaCert,
  auth: true,
  summary: "The current certificate of the session's company (summary + PEM); any active member may read it.",
  request: zBase,
  response: zCompanyCert.nullable(),
});

export const zCompanyAccountInfo = z.object({
  companyId: z.string(),
  companyName: z.string(),
  creditCode: z.string(),
  legalRepName: z.string(),
  applicantRole: zApplicantRole,
  hasPowerOfAttorney: z.boolean(),
  powerOfAttorneyType: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  role: zCompanyRole,
  adminName: z.string().nullable(),
  activeMembers: z.number().int(),
  pendingRequests: z.number().int(),
  certificate: zCompanyCert.omit({ pem: true }).nullable(),
});

export const getCompanyAccountInfo = defineCall({
  call: P.getCompanyAccountInfo,
  auth: true,
  summary:
    "Account info of the session's company: registration data, the caller's role, members, certificate.",
  request: zBase,
  response: zCompanyAccountInfo,
});

/** A company found for joining: no data beyond what the public business register shows. */
export const zCompanyHit = z.object({
  companyId: z.string(),
  companyName: z.string(),
  creditCode: z.string(),
});

export const searchCompanyToJoin = defineCall({
  call: P.searchCompanyToJoin,
  auth: true,
  summary:
    'Verified companies to join: the exact credit code, or names containing the keyword (at least 2 characters); at most 10.',
  request: zBase.extend({
    keyword: z.string().trim().min(2, bi('enter at least 2 characters', '请至少输入 2 个字符')).max(64),
  }),
  response: z.array(zCompanyHit),
});

export const zMyCompany = z.object({
  memberId: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  role: zCompanyRole,
  status: zMemberStatus,
  updatedAt: z.string(),
});

export const joinCompany = defineCall({
  call: P.joinCompany,
  auth: true,
  summary:
    'Ask to join a company as an operator, by companyId (from searchCompanyToJoin) or by an invitation code ' +
    '(getExclusiveCode). The administrator approves or rejects. Refused when already a member or already asked.',
  request: zBase.extend({
    companyId: zId.optional(),
    inviteCode: z.string().trim().min(4).max(32).optional(),
  }),
  response: zMyCompany,
});

export const getMyCompanyList = defineCall({
  call: P.getMyCompanyList,
  auth: true,
  summary:
    "The caller's companies: every membership with its role and state (pending, active, disabled, rejected).",
  request: zBase,
  response: z.array(zMyCompany),
});

export const cancelJoinCompany = defineCall({
  call: P.cancelJoinCompany,
  auth: true,
  summary: "Withdraw one's own pending join request.",
  request: zBase.extend({ memberId: zId }),
  response: z.null(),
});

export const zMember = z.object({
  memberId: z.string(),
  userId: z.string(),
  name: z.string().nullable(),
  /** Masked (138****5678). */
  phone: z.string(),
  role: zCompanyRole,
  status: zMemberStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Member lists (getCompanyMemberList, getCompanyStaffList): the member's roles ('admin', then the granted
   * ones; a disabled member's granted roles are listed but act only once enabled again).
   */
  roles: z.array(zMemberRole).optional(),
  /**
   * Member lists: the company's legal representative (the member whose verified real name is the registered
   * legal representative's, or the applicant who opened it as legal representative).
   */
  isLegalRep: z.boolean().optional(),
});
export type Member = z.infer<typeof zMember>;

export const getCompanyMemberList = defineCall({
  call: P.getCompanyMemberList,
  auth: true,
  summary:
    "Members of the session's company (administrator only): filter by name or phone and by state; paginated. " +
    'Removed members are left out.',
  request: zBase.extend(zPageRequest.shape).extend({
    keyword: z.string().trim().max(32).optional(),
    status: zMemberStatus.optional(),
  }),
  response: zPage(zMember),
});

export const getCompanyStaffList = defineCall({
  call: P.getCompanyStaffList,
  auth: true,
  summary: "Active members of the session's company (any active member): names, masked phones, roles.",
  request: zBase,
  response: z.array(zMember),
});

const zMemberAction = zBase.extend({ memberId: zId });

export const approveJoinCompany = defineCall({
  call: P.approveJoinCompany,
  auth: true,
  summary:
    'Administrator: approve (isApproved true) or reject a pending join request of the session company.',
  request: zMemberAction.extend({ isApproved: z.boolean() }),
  response: zMember,
});

/**
 * An operator invitation. `status` 'expired' is a pending one past `expiresAt`. The administrator sees the
 * phone masked; the invitee sees the company and who invited them.
 */
export const zInvitationStatus = z.enum(['pending', 'accepted', 'declined', 'withdrawn', 'expired']);
export const zCompanyInvitation = z.object({
  invitationId: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  /** Masked (138****5678). */
  phone: z.string(),
  role: zCompanyRole,
  status: zInvitationStatus,
  /** Whether the phone has an account yet (administrator's view); an unregistered one is asked to register. */
  isRegistered: z.boolean(),
  invitedByName: z.string().nullable(),
  sentCount: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyInvitation = z.infer<typeof zCompanyInvitation>;

export const addCompanyOperator = defineCall({
  call: P.addCompanyOperator,
  auth: true,
  summary:
    'Administrator: INVITE a phone to become an operator of the session company (role: operator). The phone ' +
    'gets an SMS and, once it has an account, a message; the person becomes an operator only on accepting ' +
    `(answerCompanyInvitation) within ${INVITATION_LIFETIME_DAYS} days. An unregistered phone is asked to ` +
    'register first. Inviting a phone with a pending invitation sends that one again. Refused for a member.',
  request: zBase.extend({ phone: zPhone, role: zCompanyRole.extract(['operator']).optional() }),
  response: zCompanyInvitation,
});

const zInvitationAction = zBase.extend({ invitationId: zId });

export const getCompanyInvitationList = defineCall({
  call: P.getCompanyInvitationList,
  auth: true,
  summary: "Administrator: the session company's invitations, newest first (pending, answered, expired).",
  request: zBase.extend(zPageRequest.shape).extend({ status: zInvitationStatus.optional() }),
  response: zPage(zCompanyInvitation),
});

export const withdrawCompanyInvitation = defineCall({
  call: P.withdrawCompanyInvitation,
  auth: true,
  summary: 'Administrator: withdraw a pending invitation; it can no longer be accepted.',
  request: zInvitationAction,
  response: zCompanyInvitation,
});

export const resendCompanyInvitation = defineCall({
  call: P.resendCompanyInvitation,
  auth: true,
  summary:
    'Administrator: send an invitation again (SMS and message) with a fresh lifetime; a declined, expired or ' +
    'withdrawn one becomes pending again. Refused when the person is already a member.',
  request: zInvitationAction,
  response: zCompanyInvitation,
});

export const getMyCompanyInvitations = defineCall({
  call: P.getMyCompanyInvitations,
  auth: true,
  summary:
    "Invitations addressed to the caller's phone, newest first (pending ones to answer, and answered).",
  request: zBase,
  response: z.array(zCompanyInvitation),
});

export const getCompanyInvitation = defineCall({
  call: P.getCompanyInvitation,
  auth: true,
  summary:
    "One invitation addressed to the caller's phone (the screen of its SMS link); another phone's is not found.",
  request: zInvitationAction,
  response: zCompanyInvitation,
});

export const answerCompanyInvitation = defineCall({
  call: P.answerCompanyInvitation,
  auth: true,
  summary:
    "Accept (isAccepted true) or decline an invitation addressed to the caller's phone. Accepting makes the " +
    'caller an active member with the invited role. Only a pending, unexpired invitation can be answered, once.',
  request: zInvitationAction.extend({ isAccepted: z.boolean() }),
  response: zCompanyInvitation,
});

export const zCompanyEvent = z.object({
  id: z.string(),
  kind: z.enum([
    'invitation_sent',
    'invitation_resent',
    'invitation_withdrawn',
    'invitation_accepted',
    'invitation_declined',
    'invitation_expired',
    // Seal governance (issue 27).
    'role_granted',
    'role_revoked',
    'seal_keeper_granted',
    'seal_keeper_revoked',
    'seal_policy_changed',
    'launch_policy_changed',
    'approval_requested',
    'approval_decided',
    'letter_issued',
    'letter_accepted',
    'letter_revoked',
    'handover',
  ]),
  actorName: z.string().nullable(),
  /** The member concerned (a role's holder, a hand-over's giver), when there is one. */
  subjectName: z.string().nullable().default(null),
  /** What changed, by kind: `{role}`, `{sealId, sealName}`, `{approvalId, flowTitle, decision}`, ... */
  detail: z.record(z.string(), z.unknown()).nullable().default(null),
  /** Masked. */
  phone: z.string().nullable(),
  invitationId: z.string().nullable(),
  createdAt: z.string(),
});
export type CompanyEvent = z.infer<typeof zCompanyEvent>;

export const setCompanyMemberRoles = defineCall({
  call: P.setCompanyMemberRoles,
  auth: true,
  summary:
    'Administrator: sets an active member’s granted roles (handler, seal keeper, approver) to exactly these. Each ' +
    'role added or removed goes into the company’s audit trail and takes effect on the member’s next call.',
  request: zBase.extend({ userId: zId, roles: z.array(zGrantedRole).max(GRANTED_ROLES.length) }),
  response: z.object({ userId: z.string(), roles: z.array(zMemberRole) }),
});

/** What a hand-over moves (or would move), by kind. */
export const zHandoverCounts = z.object({
  /** Open flows `from` launched for the company. */
  flows: z.number().int(),
  /** Open company parties addressed to `from` (waiting or pending). */
  parties: z.number().int(),
  /** Templates `from` created. */
  templates: z.number().int(),
  /** `from`'s live seal authorisations. */
  sealAuthorisations: z.number().int(),
  /** Seals `from` keeps. */
  sealKeepings: z.number().int(),
  /** Other modules' rows (approvals, authorisation letters), by kind. */
  other: z.record(z.string(), z.number().int()),
});
export type HandoverCounts = z.infer<typeof zHandoverCounts>;

const zHandover = zBase.extend({ fromUserId: zId, toUserId: zId });

export const previewHandover = defineCall({
  call: P.previewHandover,
  auth: true,
  summary:
    'Administrator: what handOverMember would move from a member (counts only, nothing changes); without ' +
    "toUserId, the member's open work (whether removing their handler role or them leaves work behind).",
  request: zHandover.extend({ toUserId: zId.optional() }),
  response: zHandoverCounts,
});

export const handOverMember = defineCall({
  call: P.handOverMember,
  auth: true,
  summary:
    "Administrator: hands a member's open work to an active member holding the handler role, in one step: open " +
    'flows they launched, open company parties addressed to them (the receiver is sent the links), templates they ' +
    'created, live seal authorisations and seal keepings. Recorded as one `handover` entry of the audit trail.',
  request: zHandover,
  response: zHandoverCounts,
});

export const getCompanyAuditTrail = defineCall({
  call: P.getCompanyAuditTrail,
  auth: true,
  summary: "Administrator: the session company's audit trail of membership steps, newest first.",
  request: zBase.extend(zPageRequest.shape),
  response: zPage(zCompanyEvent),
});

export const disableCompanyOperator = defineCall({
  call: P.disableCompanyOperator,
  auth: true,
  summary:
    'Administrator: disable an active operator (cannot log into or act for the company until enabled).',
  request: zMemberAction,
  response: zMember,
});

export const enableCompanyOperator = defineCall({
  call: P.enableCompanyOperator,
  auth: true,
  summary: 'Administrator: enable a disabled operator again.',
  request: zMemberAction,
  response: zMember,
});

export const removeCompanyOperator = defineCall({
  call: P.removeCompanyOperator,
  auth: true,
  summary: 'Administrator: remove an operator from the session company (the user may ask to join again).',
  request: zMemberAction,
  response: z.null(),
});

export const transferCompanyAdmin = defineCall({
  call: P.transferCompanyAdmin,
  auth: true,
  summary:
    'Administrator: hand the administrator role to an active operator; the caller becomes an operator. ' +
    'Answers the caller’s new login info.',
  request: zMemberAction,
  response: zLoginInfo,
});

export const getExclusiveCode = defineCall({
  call: P.getExclusiveCode,
  auth: true,
  summary:
    "The session company's invitation code and link (any active member): a user who enters it in joinCompany asks " +
    'to join without searching. isRenewed makes a new code (administrator only) and the old one stops working.',
  request: zBase.extend({ isRenewed: z.boolean().optional() }),
  response: z.object({ code: z.string(), link: z.string(), companyName: z.string() }),
});

/** A person in a picker: never more than a name and a masked phone. */
export const zPickedUser = z.object({ userId: z.string(), name: z.string().nullable(), phone: z.string() });

export const searchCompanyOperator = defineCall({
  call: P.searchCompanyOperator,
  auth: true,
  summary:
    'Active members (administrator and operators) of the session company whose name contains the keyword, or whose ' +
    'phone is the keyword in full (never a part of a phone); paginated. Limited per account per hour (1005).',
  request: zBase.extend(zPageRequest.shape).extend({ keyword: z.string().trim().max(32).optional() }),
  response: zPage(zPickedUser.extend({ role: zCompanyRole })),
});

export const chooseUserList = defineCall({
  call: P.chooseUserList,
  auth: true,
  summary:
    'Signer picker, persons: registered users with exactly this 11-digit phone, or exactly this name ' +
    '(at most 10). Only name and masked phone are returned: no list of strangers can be pulled out.',
  request: zBase.extend({
    keyword: z
      .string()
      .trim()
      .min(2, bi('enter a full phone number or a full name', '请输入完整的手机号或完整姓名'))
      .max(32),
  }),
  response: z.array(zPickedUser),
});

export const chooseUserOperatorList = defineCall({
  call: P.chooseUserOperatorList,
  auth: true,
  summary:
    'Signer picker, company signers: active members of a verified company (companyId; default the session ' +
    "company), for that company's administrators only (anyone else: 1101, as for an unknown company), optionally " +
    'filtered by part of a name or a full phone (never a part of a phone). Only name and masked phone are returned. ' +
    'Limited per account per hour (1005).',
  request: zBase.extend({ companyId: zId.optional(), keyword: z.string().trim().max(32).optional() }),
  response: z.array(zPickedUser.extend({ role: zCompanyRole })),
});

/** One identity the user can act as (the person account, or a company where the user is an active member). */
export const zSwitchableAccount = z.object({
  userType: z.number().int(),
  companyId: z.string().nullable(),
  name: z.string().nullable(),
  role: zCompanyRole.nullable(),
  isCurrent: z.boolean(),
});

export const getSwitchableAccounts = defineCall({
  call: P.getSwitchableAccounts,
  auth: true,
  summary: 'The identities the user can switch to: the person account and each company of active membership.',
  request: zBase,
  response: z.array(zSwitchableAccount),
});

export const switchAccount = defineCall({
  call: P.switchAccount,
  auth: true,
  summary:
    'Switch the session to the person account (targetUserType 0) or to a company (targetUserType 1 + companyId) ' +
    'where the user is an active member; answers the new login info (refresh the cached user info with it).',
  request: zBase.extend({ targetUserType: z.number().int().min(0).max(1), companyId: zId.optional() }),
  response: zLoginInfo,
});

/**
 * Multipart call: form fields `userType` and `companyId` (first), then the file in `file`: a PNG, JPG or PDF
 * of at most 10 MB (checked by its first bytes, not its name). For the applicant's pending application, or
 * by the administrator for the session's company (/mobile/adminPowerAuth replaces the letter).
 */
export const uploadPowerOfAttorney = defineCall({
  call: P.uploadPowerOfAttorney,
  auth: true,
  summary:
    'multipart/form-data: upload or replace the power-of-attorney letter (PNG/JPG/PDF, ≤ 10 MB) of a pending ' +
    "application of the caller, or of the session's company by its administrator. Fields userType, companyId, file.",
  request: zBase.extend({ companyId: zId }),
  response: zCompanyApply,
});

export const companyCalls = [
  uploadPowerOfAttorney,
  applyCompanyEsign,
  getCompanyApply,
  sendCompanyMicroPayment,
  confirmCompanyMicroPayment,
  getCompanyCaCert,
  getCompanyAccountInfo,
  searchCompanyToJoin,
  joinCompany,
  getMyCompanyList,
  cancelJoinCompany,
  getCompanyMemberList,
  getCompanyStaffList,
  approveJoinCompany,
  addCompanyOperator,
  getCompanyInvitationList,
  withdrawCompanyInvitation,
  resendCompanyInvitation,
  getMyCompanyInvitations,
  getCompanyInvitation,
  answerCompanyInvitation,
  getCompanyAuditTrail,
  setCompanyMemberRoles,
  previewHandover,
  handOverMember,
  disableCompanyOperator,
  enableCompanyOperator,
  removeCompanyOperator,
  transferCompanyAdmin,
  getExclusiveCode,
  searchCompanyOperator,
  chooseUserList,
  chooseUserOperatorList,
  getSwitchableAccounts,
  switchAccount,
] as const;
