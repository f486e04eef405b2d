import { createHash, sign as nodeSign } from 'node:crypto';
import * as asn1js from 'asn1js';
import type { CaHierarchy } from './ca.ts';
import { signingCertificateV2 } from './cms-attributes.ts';
import { pkijs, RSA_SIGN, randomSerial, subtle, toArrayBuffer, wholeSeconds } from './crypto.ts';
import {
  certFields,
  ecdsaP1363ToDer,
  generalizedTime,
  NULL,
  octets,
  oid,
  seq,
  setOf,
  smallInt,
  time,
  tlv,
  unsignedInt,
} from '../lib/der.ts';
import { HASH_OID_BY_NAME, HASHES, type HashName, Oid, TSA_POLICY_OID } from './profile.ts';

/** PKIFailureInfo bit numbers of RFC 3161 §2.4.2. */
const TsaFailure = {
  BadAlg: 0,
  BadRequest: 2,
  BadDataFormat: 5,
  TimeNotAvailable: 14,
  UnacceptedPolicy: 15,
  UnacceptedExtension: 16,
  SystemFailure: 25,
} as const;
type TsaFailure = (typeof TsaFailure)[keyof typeof TsaFailure];

/** Largest time-stamp request accepted; a real one is under 200 bytes. */
export const MAX_TSA_REQUEST_BYTES = 16 * 1024;

/** Imprint hashes accepted. SHA-1 is refused: a collision would let one token cover two documents. */
const ACCEPTED_IMPRINT_HASHES: readonly string[] = [Oid.sha256, Oid.sha384, Oid.sha512];

type TsaDeps = { ca: CaHierarchy; now?: () => Date; onError?: (err: unknown) => void };

class TsaRequestError extends Error {
  override name = 'TsaRequestError';
  readonly failure: TsaFailure;
  constructor(failure: TsaFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

/** A request reduced to what goes into the token: DER of its MessageImprint and nonce, echoed as sent. */
type TokenRequest = { messageImprint: Uint8Array; nonce?: Uint8Array; certReq: boolean };

function failureResponse(failure: TsaFailure, text: string): Uint8Array {
  const bits = new Uint8Array(Math.floor(failure / 8) + 1);
  bits[bits.length - 1] = 0x80 >> (failure % 8);
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: new asn1js.BitString({ valueHex: toArrayBuffer(bits), unusedBits: 7 - (failure % 8) }),
    }),
  });
  return new Uint8Array(resp.toSchema().toBER());
}

const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const attribute = (type: string, value: Uint8Array) => seq(oid(type), setOf([value]));

// The fixed pieces of every token, encoded once.
const VERSION_1 = smallInt(1);
const POLICY = oid(TSA_POLICY_OID);
/** Accuracy ::= SEQUENCE { seconds 1 }: genTime is truncated to whole seconds. */
const ACCURACY_1S = seq(smallInt(1));
const SHA256_ALG = seq(oid(Oid.sha256), NULL);
/** sha256WithRSAEncryption with NULL parameters (RFC 4055 §5). */
const SHA256_WITH_RSA = seq(oid('1.2.840.113549.1.1.11'), NULL);
/** ecdsa-with-SHA256, parameters absent (RFC 5758 §3.2). */
const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const ECDSA_SHA256: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const TST_INFO_TYPE = oid(Oid.tstInfo);
const CONTENT_TYPE_ATTR = attribute(Oid.contentType, TST_INFO_TYPE);
const SIGNED_DATA_TYPE = oid(Oid.signedData);
const GRANTED = seq(smallInt(0));

/** What a token repeats about the TSA: encoded once per CA hierarchy, on the first token. */
type TsaConstants = {
  /** SignerInfo sid: IssuerAndSerialNumber of the TSA certificate. */
  sid: Uint8Array;
  /** certificates [0] IMPLICIT SET OF: the TSA certificate and the issuing CA. */
  certificates: Uint8Array;
  signingCertificateV2: Uint8Array;
  /** SignerInfo signatureAlgorithm: sha256WithRSAEncryption or ecdsa-with-SHA256, by the TSA's key. */
  signatureAlgorithm: Uint8Array;
  /** The signature over the DER signed attributes with SHA-256 (ECDSA: a DER Ecdsa-Sig-Value). */
  sign(data: Uint8Array): Promise<Uint8Array>;
};
const constantsByCa = new WeakMap<CaHierarchy, TsaConstants>();

