/**
 * The CMS of a PAdES baseline signature, built by hand in DER: SignedData, detached, SHA-256; signed
 * attributes exactly content-type, message-digest and signing-certificate-v2 (no signing-time: PAdES puts
 * the claimed time in the signature dictionary's /M); the signature value time-stamped as the unsigned
 * attribute signature-time-stamp-token (B-T).
 */
import { createHash, type KeyObject, sign as nodeSign, webcrypto } from 'node:crypto';
import {
  type CertFields,
  certFields,
  ecdsaP1363ToDer,
  NULL,
  octets,
  oid,
  seq,
  setOf,
  smallInt,
  tlv,
} from '../../lib/der.ts';
import { SignError, SignErrorCode } from './errors.ts';

/** Produces a signature with SHA-256 over `data`; an HSM or KMS implements this instead of a local key. */
export interface Signer {
  /** DER certificates: the signer's own first, then its issuers (issuing CA, optionally the root). */
  readonly certificateChain: readonly Uint8Array[];
  /** The signature value over `data` hashed with SHA-256: RSA PKCS#1 v1.5, or ECDSA as a DER Ecdsa-Sig-Value. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** Returns a DER RFC 3161 TimeStampToken (ContentInfo) over a SHA-256 message imprint. */
export type TimestampFn = (sha256Imprint: Uint8Array) => Promise<Uint8Array>;

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const SHA256_ALG = seq(oid(OID.sha256), NULL);
const bytesEqual = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * A Signer over a local key: a WebCrypto CryptoKey (what server/pki `signer()` returns, usable but not
 * extractable) or a node KeyObject. `chain` follows the certificate: issuing CA, then optionally the root.
 */
function signerFromKey(
  key: CryptoKey | KeyObject,
  certificate: Uint8Array,
  chain: readonly Uint8Array[] = [],
): Signer {
  const certificateChain = [certificate, ...chain];
  if ('algorithm' in key && typeof (key as CryptoKey).algorithm === 'object' && 'usages' in key) {
    const ck = key as CryptoKey;
    const isEc = ck.algorithm.name === 'ECDSA';
    return {
      certificateChain,
      sign: async (data) => {
        const algo = isEc ? { name: 'ECDSA', hash: 'SHA-256' } : { name: ck.algorithm.name, hash: 'SHA-256' };
        const sig = new Uint8Array(await webcrypto.subtle.sign(algo, ck, data as Uint8Array<ArrayBuffer>));
        return isEc ? ecdsaP1363ToDer(sig) : sig;
      },
    };
  }
  const ko = key as KeyObject;
  return { certificateChain, sign: async (data) => new Uint8Array(nodeSign('sha256', data, ko)) };
}

/** The Signer for what server/pki `signer(holder)` returns. */
export function signerFromPki(material: {
  der: Uint8Array;
  privateKey: CryptoKey;
  chain: readonly Uint8Array[];
}): Signer {
  return signerFromKey(material.privateKey, material.der, material.chain);
}

function attribute(type: string, value: Uint8Array): Uint8Array {
  return seq(oid(type), setOf([value]));
}

/** ESSCertIDv2 with the default hash (SHA-256, so omitted) and issuerSerial (RFC 5035). */
function signingCertificateV2(cert: CertFields): Uint8Array {
  const generalNames = seq(tlv(0xa4, cert.issuer));
  const issuerSerial = seq(generalNames, cert.serial);
  return seq(seq(seq(octets(sha256(cert.der)), issuerSerial)));
}

type CadesInput = {
  /** SHA-256 of the signed bytes (the PDF's /ByteRange). */
  digest: Uint8Array;
  signer: Signer;
  /** When given, the signature value is time-stamped (PAdES B-T). */
  timestamp?: TimestampFn;
};

/** The signed attributes as signed (SET tag 0x31); the SignerInfo carries them with tag [0]. */
function signedAttributes(digest: Uint8Array, cert: CertFields): Uint8Array[] {
  return [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(digest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(cert)),
  ];
}

/**
 * A detached CAdES SignedData (DER ContentInfo) over a SHA-256 digest. Rejects a signer without a
 * certificate, a digest that is not 32 bytes, and a time-stamp token that is not DER.
 */
export async function buildCadesSignature(input: CadesInput): Promise<Uint8Array> {
  const { digest, signer } = input;
  if (digest.length !== 32) throw new SignError(SignErrorCode.BadOptions, 'digest must be SHA-256');
  if (signer.certificateChain.length === 0)
    throw new SignError(SignErrorCode.BadOptions, 'the signer has no certificate');
  let cert: CertFields;
  try {
    cert = certFields(signer.certificateChain[0]);
  } catch {
    throw new SignError(SignErrorCode.BadOptions, 'the signer certificate is not DER');
  }
  const attrs = signedAttributes(digest, cert);
  const signature = await signer.sign(setOf(attrs));
  const isEc = bytesEqual(cert.keyAlgorithm, oid(OID.ecPublicKey));
  const sigAlg = isEc ? seq(oid(OID.ecdsaWithSha256)) : seq(oid(OID.rsaEncryption), NULL);
  const signerInfoParts = [
    smallInt(1),
    seq(cert.issuer, cert.serial),
    SHA256_ALG,
    setOf(attrs, 0xa0),
    sigAlg,
    octets(signature),
  ];
  if (input.timestamp) {
    const token = await input.timestamp(sha256(signature));
    if (token[0] !== 0x30) throw new SignError(SignErrorCode.BadOptions, 'the time-stamp token is not DER');
    signerInfoParts.push(setOf([attribute(OID.signatureTimeStampToken, token)], 0xa1));
  }
  const signedData = seq(
    smallInt(1),
    setOf([SHA256_ALG]),
    seq(oid(OID.data)),
    setOf([...signer.certificateChain], 0xa0),
    setOf([seq(...signerInfoParts)]),
  );
  return seq(oid(OID.signedData), tlv(0xa0, signedData));
}
