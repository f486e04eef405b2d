// Building blocks shared by the CA bootstrap and account issue: names, extensions, one signing call.
import { type JsonNameParams, signParams, toHex, x509 } from './crypto.ts';
import { Oid } from './profile.ts';

/** A certificate with its encodings, as the rest of the PKI passes it around. */
export type CertMaterial = { cert: x509.X509Certificate; der: Uint8Array; pem: string };

/** A certificate whose private key this server holds (loaded, ready to sign). */
export type SignerMaterial = CertMaterial & { privateKey: CryptoKey };

export function certMaterial(cert: x509.X509Certificate): CertMaterial {
  const der = new Uint8Array(cert.rawData);
  return { cert, der, pem: `${cert.toString('pem').trim()}\n` };
}

/**
 * A distinguished name with explicit string types: C and serialNumber must be PrintableString (RFC 5280
 * upper bounds, X.520), names are UTF8String so Chinese names survive every verifier.
 */
export function buildName(parts: { cn: string; o?: string; serialNumber?: string; c?: string }): x509.Name {
  const rdns: JsonNameParams = [];
  if (parts.c) rdns.push({ [Oid.country]: [{ printableString: parts.c }] });
  if (parts.o) rdns.push({ [Oid.organization]: [{ utf8String: parts.o }] });
  rdns.push({ [Oid.commonName]: [{ utf8String: parts.cn }] });
  if (parts.serialNumber) rdns.push({ [Oid.serialNumber]: [{ printableString: parts.serialNumber }] });
  return new x509.Name(rdns);
}

type IssueParams = {
  serial: Uint8Array;
  subject: x509.Name;
  publicKey: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  extensions: x509.Extension[];
  /** Omitted for the self-signed root. */
  issuer?: SignerMaterial;
  /** For the self-signed root: its own private key. */
  selfSigningKey?: CryptoKey;
};

/**
 * Signs one certificate with the issuer's key (sha256WithRSAEncryption, or ECDSA with the hash of the
 * issuer's curve), adding the subject and authority key identifiers.
 */
export async function signCertificate(p: IssueParams): Promise<x509.X509Certificate> {
  const ski = await x509.SubjectKeyIdentifierExtension.create(p.publicKey);
  const issuerSki = p.issuer?.cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? ski.keyId;
  const extensions = [...p.extensions, ski];
  if (p.issuer) extensions.push(new x509.AuthorityKeyIdentifierExtension(issuerSki));
  const signingKey = p.issuer?.privateKey ?? p.selfSigningKey;
  if (!signingKey) throw new Error('signCertificate: no signing key');
  return x509.X509CertificateGenerator.create({
    serialNumber: toHex(p.serial),
    subject: p.subject,
    issuer: p.issuer ? p.issuer.cert.subjectName : p.subject,
    notBefore: p.notBefore,
    notAfter: p.notAfter,
    publicKey: p.publicKey,
    signingKey,
    signingAlgorithm: signParams(signingKey),
    extensions,
  });
}

/** CRL distribution point and authority information access (OCSP, CA issuers) of an end-entity. */
export function revocationPointers(urls: {
  crl: string;
  ocsp?: string;
  issuingCrt?: string;
}): x509.Extension[] {
  const out: x509.Extension[] = [new x509.CRLDistributionPointsExtension([urls.crl])];
  if (urls.ocsp || urls.issuingCrt) {
    out.push(
      new x509.AuthorityInfoAccessExtension({
        ...(urls.ocsp ? { ocsp: [urls.ocsp] } : {}),
        ...(urls.issuingCrt ? { caIssuers: [urls.issuingCrt] } : {}),
      }),
    );
  }
  return out;
}
