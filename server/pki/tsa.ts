import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import type { CaHierarchy } from './ca.ts';
import { signingCertificateV2, sortDerSet } from './cms-attributes.ts';
import { pkijs, randomSerial, toArrayBuffer, wholeSeconds } from './crypto.ts';
import { HASH_OID_BY_NAME, HASHES, type HashName, Oid, TSA_POLICY_OID } from './profile.ts';

/** PKIFailureInfo bit numbers of RFC 3161 §2.4.2. */
export const TsaFailure = {
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

export type TsaDeps = { ca: CaHierarchy; now?: () => Date; onError?: (err: unknown) => void };

export class TsaRequestError extends Error {
  override name = 'TsaRequestError';
  readonly failure: TsaFailure;
  constructor(failure: TsaFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

type TokenRequest = { messageImprint: pkijs.MessageImprint; nonce?: asn1js.Integer; certReq: boolean };

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

async function issueToken(req: TokenRequest, deps: TsaDeps): Promise<pkijs.ContentInfo> {
  const { ca } = deps;
  const genTime = wholeSeconds(deps.now?.() ?? new Date());
  const tst = new pkijs.TSTInfo({
    version: 1,
    policy: TSA_POLICY_OID,
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: toArrayBuffer(randomSerial(16)) }),
    genTime,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    // Only when the request had one: pkijs writes a present-but-undefined nonce as garbage.
    ...(req.nonce ? { nonce: req.nonce } : {}),
  });
  const tstDer = new Uint8Array(tst.toSchema().toBER());

  const tsaCert = pkijs.Certificate.fromBER(toArrayBuffer(ca.tsa.der));
  const attributes = sortDerSet([
    new pkijs.Attribute({
      type: Oid.contentType,
      values: [new asn1js.ObjectIdentifier({ value: Oid.tstInfo })],
    }),
    new pkijs.Attribute({ type: Oid.signingTime, values: [new asn1js.UTCTime({ valueDate: genTime })] }),
    new pkijs.Attribute({
      type: Oid.messageDigest,
      values: [
        new asn1js.OctetString({ valueHex: toArrayBuffer(createHash('sha256').update(tstDer).digest()) }),
      ],
    }),
    signingCertificateV2(ca.tsa.der),
  ]);
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: Oid.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: toArrayBuffer(tstDer) }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: tsaCert.issuer, serialNumber: tsaCert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
      }),
    ],
    // certReq: the TSA certificate and the issuing CA, so a verifier holding only the root can build the chain.
    ...(req.certReq
      ? { certificates: [tsaCert, pkijs.Certificate.fromBER(toArrayBuffer(ca.issuing.der))] }
      : {}),
  });
  await signedData.sign(ca.tsa.privateKey, 0, 'SHA-256');
  return new pkijs.ContentInfo({ contentType: Oid.signedData, content: signedData.toSchema(true) });
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
  return { messageImprint: req.messageImprint, nonce: req.nonce, certReq: req.certReq === true };
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
    const token = await issueToken(req, deps);
    const resp = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      timeStampToken: token,
    });
    return new Uint8Array(resp.toSchema().toBER());
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
  const oid = HASH_OID_BY_NAME[hashAlg];
  if (!oid || !ACCEPTED_IMPRINT_HASHES.includes(oid))
    throw new TsaRequestError(TsaFailure.BadAlg, `unsupported hash ${hashAlg}`);
  if (messageImprint.length !== HASHES[oid].length) {
    throw new TsaRequestError(
      TsaFailure.BadDataFormat,
      `a ${hashAlg} imprint has ${HASHES[oid].length} bytes`,
    );
  }
  const token = await issueToken(
    {
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: oid }),
        hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(messageImprint) }),
      }),
      certReq: true,
    },
    deps,
  );
  return new Uint8Array(token.toSchema().toBER());
}
