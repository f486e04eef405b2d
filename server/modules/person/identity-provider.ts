import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { FaceCallback, IdentityProvider } from '../../providers/identity/identity-provider.ts';

// The provider interface lives with the providers (server/providers/identity/identity-provider.ts).
export type {
  FaceCallback,
  IdentityProvider,
} from '../../providers/identity/identity-provider.ts';

/** What the development provider signs: the fields the result depends on, one per line. */
const signedText = (c: FaceCallback) => `${c.openFlag}\n${c.personCode}\n${c.result}`;

/**
 * DEVELOPMENT ONLY. Accepts every well-formed identity except `rejectIdNumber` (to show a failed check),
 * and simulates face recognition with a page of its own (GET /v1/person/dev-face/:personCode) whose
 * buttons make the provider's signed callback (HMAC-SHA256 under a secret derived from the master key).
 * It checks nothing real: never use it for real people.
 */
export class DevelopmentIdentityProvider implements IdentityProvider {
  readonly name = 'development';
  readonly isDevelopment = true;
  readonly #rejectIdNumber: string;
  readonly #secret: Buffer;
  readonly #warn: (msg: string) => void;

  constructor(opts: { rejectIdNumber: string; callbackSecret: Buffer; warn: (msg: string) => void }) {
    this.#rejectIdNumber = opts.rejectIdNumber.toUpperCase();
    this.#secret = opts.callbackSecret;
    this.#warn = opts.warn;
  }

  async verifyIdNamePhone(input: { name: string; idNumber: string; phone: string }) {
    this.#warn('development identity provider: real-name check simulated, nothing was verified');
    if (input.idNumber.toUpperCase() === this.#rejectIdNumber) {
      return {
        ok: false as const,
        reason: {
          en: 'the identity check failed (the development provider refuses this test ID number)',
          zh: '实名认证未通过（开发用身份核验服务拒绝该测试身份证号）',
        },
      };
    }
    return { ok: true as const };
  }

  async startFace(input: { personCode: string; returnUrl: { passed: string; failed: string } }) {
    this.#warn('development identity provider: face recognition simulated, nothing will be verified');
    const query = new URLSearchParams({ passed: input.returnUrl.passed, failed: input.returnUrl.failed });
    return { url: `/v1/person/dev-face/${encodeURIComponent(input.personCode)}?${query.toString()}` };
  }

  /** The callback the simulated provider sends (what a real provider's server would POST). */
  signCallback(c: FaceCallback): FaceCallback & { sig: string } {
    return { ...c, sig: createHmac('sha256', this.#secret).update(signedText(c)).digest('hex') };
  }

  checkFace(body: unknown): FaceCallback | null {
    if (typeof body !== 'object' || body === null) return null;
    const { personCode, openFlag, result, sig } = body as Record<string, unknown>;
    if (typeof personCode !== 'string' || typeof openFlag !== 'string' || typeof sig !== 'string')
      return null;
    if (result !== 'passed' && result !== 'failed') return null;
    const claim: FaceCallback = { personCode, openFlag, result };
    const expected = Buffer.from(this.signCallback(claim).sig, 'hex');
    const given = Buffer.from(/^[0-9a-f]{64}$/.test(sig) ? sig : '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected) ? claim : null;
  }
}

class IdentityProviderError extends Error {
  override name = 'IdentityProviderError';
}

/**
 * Production must not start with the development provider (it would "verify" anyone) unless
 * ALLOW_DEV_IDENTITY_PROVIDER=1 says so on purpose (a demo). server/serve.ts calls this before listening.
 */
export function assertIdentityProviderAllowed(config: Config): void {
  if (
    config.isProduction &&
    config.identity.provider === 'development' &&
    !config.identity.allowDevInProduction
  ) {
    throw new IdentityProviderError(
      'IDENTITY_PROVIDER=development checks nothing and is refused in production. Configure a real identity ' +
        'provider, or set ALLOW_DEV_IDENTITY_PROVIDER=1 to run a demonstration on purpose.',
    );
  }
}
