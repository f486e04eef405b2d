import { createSecretKey } from 'node:crypto';
import { loginEsign } from '#contract/calls/partner.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import { callPath } from '#contract/envelope.ts';
import { findPartner } from '#server/config/partner.ts';
import { mintPartnerToken, signingKeyFor } from '#server/modules/partner/index.ts';
import type { Agent, TestApp } from '../helper.ts';

/** A token as the configured partner would mint it (the same code as scripts/partner-token.ts). */
export function tokenFor(
  t: TestApp,
  code: string,
  phone: string,
  opts: Omit<Parameters<typeof mintPartnerToken>[0], 'partner' | 'key' | 'phone'> & { secret?: string } = {},
): string {
  const partner = findPartner(t.deps.config.partners, code);
  if (!partner) throw new Error(`partner ${code} is not configured`);
  const key = opts.secret ? createSecretKey(Buffer.from(opts.secret)) : signingKeyFor(partner);
  return mintPartnerToken({ partner, key, phone, now: t.clock.now(), ...opts });
}

export const loginEsignUrl = (token: string) =>
  `${callPath(loginEsign)}?jsToken=${encodeURIComponent(token)}`;

export const partnerLogin = (agent: Agent, token: string, headers: Record<string, string> = {}) =>
  agent.call<LoginInfo>(loginEsignUrl(token), { userType: 0 }, { headers });
