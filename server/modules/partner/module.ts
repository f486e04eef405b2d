import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  getLoginInfoFromJinshang,
  loginAsHy,
  loginEsign,
  zLoginEsignQuery,
} from '#contract/calls/partner.ts';
import { zPhone } from '#contract/calls/session.ts';
import { isHyCenterLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { HyLoginType } from '#contract/enums.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import { computeLoginInfo } from '../session/index.ts';
import {
  DEV_HY_SESSION_SECONDS,
  HY_SESSION_COOKIE,
  centralPlatformFor,
  devHySessionValue,
} from './central-platform.ts';
import { loginFromCentral, loginWithPartnerToken, partnerIdentityOf } from './service.ts';
import { P } from './texts.ts';
import { requireLocalClient } from '../../http/local-client.ts';

const zHyLoginQuery = z.object({
  phone: zPhone,
  name: z.string().trim().min(1).max(64).optional(),
  /** A company name makes it a company login (isHyCenterLogin 4). */
  company: z.string().trim().min(1).max(128).optional(),
  ts: z.string().optional(),
});

/**
 * Partner login (loginEsign, getLoginInfoFromJinshang) and the central user centre (isHyCenterLogin,
 * loginAsHy). isHyCenterLogin's contract lives with the session calls; it is served here, where the
 * central-platform interface is (the session module no longer registers it).
 */
export const partnerModule: ServerModule = {
  name: 'partner',
  register(app, deps) {
    const central = centralPlatformFor(deps.config.partners.central, deps.clock);

    registerCall(app, loginEsign, async ({ req, reply, session: previous }) => {
      const query = zLoginEsignQuery.safeParse(req.query);
      if (!query.success) throw new AppError(Code.PartnerTokenMalformed, P.tokenMissing);
      const session = await loginWithPartnerToken(deps, req, reply, query.data.jsToken, previous);
      return computeLoginInfo(deps, session);
    });

    registerCall(app, getLoginInfoFromJinshang, ({ session }) => partnerIdentityOf(deps, session));

    registerCall(app, isHyCenterLogin, async ({ req }) => (await central.currentLogin(req)).loginType);

    registerCall(app, loginAsHy, async ({ req, reply, session: previous }) => {
      const session = await loginFromCentral(deps, central, req, reply, previous);
      return computeLoginInfo(deps, session);
    });

    // DEVELOPMENT ONLY: stands in for logging in on the central user centre. config/partner.ts never selects
    // the development centre in production, so this route does not exist there.
    const settings = deps.config.partners.central;
    if (settings.kind === 'development' && !deps.config.isProduction) {
      const typed = app.withTypeProvider<ZodTypeProvider>();
      typed.get(
        '/v1/dev/hy-login',
        { schema: { hide: true, querystring: zHyLoginQuery }, onRequest: requireLocalClient },
        async (req, reply) => {
          const { phone, name, company } = req.query;
          const value = devHySessionValue(
            settings.secret,
            { centralUserId: `hy-${phone}`, phone, name: name ?? null, companyName: company ?? null },
            deps.clock.now(),
          );
          reply.setCookie(HY_SESSION_COOKIE, value, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: deps.config.isSecureCookies,
            maxAge: DEV_HY_SESSION_SECONDS,
          });
          return {
            code: Code.Ok,
            msg: 'success',
            data: { loginType: company ? HyLoginType.Company : HyLoginType.Person },
          };
        },
      );
      typed.get(
        '/v1/dev/hy-logout',
        { schema: { hide: true }, onRequest: requireLocalClient },
        async (_req, reply) => {
          reply.clearCookie(HY_SESSION_COOKIE, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: deps.config.isSecureCookies,
          });
          return { code: Code.Ok, msg: 'success', data: null };
        },
      );
    }
  },
};
