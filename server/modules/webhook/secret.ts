import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AppDeps } from '../../deps.ts';
import { pkiFor } from '../pki/index.ts';

// Endpoint secrets at rest: AES-256-GCM under a key derived from the master key (through the PKI, like
// person's sealed ID numbers), bound to the endpoint's id so a sealed secret copied to another row fails.

const PURPOSE = 'webhook/endpoint-secret/v1';

async function keyOf(deps: AppDeps): Promise<Buffer> {
  return (await pkiFor(deps)).deriveSecret(PURPOSE).subarray(0, 32);
}

/** base64(iv | tag | ciphertext). */
export async function sealSecret(deps: AppDeps, endpointId: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await keyOf(deps), iv);
  cipher.setAAD(Buffer.from(endpointId));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

export async function openSecret(deps: AppDeps, endpointId: string, sealed: string): Promise<string> {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', await keyOf(deps), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
