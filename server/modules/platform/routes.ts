import { getPlatformConfig } from '#contract/calls/platform.ts';
import { PlatformCode } from '#contract/enums.ts';
import type { Config } from '../../config.ts';
import { registerCall } from '../../http/register-call.ts';
import { findPartner } from '../../config/partner.ts';
import type { ServerModule } from '../module.ts';

/**
 * Who may frame the app (CSP frame-ancestors): the app itself, every configured partner's origins
 * (PARTNER_<CODE>_ORIGINS) and FRAME_ANCESTORS. The hash router keeps `fromPtCode` out of the request the
 * server sees, so the policy cannot be narrowed per partner here; the client narrows its messages instead
 * (getPlatformConfig below).
 */
export function frameAncestorsOf(config: Pick<Config, 'frameAncestors' | 'partners'>): string[] {
  const sources = new Set(["'self'", ...config.frameAncestors]);
  for (const partner of config.partners.partners) for (const origin of partner.origins) sources.add(origin);
  // 'none' means no framing at all and cannot be combined with other sources.
  if (sources.has("'none'") && sources.size > 1) sources.delete("'none'");
  return [...sources];
}

/** The CSP sources that are exact http(s) origins. */
function exactOrigins(sources: readonly string[]): string[] {
  return sources.filter((source) => {
    try {
      const url = new URL(source);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.origin === source &&
        !source.includes('*')
      );
    } catch {
      return false;
    }
  });
}

/** Run-time facts of a platform code the client cannot bundle: the partner's origins. */
export const platformModule: ServerModule = {
  name: 'platform',
  register(app, deps) {
    // Public: origins are not secret (they are in the CSP header of every page anyway).
    registerCall(app, getPlatformConfig, ({ body }) => {
      // The default platform is framed by the integrators of FRAME_ANCESTORS (embedded signing through the
      // integrator API): its origins are those sources that are exact origins ('self', schemes and
      // wildcards are not an address a message can be posted to).
      if (body.fromPtCode === PlatformCode.Default)
        return {
          fromPtCode: body.fromPtCode,
          isKnown: false,
          origins: exactOrigins(deps.config.frameAncestors),
        };
      const partner = findPartner(deps.config.partners, body.fromPtCode);
      return { fromPtCode: body.fromPtCode, isKnown: Boolean(partner), origins: partner?.origins ?? [] };
    });
  },
};
