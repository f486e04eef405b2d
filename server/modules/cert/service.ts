import type { Actor } from '../../lib/actor.ts';
import type {
  CertChangeInfo,
  CertChangeReason,
  CertRecord,
  RevocationReasonName,
} from '#contract/calls/cert.ts';
import { Code } from '#contract/codes.ts';
import { SmsPurpose, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import type { CertHolder } from '../../pki/cert-repository.ts';
import { x509 } from '../../pki/crypto.ts';
import { PkiInputError } from '../../pki/issue.ts';
import { DAY_MS, Oid, RevocationReason } from '../../pki/profile.ts';
import { type CompanyAccess, getCompany, requireCompanyRole } from '../company/index.ts';
import { verifiedNameOf } from '../person/index.ts';
import { maskPhone } from '../person/index.ts';
import {
  type HolderCertificate,
  holderCertificates,
  holderGoodSerials,
  pkiFor,
  presentCertSummary,
} from '../pki/index.ts';
import { findUserById } from '../session/index.ts';
import { consumeSmsCode, sendSmsCode } from '../session/index.ts';
import { X } from './texts.ts';

/** Fewer days left than this: the screen advises renewal. */
const RENEW_ADVICE_DAYS = 30;

/** The RFC 5280 reason each choice of the screen is published under. */
const REASON_CODE: Record<CertChangeReason, RevocationReason> = {
  nameChanged: RevocationReason.AffiliationChanged,
  keyCompromise: RevocationReason.KeyCompromise,
  cessationOfOperation: RevocationReason.CessationOfOperation,
};

const REASON_NAME: Record<number, RevocationReasonName> = {
  [RevocationReason.Unspecified]: 'unspecified',
  [RevocationReason.KeyCompromise]: 'keyCompromise',
  [RevocationReason.CaCompromise]: 'cACompromise',
  [RevocationReason.AffiliationChanged]: 'affiliationChanged',
  [RevocationReason.Superseded]: 'superseded',
  [RevocationReason.CessationOfOperation]: 'cessationOfOperation',
  [RevocationReason.CertificateHold]: 'certificateHold',
  [RevocationReason.PrivilegeWithdrawn]: 'privilegeWithdrawn',
};

/** Whose certificate the session works on: the person's own, or the session company's. */
type Caller =
  | { kind: 'person'; actor: Actor; holder: CertHolder }
  | { kind: 'company'; actor: Actor; holder: CertHolder; access: CompanyAccess };

async function callerOf(deps: AppDeps, actor: Actor): Promise<Caller> {
  if (actor.userType === UserType.Company) {
    // Reading is open to every ACTIVE member of the VERIFIED company of the session (602 otherwise);
    // the company always comes from the session, never from the body.
    const access = await requireCompanyRole(deps, actor, ['admin', 'operator']);
    return {
      kind: 'company',
      actor,
      access,
      holder: { userType: UserType.Company, accountId: access.companyId },
    };
  }
  return { kind: 'person', actor, holder: { userType: UserType.Person, accountId: actor.userId } };
}

/**
 * Authorisation of a change: a person changes only their own certificate (the holder is the session's
 * user); a company certificate speaks for the whole company, so only its administrator may replace or
 * revoke it — an operator gets HTTP 602.
 */
function requireChangeRight(caller: Caller): void {
  if (caller.kind === 'company' && caller.access.role !== 'admin') throw noPermission();
}

/** The name a certificate issued now would carry: the verified real name, or the company's name. */
async function currentNameOf(deps: AppDeps, caller: Caller): Promise<string | null> {
  if (caller.kind === 'company')
    return (await getCompany(deps, caller.holder.accountId))?.name.trim() ?? null;
  return verifiedNameOf(deps, caller.holder.accountId);
}

async function callerPhone(deps: AppDeps, actor: Actor): Promise<string> {
  const user = await findUserById(deps.db, actor.userId);
  if (!user) throw new AppError(Code.NotLoggedIn, T.notLoggedIn);
  return user.phone;
}

function subjectNames(pem: string): { commonName: string; organisation: string | null } {
  const name = new x509.X509Certificate(pem).subjectName;
  return {
    commonName: name.getField(Oid.commonName)[0] ?? '',
    organisation: name.getField(Oid.organization)[0] ?? null,
  };
}

function present(
  row: HolderCertificate,
  ctx: { issuer: string; now: Date; currentSerial?: string },
): CertRecord {
  return {
    ...presentCertSummary(row),
    commonName: subjectNames(row.pem).commonName,
    issuer: ctx.issuer,
    isExpired: row.notAfter.getTime() <= ctx.now.getTime(),
    isCurrent: row.serial === ctx.currentSerial,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revocationReason:
      row.revocationReason === null ? null : (REASON_NAME[row.revocationReason] ?? 'unspecified'),
    issuedAt: row.createdAt.toISOString(),
  };
}

/** Whether `name` differs from the certificate's (CN, and O for a company certificate). */
function isNameDifferent(pem: string, name: string, kind: Caller['kind']): boolean {
  const names = subjectNames(pem);
  if (names.commonName.trim() !== name) return true;
  return kind === 'company' && (names.organisation ?? '').trim() !== name;
}

/** getCertChangeInfo: the holder's current certificate, the advice to renew, and the earlier ones. */
export async function certChangeInfo(deps: AppDeps, actor: Actor): Promise<CertChangeInfo> {
  const caller = await callerOf(deps, actor);
  const pki = await pkiFor(deps);
  const now = deps.clock.now();
  const [current, rows, currentName, phone] = await Promise.all([
    pki.current(caller.holder),
    holderCertificates(deps, caller.holder),
    currentNameOf(deps, caller),
    callerPhone(deps, actor),
  ]);
  const ctx = { issuer: pki.ca.issuing.cert.subject, now, currentSerial: current?.serial };
  const records = rows.map((r) => present(r, ctx));
  const daysLeft = current
    ? Math.max(0, Math.floor((current.notAfter.getTime() - now.getTime()) / DAY_MS))
    : null;
  return {
    userType: caller.holder.userType,
    currentName,
    current: records.find((r) => r.isCurrent) ?? null,
    daysLeft,
    isRenewalAdvised: daysLeft !== null && daysLeft < RENEW_ADVICE_DAYS,
    renewAdviceDays: RENEW_ADVICE_DAYS,
    isNameChanged:
      current !== undefined && currentName !== null && isNameDifferent(current.pem, currentName, caller.kind),
    canChange: caller.kind === 'person' || caller.access.role === 'admin',
    role: caller.kind === 'company' ? caller.access.role : null,
    phoneMasked: maskPhone(phone),
    history: records.filter((r) => !r.isCurrent),
  };
}

/** The caller's current certificate, after the change right is checked; refuses when there is none. */
async function changeTarget(deps: AppDeps, actor: Actor) {
  const caller = await callerOf(deps, actor);
  requireChangeRight(caller);
  const pki = await pkiFor(deps);
  const current = await pki.current(caller.holder);
  if (!current) throw new AppError(Code.Refused, X.noCertificate);
  return { caller, pki, current };
}

/** sendCertChangeSmsCode: the confirmation code goes to the caller's own phone, never to one from the body. */
export async function sendChangeCode(deps: AppDeps, actor: Actor, ip: string) {
  await changeTarget(deps, actor);
  const phone = await callerPhone(deps, actor);
  const sent = await sendSmsCode(deps, phone, SmsPurpose.CertChange, ip);
  return { phoneMasked: maskPhone(phone), ...sent };
}

async function presentIssued(deps: AppDeps, holder: CertHolder, serial: string) {
  const pki = await pkiFor(deps);
  const rows = await holderCertificates(deps, holder);
  const row = rows.find((r) => r.serial === serial);
  if (!row) throw new Error(`issued certificate ${serial} is missing`);
  const current = await pki.current(holder);
  return present(row, {
    issuer: pki.ca.issuing.cert.subject,
    now: deps.clock.now(),
    currentSerial: current?.serial,
  });
}

const issueError = (err: unknown) =>
  err instanceof PkiInputError ? new AppError(Code.Refused, X.issueFailed(err.message)) : err;

/**
 * renewCaCert: a new key and certificate with the same subject; the previous certificate stays good until
 * it expires, so documents signed with it stay verifiable.
 */
export async function renewCert(deps: AppDeps, actor: Actor, smsCode: string) {
  const { caller, pki, current } = await changeTarget(deps, actor);
  await consumeSmsCode(deps, await callerPhone(deps, actor), SmsPurpose.CertChange, smsCode);
  const issued = await pki.renew(caller.holder).catch((err) => {
    throw issueError(err);
  });
  deps.log.info(
    {
      userType: caller.holder.userType,
      accountId: caller.holder.accountId,
      serial: issued.serial,
      previous: current.serial,
    },
    'cert: certificate renewed',
  );
  return {
    certificate: await presentIssued(deps, caller.holder, issued.serial),
    previousSerial: current.serial,
  };
}

/**
 * reissueCaCert: a new certificate with the current name, then the current one is revoked with the
 * reason. Earlier certificates that are still good are revoked too: they carry the old name, or keys
 * kept in the same place as the compromised one, and the holder asked to stop them all.
 * Reason nameChanged needs a name that really changed (for a person: through real-name verification).
 */
export async function reissueCert(deps: AppDeps, actor: Actor, reason: CertChangeReason, smsCode: string) {
  const { caller, pki, current } = await changeTarget(deps, actor);
  const name = await currentNameOf(deps, caller);
  if (!name) throw new AppError(Code.Refused, caller.kind === 'person' ? X.needRealName : X.companyMissing);
  if (reason === 'nameChanged' && !isNameDifferent(current.pem, name, caller.kind))
    throw new AppError(
      Code.Refused,
      caller.kind === 'person' ? X.personNameUnchanged : X.companyNameUnchanged,
    );
  await consumeSmsCode(deps, await callerPhone(deps, actor), SmsPurpose.CertChange, smsCode);
  const code = REASON_CODE[reason];
  const change = caller.kind === 'company' ? { name, organisation: name } : { name };
  const { issued, revokedSerial } = await pki.reissue(caller.holder, change, code).catch((err) => {
    throw issueError(err);
  });
  const revokedSerials = [revokedSerial];
  const stillGood = await holderGoodSerials(deps, caller.holder, deps.clock.now());
  for (const serial of stillGood) {
    if (serial === issued.serial) continue;
    try {
      await pki.revoke(serial, code);
      revokedSerials.push(serial);
    } catch (err) {
      // Revoked meanwhile by a concurrent change: what matters is that it is revoked.
      if (!(err instanceof PkiInputError)) throw err;
    }
  }
  deps.log.info(
    {
      userType: caller.holder.userType,
      accountId: caller.holder.accountId,
      serial: issued.serial,
      revokedSerials,
      reason,
    },
    'cert: certificate revoked and reissued',
  );
  return {
    certificate: await presentIssued(deps, caller.holder, issued.serial),
    revokedSerials,
    revocationReason: REASON_NAME[code],
  };
}
