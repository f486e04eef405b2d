import type { Text } from '../../lib/text.ts';

// What an identity provider (tencent.ts, aliyun.ts, and the development one in modules/person) offers.

/** The result a face provider reports for one attempt. */
type FaceVerdict = 'passed' | 'failed';

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
