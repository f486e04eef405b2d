import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret: `whsec_` and 32 random bytes (base64url). Receivers use the whole string as the key. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * The `X-Esign-Signature` value of a delivery: `v1=` and the hex HMAC-SHA256, keyed with the endpoint's
 * secret, of `<timestamp>.<body>` (timestamp: the `X-Esign-Timestamp` header, Unix seconds).
 */
export const signatureOf = (secret: string, timestamp: string, body: string): string =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