function tsaConstants(ca: CaHierarchy): TsaConstants {
  let c = constantsByCa.get(ca);
  if (c) return c;
  const { issuer, serial } = certFields(ca.tsa.der);
  const key = ca.tsaKey;
  const webKey = ca.tsa.privateKey;
  const ec = webKey.algorithm.name === 'ECDSA';
  c = {
    sid: seq(issuer, serial),
    certificates: setOf([ca.tsa.der, ca.issuing.der], 0xa0),
    signingCertificateV2: new Uint8Array(signingCertificateV2(ca.tsa.der).toSchema().toBER()),
    signatureAlgorithm: ec ? ECDSA_WITH_SHA256 : SHA256_WITH_RSA,
    // node:crypto signs in about half the time of WebCrypto (and writes ECDSA as DER itself); WebCrypto
    // remains for a KeyStore without KeyObjects (HSM/KMS).
    sign: key
      ? async (data) => nodeSign('sha256', data, key)
      : ec
        ? async (data) =>
            ecdsaP1363ToDer(new Uint8Array(await subtle.sign(ECDSA_SHA256, webKey, toArrayBuffer(data))))
        : async (data) => new Uint8Array(await subtle.sign(RSA_SIGN, webKey, toArrayBuffer(data))),
  };
  constantsByCa.set(ca, c);
  return c;
}

/**
 * The DER ContentInfo of a token, written directly: TSTInfo, then one SignerInfo whose signed attributes
 * (content-type id-ct-TSTInfo, signing-time, message-digest, signing-certificate-v2) are in DER SET order,
 * then SignedData. Only the TSTInfo, two attributes and the signature change from token to token.
 */
async function issueToken(req: TokenRequest, deps: TsaDeps): Promise<Uint8Array> {
  const c = tsaConstants(deps.ca);
  const genTime = wholeSeconds(deps.now?.() ?? new Date());
  const tstInfo = seq(
    VERSION_1,
    POLICY,
    req.messageImprint,
    unsignedInt(randomSerial(16)),
    generalizedTime(genTime),
    ACCURACY_1S,
    // ordering is FALSE, its DEFAULT, so absent; the nonce only when the request had one.
    ...(req.nonce ? [req.nonce] : []),
  );
  const attrs = [
    CONTENT_TYPE_ATTR,
    attribute(Oid.signingTime, time(genTime)),
    attribute(Oid.messageDigest, octets(sha256(tstInfo))),
    c.signingCertificateV2,
  ];
  // Signed as a SET OF (tag 0x31), carried as [0] IMPLICIT: same members, same DER order.
  const signature = await c.sign(setOf(attrs));
  const signerInfo = seq(
    VERSION_1,
    c.sid,
    SHA256_ALG,
    setOf(attrs, 0xa0),
    c.signatureAlgorithm,
    octets(signature),
  );
  const signedData = seq(
    smallInt(3),
    setOf([SHA256_ALG]),
    seq(TST_INFO_TYPE, tlv(0xa0, octets(tstInfo))),
    // certReq: the TSA certificate and the issuing CA, so a verifier holding only the root can build the chain.
    ...(req.certReq ? [c.certificates] : []),
    setOf([signerInfo]),
  );
  return seq(SIGNED_DATA_TYPE, tlv(0xa0, signedData));
}

