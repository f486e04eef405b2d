import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HyLoginType } from '#contract/enums.ts';
import type { Clock } from '../../deps.ts';
import { isLocalClient } from '../../http/local-client.ts';
import type { CentralSettings } from '../../config/partner.ts';

/**
 * The central user centre (hyCenter) behind isHyCenterLogin and loginAsHy (SPEC §6): ONE interface,
 * `currentLogin(req)`, answering whether the browser making this request is logged in over there.
 *
 * A production implementation must, from the request (typically a cookie of the central domain or a
 * ticket forwarded by the central platform), ask the central user centre server-to-server who is logged in
 * and answer the phone (the account key here), a stable central user id, a display name, and whether it is
 * a company login (4, with the company's name) or a person login (1). It must never trust data the browser
 * could forge. Until one is built, HY_CENTER is 'none' in production and every request answers 0.
 */
type CentralUser = {
  centralUserId: string;
  phone: string;
  name: string | null;
  /** For a company login: the company's name on the central platform. */
  companyName: string | null;
};

type CentralLogin =
  | { loginType: typeof HyLoginType.None }
  | { loginType: typeof HyLoginType.Person | typeof HyLoginType.Company; user: CentralUser };

export interface CentralPlatform {
  currentLogin(req: FastifyRequest): Promise<CentralLogin>;
  /**
   * True for the development centre: its cookie is signed with a secret that is public by default, so it
   * answers only clients on this machine (loopback, http/local-client.ts), like the development SMS outbox.
   */
  readonly isDevelopment?: boolean;
}

/** The cookie of the development central user centre. */
export const HY_SESSION_COOKIE = 'hy_session';
/** Lifetime of a development central login. */
export const DEV_HY_SESSION_SECONDS = 2 * 60 * 60;

type DevHyPayload = { sub: string; phone: string; name: string | null; company: string | null; exp: number };

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest();

/** The development centre's cookie value: base64url(JSON) '.' base64url(HMAC-SHA256). */
export function devHySessionValue(secret: string, user: CentralUser, now: Date): string {
  const payload: DevHyPayload = {
    sub: user.centralUserId,
    phone: user.phone,
    name: user.name,
    company: user.companyName,
    exp: Math.floor(now.getTime() / 1000) + DEV_HY_SESSION_SECONDS,
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

const NO_LOGIN: CentralLogin = { loginType: HyLoginType.None };

/**
 * DEVELOPMENT implementation: the central user centre is simulated by the `hy_session` cookie that
 * GET /v1/dev/hy-login sets, signed with HY_DEV_SECRET. A valid, unexpired cookie is a login (4 when it names
 * a company); anything else is no login. HY_DEV_SECRET's default is public (it is in this repository): with
 * HOST=0.0.0.0 anyone on the network could sign a cookie, so only a client on this machine is ever logged in
 * (issue 23); every other client sees no login.
 */
class DevCentralPlatform implements CentralPlatform {
  readonly isDevelopment = true;
  private readonly secret: string;
  private readonly clock: Clock;

  constructor(secret: string, clock: Clock) {
    this.secret = secret;
    this.clock = clock;
  }

  async currentLogin(req: FastifyRequest): Promise<CentralLogin> {
    if (!isLocalClient(req)) return NO_LOGIN;
    const value = req.cookies[HY_SESSION_COOKIE];
    if (!value || value.length > 2048) return NO_LOGIN;
    const [body, signature] = value.split('.');
    if (!body || !signature) return NO_LOGIN;
    const expected = mac(this.secret, body);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return NO_LOGIN;
    let payload: DevHyPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as DevHyPayload;
    } catch {
      // Expected: a signed cookie whose body is not JSON (cannot happen unless forged): no login.
      return NO_LOGIN;
    }
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= this.clock.now().getTime()) return NO_LOGIN;
    const user: CentralUser = {
      centralUserId: payload.sub,
      phone: payload.phone,
      name: payload.name,
      companyName: payload.company,
    };
    return { loginType: payload.company ? HyLoginType.Company : HyLoginType.Person, user };
  }
}

/** No central user centre configured: never a login. */
const noCentralPlatform: CentralPlatform = { currentLogin: async () => NO_LOGIN };

export function centralPlatformFor(settings: CentralSettings, clock: Clock): CentralPlatform {
  return settings.kind === 'development' ? new DevCentralPlatform(settings.secret, clock) : noCentralPlatform;
}
