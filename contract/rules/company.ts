/**
 * Constants of company accounts that both sides use at runtime (no zod here, so the client may import
 * them): the power-of-attorney upload and the micro-payment verification.
 */
import { companyPowerOfAttorney } from '../paths/company.ts';

/** GET `${path}/<companyId>`: the letter's bytes, for the applicant of a pending application or a member. */
export const POWER_OF_ATTORNEY_FILE_PATH = companyPowerOfAttorney.path;
/** Largest power-of-attorney letter accepted. */
export const POWER_OF_ATTORNEY_MAX_BYTES = 10 * 1024 * 1024;
/** Wrong micro-payment amounts allowed before the payment must be sent again. */
export const MICRO_PAYMENT_MAX_ATTEMPTS = 3;

/** How long an operator invitation waits for its answer before it expires. */
export const INVITATION_LIFETIME_DAYS = 7;

/** SPA route (hash router) of an operator invitation's screen: the SMS link and the message open it. */
export const COMPANY_INVITATION_ROUTE = '/companyInvitation';
export const companyInvitationPath = (invitationId: string) => `${COMPANY_INVITATION_ROUTE}/${invitationId}`;
