/**
 * Constants of person accounts that both sides use at runtime (no zod here, so the client may import
 * them): what a face-recognition attempt is for and how it ended.
 */

/**
 * `openFlag` of a face-recognition attempt (the first parameter of /h5/v1/result/:openFlag/...):
 * opening an account, confirming a signature in the signing room, or a face print for a business step.
 */
export const FaceOpenFlag = {
  OpenAccount: 'openAccount',
  SigningRoom: 'signingRoom',
  FacePrint: 'facePrint',
} as const;
export type FaceOpenFlag = (typeof FaceOpenFlag)[keyof typeof FaceOpenFlag];
export const FACE_OPEN_FLAGS = Object.values(FaceOpenFlag) as [FaceOpenFlag, ...FaceOpenFlag[]];

/** What the server decided about a face-recognition attempt; only the provider's signed callback decides. */
export const FaceResult = {
  Pending: 'pending',
  Passed: 'passed',
  Failed: 'failed',
  Expired: 'expired',
} as const;
export type FaceResult = (typeof FaceResult)[keyof typeof FaceResult];
