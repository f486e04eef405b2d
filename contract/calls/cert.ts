import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/cert.ts';
import { zSmsCode } from './session.ts';

// Certificate change (/manage/certChange): renew, and revoke-and-reissue with a reason. The holder is the
// session's account: the person for userType 0, the session's company for userType 1.

/**
 * Why a certificate is revoked and reissued (the fixed list the user picks from), with the RFC 5280
 * CRLReason each one is published under in the CRL and OCSP:
 * nameChanged → affiliationChanged (3), keyCompromise → keyCompromise (1),
 * cessationOfOperation → cessationOfOperation (5).
 */
export const CERT_CHANGE_REASONS = ['nameChanged', 'keyCompromise', 'cessationOfOperation'] as const;
export const zCertChangeReason = z.enum(CERT_CHANGE_REASONS);
export type CertChangeReason = z.infer<typeof zCertChangeReason>;

/** RFC 5280 CRLReason names as the platform publishes them (what `openssl ocsp` prints too). */
export const zRevocationReasonName = z.enum([
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'privilegeWithdrawn',
]);
export type RevocationReasonName = z.infer<typeof zRevocationReasonName>;

/** One certificate of the holder, as the certificate-change screen shows it. */
export const zCertRecord = z.object({
  /** Certificate serial number, lower-case hex. */
  serial: z.string(),
  /** RFC 4514 subject text. */
  subject: z.string(),
  /** The subject's common name (the person's or the company's name). */
  commonName: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  /** What the CRL and the OCSP responder say about it. */
  status: z.enum(['good', 'revoked']),
  /** notAfter has passed (an expired certificate is no longer listed on the CRL). */
  isExpired: z.boolean(),
  /** The certificate new signatures are made with. */
  isCurrent: z.boolean(),
  revokedAt: z.string().nullable(),
  revocationReason: zRevocationReasonName.nullable(),
  issuedAt: z.string(),
});
export type CertRecord = z.infer<typeof zCertRecord>;

export const zCertChangeInfo = z.object({
  /** 0: the person's own certificate; 1: the session's company's certificate. */
  userType: z.number().int(),
  /** The name a reissued certificate would carry now: the verified real name, or the company's name. */
  currentName: z.string().nullable(),
  /** The current certificate, or null (never issued, expired or revoked without a successor). */
  current: zCertRecord.nullable(),
  /** Whole days until the current certificate expires (rounded down), or null. */
  daysLeft: z.number().int().nullable(),
  /** Renewal is advisable: fewer than `renewAdviceDays` days are left. */
  isRenewalAdvised: z.boolean(),
  renewAdviceDays: z.number().int(),
  /** The current name differs from the certificate's (reason nameChanged is possible). */
  isNameChanged: z.boolean(),
  /** The caller may renew or reissue (the person; for a company its administrator only). */
  canChange: z.boolean(),
  /** The caller's company role for userType 1, else null. */
  role: z.enum(['admin', 'operator']).nullable(),
  /** Where the confirmation SMS code goes (the caller's phone, masked 3 + 4). */
  phoneMasked: z.string(),
  /** Earlier certificates of the holder, newest first (the current one excluded). */
  history: z.array(zCertRecord),
});
export type CertChangeInfo = z.infer<typeof zCertChangeInfo>;

export const getCertChangeInfo = defineCall({
  call: P.getCertChangeInfo,
  auth: true,
  summary:
    'The certificate of the caller (the person for userType 0; the session company for userType 1, readable by any ' +
    'active member) with serial, subject, issuer, validity, status, days left and whether renewal is advisable ' +
    '(< 30 days), plus the earlier certificates with their revocation status and reason.',
  request: zBase,
  response: zCertChangeInfo,
});

export const sendCertChangeSmsCode = defineCall({
  call: P.sendCertChangeSmsCode,
  auth: true,
  summary:
    "Sends the SMS code (purpose certChange) that confirms a renewal or reissue to the caller's own phone. Only for " +
    'callers who may change the certificate (the person; a company administrator, else HTTP 602).',
  request: zBase,
  response: z.object({
    phoneMasked: z.string(),
    expiresInSeconds: z.number().int(),
    resendAfterSeconds: z.number().int(),
  }),
});

export const renewCaCert = defineCall({
  call: P.renewCaCert,
  auth: true,
  summary:
    'Renews the current certificate: a new key and certificate with the same subject. The old one stays valid ' +
    'until it expires. Person: the person themself; company: the administrator only (HTTP 602 otherwise). ' +
    'Confirmed by an SMS code of purpose certChange sent to the caller.',
  request: zBase.extend({ smsCode: zSmsCode }),
  response: z.object({ certificate: zCertRecord, previousSerial: z.string() }),
});

export const reissueCaCert = defineCall({
  call: P.reissueCaCert,
  auth: true,
  summary:
    'Revokes the current certificate (and any earlier one still valid) with a reason and issues a new one with the ' +
    "current name: the person's verified real name, or the company's name. Reason nameChanged is refused while " +
    "that name equals the certificate's (a person changes name through real-name verification first). " +
    'Same permission and SMS confirmation as renewCaCert. The revoked serials answer "revoked" on OCSP and the CRL.',
  request: zBase.extend({ reason: zCertChangeReason, smsCode: zSmsCode }),
  response: z.object({
    certificate: zCertRecord,
    revokedSerials: z.array(z.string()),
    revocationReason: zRevocationReasonName,
  }),
});

export const certCalls = [getCertChangeInfo, sendCertChangeSmsCode, renewCaCert, reissueCaCert] as const;
