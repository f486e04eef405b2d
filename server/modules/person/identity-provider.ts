import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Text } from '../../http/texts.ts';

/** The result a face provider reports for one attempt. */
export type FaceVerdict = 'passed' | 'failed';

/** A provider callback after verification of its signature. */
export type FaceCallback = { personCode: string; openFlag: string; result: FaceVerdict };

/** The answer of a three-factor check; `requestId` is the provider's id of the request (evidence). */
export type IdentityVerdict =
  | { ok: true; requestId?: string }
  | { ok: false; reason: Text; requestId?: string };

/** What a provider's server-side query says about a face attempt. */
export type FaceQuery = { result: FaceVerdict | 'pending'; requestId: string; detail?: string };

/**
 * Who confirms a person's identity. The product ships only a development implementation; a production
 * provider (a carrier three-element check and a face-recognition service) implements this interface and
 * is selected by IDENTITY_PROVIDER.
 */
export interface IdentityProvider {
  /** Shown in the UI and logs. */
  readonly name: string;
  /** True for the development provider: the UI shows a notice, production refuses it unless allowed. */
  readonly isDevelopment: boolean;
  /**
   * Confirms that name, ID number and mobile number belong to one person (the mobile number is registered
   * to that identity). Called after the SMS code has proved the caller holds the phone.
   */
  verifyIdNamePhone(input: { name: string; idNumber: string; phone: string }): Promise<IdentityVerdict>;
  /**
   * Starts a face check of the person and answers the page the browser opens. The provider must later
   * call back POST /v1/person/face/callback with a body checkFace() accepts, and send the browser to
   * `returnUrl.passed` or `returnUrl.failed`.
   */
  startFace(input: {
    personCode: string;
    openFlag: string;
    name: string;
    idHash: string;
    /** The ID number (real providers compare the face with the register's photo of it). */
    idNumber: string | null;
    returnUrl: { passed: string; failed: string };
    /**
     * Real providers send the browser here (an absolute address of this server) after the attempt; the
     * server then asks the provider for the result (queryFace) before showing passed or failed.
     */
    providerReturnUrl: string;
  }): Promise<{ url: string; providerRef?: string; requestId?: string }>;
  /** Verifies a callback body (its signature above all); null when it is not authentic. */
  checkFace(body: unknown): FaceCallback | null;
  /** True when the ID number must be kept (sealed) for face checks. */
  readonly needsIdNumberForFace?: boolean;
  /** Real providers: the result of an attempt, asked server-side with the provider's reference. */
  queryFace?(ref: { providerRef: string; personCode: string }): Promise<FaceQuery>;
}

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

export class IdentityProviderError extends Error {
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
