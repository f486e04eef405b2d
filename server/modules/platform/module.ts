import { getPlatformConfig } from '#contract/calls/platform.ts';
import { PlatformCode } from '#contract/enums.ts';
import { registerCall } from '../../http/register-call.ts';
import { findPartner } from '../../config/partner.ts';
import type { ServerModule } from '../server-module.ts';
import { exactOrigins } from './framing.ts';

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
