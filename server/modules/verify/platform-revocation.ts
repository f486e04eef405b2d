// The verifier's revocation hook backed by this platform's own CA: for a certificate the platform's issuing
// CA issued, the answer its OCSP responder would give (the certificate repository, read in process);
// for any other certificate 'unknown', so embedded data alone decides.
import type { CertRepository } from '../../pki/cert-repository.ts';
import { normalizeSerial } from '../../pki/crypto.ts';
import { RevocationReason } from '../../pki/profile.ts';
import type { RevocationAnswer, RevocationHook } from '../../pdf/verify/types.ts';

const PLATFORM_REVOCATION_SOURCE = 'platform';

/** RFC 5280 reason names (the words of the CRL reasonCode), for the report's note. */
const REASON_NAMES = new Map<number, string>(
  Object.entries(RevocationReason).map(([name, code]) => [code, name[0].toLowerCase() + name.slice(1)]),
);

const equalBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

function pemToDer(pem: string): Uint8Array | undefined {
  const m = pem.match(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/);
  return m ? new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64')) : undefined;
}

/**
 * Answers from the repository only when the issuer is exactly the platform's issuing CA certificate and
 * the repository's record holds exactly this certificate: a foreign certificate that merely reuses a
 * serial number of ours never borrows our answer.
 */
export function platformRevocation(
  issuingDer: Uint8Array,
  findBySerial: CertRepository['findBySerial'],
): RevocationHook {
  const unknown: RevocationAnswer = { status: 'unknown', source: PLATFORM_REVOCATION_SOURCE };
  return async (cert, issuer) => {
    if (!equalBytes(issuer.der, issuingDer)) return unknown;
    const record = await findBySerial(normalizeSerial(cert.serialHex));
    const der = record && pemToDer(record.pem);
    if (!record || !der || !equalBytes(der, cert.der)) return unknown;
    if (record.status === 'revoked') {
      const revoked: RevocationAnswer = {
        status: 'revoked',
        revokedAt: record.revokedAt ?? undefined,
        reason: record.reason === null ? undefined : REASON_NAMES.get(record.reason),
        source: PLATFORM_REVOCATION_SOURCE,
      };
      return revoked;
    }
    return { status: 'good', source: PLATFORM_REVOCATION_SOURCE };
  };
}
