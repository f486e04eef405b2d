import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PartnerIdentity } from '#contract/calls/partner.ts';
import { PARTNER_TOKEN_CLOCK_SKEW_SECONDS } from '#contract/calls/partner.ts';
import { Code } from '#contract/codes.ts';
import { HyLoginType, UserType } from '#contract/enums.ts';
import { UserStatus } from '../../db/schema/accounts.ts';
import { type OpenedVia, OpenedVia as Via } from '../../db/schema/partner.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { isLocalClient } from '../../http/local-client.ts';
import { T } from '../../http/texts.ts';
import { companiesOf, createSignerAccount, findUserById } from '../session/index.ts';
import { type LiveSession, startSession } from '../session/index.ts';
import type { CentralPlatform } from './central-platform.ts';
import { findPartner } from '../../config/partner.ts';
import { verifyPartnerToken } from './partner-token.ts';
import {
  findLinkByPartnerUser,
  findLinkByUser,
  findPartnerIdentityOfSession,
  insertLink,
  insertPartnerSession,
  recordOpening,
  recordTokenUse,
  touchLink,
} from './queries.ts';
import { P } from './texts.ts';

/**
 * The account of a phone, opened when there is none. An account opened here has no password anyone knows
 * (the hash of 32 random bytes): its owner logs in through the partner or central platform, or sets a
 * password with an SMS code (resetPassword). How it was opened is recorded in external_account_openings.
 */
async function accountOfPhone(
  deps: AppDeps,
  phone: string,
  via: OpenedVia,
  partnerCode: string | null,
): Promise<string> {
  const { userId, isNew } = await createSignerAccount(deps, phone);
  if (isNew) await recordOpening(deps.db, { userId, via, partnerCode, now: deps.clock.now() });
  return userId;
}

async function requireActive(deps: AppDeps, userId: string): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new Error(`linked user ${userId} is missing`);
  if (user.status !== UserStatus.Active) throw new AppError(Code.AccountDisabled, T.accountDisabled);
}

/**
 * loginEsign: verifies the partner token, uses it up (jti), finds the linked account or opens / links the
 * account of the token's phone, and starts a session of the person account here.
 */
export async function loginWithPartnerToken(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  jsToken: string,
  previous: LiveSession | null,
): Promise<LiveSession> {
  const now = deps.clock.now();
  const claims = verifyPartnerToken(deps.config.partners, jsToken, now, {
    isLocalClient: isLocalClient(req),
  });
  const code = claims.partner.code;
  // Kept until the token could no longer pass the expiry check, skew included; afterwards exp refuses it.
  const keepUntil = new Date((claims.exp + PARTNER_TOKEN_CLOCK_SKEW_SECONDS + 1) * 1000);
  if (!(await recordTokenUse(deps.db, { partnerCode: code, jti: claims.jti, now, keepUntil }))) {
    throw new AppError(Code.PartnerTokenReplayed, P.replayed);
  }

  // The partner's user id is the identity: once linked, later tokens reach the same account even if the
  // phone the partner sends changes. The phone only matters for the first login.
  let link = await findLinkByPartnerUser(deps.db, code, claims.partnerUserId);
  if (!link) {
    const userId = await accountOfPhone(deps, claims.phone, Via.Partner, code);
    const other = await findLinkByUser(deps.db, code, userId);
    // The partner vouches for the phone, but an account already tied to another user of the same partner is
    // not handed over: that would let one partner account take over another's.
    if (other) throw new AppError(Code.PartnerLinkConflict, P.linkConflict);
    const isLinked = await insertLink(deps.db, {
      partnerCode: code,
      partnerUserId: claims.partnerUserId,
      userId,
      name: claims.name,
      now,
    });
    link = await findLinkByPartnerUser(deps.db, code, claims.partnerUserId);
    if (!isLinked && link?.userId !== userId) throw new AppError(Code.PartnerLinkConflict, P.linkConflict);
  } else {
    await touchLink(deps.db, {
      partnerCode: code,
      partnerUserId: claims.partnerUserId,
      name: claims.name,
      now,
    });
  }
  if (!link) throw new Error('partner link missing after insert');
  await requireActive(deps, link.userId);

  const session = await startSession(
    deps,
    reply,
    {
      userId: link.userId,
      userType: UserType.Person,
      companyId: null,
    },
    previous,
  );
  await insertPartnerSession(deps.db, {
    sessionId: session.id,
    partnerCode: code,
    partnerUserId: claims.partnerUserId,
  });
  return session;
}

/** getLoginInfoFromJinshang: the partner identity of the caller's own session, or null. */
export async function partnerIdentityOf(
  deps: AppDeps,
  session: LiveSession | null,
): Promise<PartnerIdentity | null> {
  if (!session) return null;
  const row = await findPartnerIdentityOfSession(deps.db, session.id);
  if (!row) return null;
  return {
    fromPtCode: row.partnerCode,
    fromPtName: findPartner(deps.config.partners, row.partnerCode)?.name ?? row.partnerCode,
    partnerUserId: row.partnerUserId,
    name: row.name,
  };
}

/**
 * loginAsHy: converts the central user centre's login into a session here (SPEC §6). A company login (4)
 * acts for the company of that name when the account belongs to it (else its first company); without any
 * company here it becomes a person session, from which the user can open or join one.
 */
export async function loginFromCentral(
  deps: AppDeps,
  central: CentralPlatform,
  req: FastifyRequest,
  reply: FastifyReply,
  previous: LiveSession | null,
): Promise<LiveSession> {
  // The development centre answers only this machine: say so rather than "not logged in" (issue 23).
  if (central.isDevelopment && !isLocalClient(req)) throw new AppError(Code.Refused, P.devCentralLocalOnly);
  const login = await central.currentLogin(req);
  if (login.loginType === HyLoginType.None) throw new AppError(Code.CentralNotLoggedIn, P.centralNotLoggedIn);
  const userId = await accountOfPhone(deps, login.user.phone, Via.Central, null);
  await requireActive(deps, userId);
  let userType: number = UserType.Person;
  let companyId: string | null = null;
  if (login.loginType === HyLoginType.Company) {
    const companies = await companiesOf(deps, userId);
    const company = companies.find((c) => c.name === login.user.companyName) ?? companies[0];
    if (company) {
      userType = UserType.Company;
      companyId = company.id;
    }
  }
  return startSession(deps, reply, { userId, userType, companyId }, previous);
}