function parseRequest(requestDer: Uint8Array): TokenRequest {
  if (requestDer.length === 0 || requestDer.length > MAX_TSA_REQUEST_BYTES) {
    throw new TsaRequestError(TsaFailure.BadDataFormat, 'request size out of range');
  }
  let req: pkijs.TimeStampReq;
  try {
    req = pkijs.TimeStampReq.fromBER(toArrayBuffer(requestDer));
  } catch {
    throw new TsaRequestError(TsaFailure.BadDataFormat, 'not a DER TimeStampReq');
  }
  if (req.version !== 1) throw new TsaRequestError(TsaFailure.BadRequest, 'unsupported version');
  const alg = req.messageImprint.hashAlgorithm.algorithmId;
  if (!ACCEPTED_IMPRINT_HASHES.includes(alg))
    throw new TsaRequestError(TsaFailure.BadAlg, 'unsupported hash algorithm');
  if (req.messageImprint.hashedMessage.valueBlock.valueHexView.length !== HASHES[alg].length) {
    throw new TsaRequestError(TsaFailure.BadDataFormat, 'hashed message has the wrong length');
  }
  if (req.reqPolicy !== undefined && req.reqPolicy !== TSA_POLICY_OID) {
    throw new TsaRequestError(TsaFailure.UnacceptedPolicy, 'unsupported policy');
  }
  if (req.extensions?.length)
    throw new TsaRequestError(TsaFailure.UnacceptedExtension, 'extensions are not supported');
  return {
    // Echoed into the TSTInfo as the client encoded them (DER in, the same DER out).
    messageImprint: new Uint8Array(req.messageImprint.toSchema().toBER()),
    nonce: req.nonce ? new Uint8Array(req.nonce.toBER()) : undefined,
    certReq: req.certReq === true,
  };
}

/**
 * Answers one DER TimeStampReq (RFC 3161) with a DER TimeStampResp. Granted: a token over a TSTInfo with
 * this TSA's policy, the request's message imprint, a random serial, genTime (whole seconds, accuracy
 * 1 s), the nonce when given, the TSA and issuing CA certificates when certReq is set, and a
 * signing-certificate-v2 signed attribute. Refused (status rejection with failInfo): undecodable requests,
 * hashes other than SHA-256/384/512, another policy, any extension. Never throws for bad input.
 */
export async function respondTimestamp(requestDer: Uint8Array, deps: TsaDeps): Promise<Uint8Array> {
  let req: TokenRequest;
  try {
    req = parseRequest(requestDer);
  } catch (err) {
    if (err instanceof TsaRequestError) return failureResponse(err.failure, err.message);
    return failureResponse(TsaFailure.BadDataFormat, 'malformed request');
  }
  try {
    // TimeStampResp ::= SEQUENCE { status PKIStatusInfo (granted), timeStampToken }
    return seq(GRANTED, await issueToken(req, deps));
  } catch (err) {
    deps.onError?.(err);
    return failureResponse(TsaFailure.SystemFailure, 'time-stamp could not be issued');
  }
}

/**
 * A time-stamp token (DER ContentInfo / SignedData, with the TSA and issuing CA certificates) over a
 * message imprint, for in-process callers: the PDF signer passes the hash of its signature value and
 * embeds the result as the id-aa-timeStampToken unsigned attribute. Rejects an imprint whose length does
 * not fit `hashAlg`, and SHA-1.
 */
export async function timestamp(
  messageImprint: Uint8Array,
  hashAlg: HashName,
  deps: TsaDeps,
): Promise<Uint8Array> {
  const hashOid = HASH_OID_BY_NAME[hashAlg];
  if (!hashOid || !ACCEPTED_IMPRINT_HASHES.includes(hashOid))
    throw new TsaRequestError(TsaFailure.BadAlg, `unsupported hash ${hashAlg}`);
  if (messageImprint.length !== HASHES[hashOid].length) {
    throw new TsaRequestError(
      TsaFailure.BadDataFormat,
      `a ${hashAlg} imprint has ${HASHES[hashOid].length} bytes`,
    );
  }
  // MessageImprint with the hash AlgorithmIdentifier's parameters absent (RFC 5754 §2).
  return issueToken({ messageImprint: seq(seq(oid(hashOid)), octets(messageImprint)), certReq: true }, deps);
}
