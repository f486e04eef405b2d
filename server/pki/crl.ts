import { type CaHierarchy, crlNumberExtension } from './ca.ts';
import type { CertRepository } from './cert-repository.ts';
import { signParams, wholeSeconds, x509 } from './crypto.ts';
import { RevocationReason } from './profile.ts';

/** How long a CRL is good for; relying parties fetch a new one after this. */
const CRL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The current CRL of the issuing CA (DER, v2): every revoked, unexpired account certificate with its
 * revocation date and reason code, thisUpdate now, nextUpdate a day later, CRL number and authority key
 * identifier. Made fresh on each call from the repository, so it never lags behind a revocation.
 */
export async function buildCrl(
  ca: CaHierarchy,
  repository: CertRepository,
  at = new Date(),
): Promise<Uint8Array> {
  const now = wholeSeconds(at);
  const revoked = await repository.listRevoked(now);
  const crl = await x509.X509CrlGenerator.create({
    issuer: ca.issuing.cert.subjectName,
    thisUpdate: now,
    nextUpdate: new Date(now.getTime() + CRL_LIFETIME_MS),
    signingKey: ca.issuing.privateKey,
    signingAlgorithm: signParams(ca.issuing.privateKey),
    extensions: [
      new x509.AuthorityKeyIdentifierExtension(
        ca.issuing.cert.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId,
      ),
      crlNumberExtension(now),
    ],
    entries: revoked.map((r) => ({
      serialNumber: r.serial,
      revocationDate: wholeSeconds(r.revokedAt),
      // RFC 5280 §5.3.1: unspecified is expressed by leaving the reason code out.
      ...(r.reason !== null && r.reason !== RevocationReason.Unspecified ? { reason: r.reason } : {}),
    })),
  });
  return new Uint8Array(crl.rawData);
}
