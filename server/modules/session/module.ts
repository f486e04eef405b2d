import {
  getEsignLoginInfo,
  getSaleProductTypeList,
  getUserQualification,
  logout,
  resetPassword,
  sendSmsCode,
  updateLoginUserInfoCache,
  userLogin,
  userOperatorLogin,
  userRegister,
} from '#contract/calls/session.ts';
import { SALE_PRODUCT_TYPE_NAMES, SaleProductType, UserType } from '#contract/enums.ts';
import { SESSION_COOKIE } from '#contract/transport.ts';
import { SessionEndReason } from '../../db/schema/accounts.ts';
import { registerCall } from '../../http/register-call.ts';
import { provideSessionGate } from '../../http/session-gate.ts';
import type { ServerModule } from '../server-module.ts';
import * as accounts from './account-service.ts';
import { declareCacheReads } from './caches.ts';
import { computeLoginInfo, loginInfoOf } from './login-info.ts';
import { endSession } from './session-queries.ts';
import { checkXsrf, clearSessionCookies, lookupSession, refusalFor } from './session-service.ts';
import * as sms from './sms-service.ts';

/** Accounts and sessions: the foundation calls of contract/calls/session.ts. */
export const sessionModule: ServerModule = {
  name: 'session',
  register(app, deps) {
    declareCacheReads(deps);
    // The transport asks this module for the session of every call (http/session-gate.ts).
    provideSessionGate(app, {
      lookup: lookupSession,
      checkXsrf,
      clearCookies: clearSessionCookies,
      refusal: refusalFor,
    });
    registerCall(app, sendSmsCode, ({ body, req }) =>
      sms.sendSmsCode(deps, body.phone, body.purpose, req.ip),
    );

    registerCall(app, userRegister, async ({ body, req, reply }) => {
      const session = await accounts.registerPerson(deps, reply, body, req.ip);
      return computeLoginInfo(deps, session);
    });

    registerCall(app, userLogin, async ({ body, req, reply, session: previous }) => {
      const session = await accounts.loginPerson(deps, reply, body, req.ip, previous);
      return computeLoginInfo(deps, session);
    });

    registerCall(app, userOperatorLogin, async ({ body, req, reply, session: previous }) => {
      const input = { ...body, userType: UserType.Company };
      const session = await accounts.loginPerson(deps, reply, input, req.ip, previous);
      return computeLoginInfo(deps, session);
    });

    registerCall(app, logout, async ({ session, reply }) => {
      if (session) await endSession(deps.db, session.id, SessionEndReason.Logout, deps.clock.now());
      clearSessionCookies(deps, reply);
      return null;
    });

    registerCall(app, resetPassword, async ({ body, req }) => {
      await accounts.resetPassword(deps, body, req.ip);
      return null;
    });

    // The route guard's check: no valid session is an answer (null), not an error.
    registerCall(app, getEsignLoginInfo, async ({ session, req, reply }) => {
      if (!session) {
        if (req.cookies[SESSION_COOKIE]) clearSessionCookies(deps, reply);
        return null;
      }
      return loginInfoOf(deps, session);
    });

    registerCall(app, getUserQualification, ({ requireSession }) => computeLoginInfo(deps, requireSession()));

    registerCall(app, updateLoginUserInfoCache, ({ requireSession }) =>
      loginInfoOf(deps, requireSession(), true),
    );

    // isHyCenterLogin is served by the partner module, next to the central-platform interface it asks.

    registerCall(app, getSaleProductTypeList, () =>
      Object.values(SaleProductType).map((code) => ({
        code,
        name: SALE_PRODUCT_TYPE_NAMES[code].zh,
        nameEn: SALE_PRODUCT_TYPE_NAMES[code].en,
      })),
    );
  },
};
