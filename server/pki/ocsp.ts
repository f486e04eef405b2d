import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import type { CaHierarchy } from './ca.ts';
import { type CertRepository, CertStatus } from './cert-repository.ts';
import { normalizeSerial, pkijs, signHash, toArrayBuffer, toHex, wholeSeconds } from './crypto.ts';
import { HASHES, Oid, RevocationReason } from './profile.ts';

/** OCSPResponseStatus of RFC 6960 §4.2.1 (4 is unused). */
const OcspResponseStatus = {
  Successful: 0,
  MalformedRequest: 1,
  InternalError: 2,
  TryLater: 3,
  SigRequired: 5,
  Unauthorized: 6,
} as const;

/** How long a relying party may cache an answer. Short: revocation should show within the hour. */
const OCSP_VALIDITY_MS = 60 * 60 * 1000;

/** Largest OCSP request accepted; a real one is a few hundred bytes. */
export const MAX_OCSP_REQUEST_BYTES = 16 * 1024;

type OcspDeps = {
  ca: CaHierarchy;
  repository: CertRepository;
  now?: () => Date;
  /** Told about unexpected failures (answered as internalError). */
  onError?: (err: unknown) => void;
};

type IssuerIds = { nameHash: Record<string, string>; keyHash: Record<string, string>; ocspKeyId: Uint8Array };
const issuerIdCache = new WeakMap<CaHierarchy, IssuerIds>();

function nodeHash(name: string): string {
  return name.replace('-', '').toLowerCase();
}

/** The CertID issuer hashes of the issuing CA, for every hash a request may use. */
function issuerIds(ca: CaHierarchy): IssuerIds {
  let ids = issuerIdCache.get(ca);
  if (!ids) {
    const cert = pkijs.Certificate.fromBER(toArrayBuffer(ca.issuing.der));
    const name = new Uint8Array(cert.subject.toSchema().toBER());
    const key = cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
    const ocspCert = pkijs.Certificate.fromBER(toArrayBuffer(ca.ocsp.der));
    ids = { nameHash: {}, keyHash: {}, ocspKeyId: new Uint8Array() };
    for (const [oid, h] of Object.entries(HASHES)) {
      ids.nameHash[oid] = createHash(nodeHash(h.name)).update(name).digest('hex');
      ids.keyHash[oid] = createHash(nodeHash(h.name)).update(key).digest('hex');
    }
    // ResponderID byKey: SHA-1 of the responder's public key bits (RFC 6960 §4.2.1).
    ids.ocspKeyId = new Uint8Array(
      createHash('sha1')
        .update(ocspCert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)
        .digest(),
    );
    issuerIdCache.set(ca, ids);
  }
  return ids;
}

function statusOnly(status: number): Uint8Array {
  const resp = new pkijs.OCSPResponse({ responseStatus: new asn1js.Enumerated({ value: status }) });
  return new Uint8Array(resp.toSchema().toBER());
}

const good = () => new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } });
const unknown = () => new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } });
function revoked(at: Date, reason: number | null) {
  const value: asn1js.AsnType[] = [new asn1js.GeneralizedTime({ valueDate: wholeSeconds(at) })];
  if (reason !== null && reason !== RevocationReason.Unspecified) {
    value.push(
      new asn1js.Constructed({
        idBlock: { tagClass: 3, tagNumber: 0 },
        value: [new asn1js.Enumerated({ value: reason })],
      }),
    );
  }
  return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value });
}

/**
 * Answers one DER OCSP request (RFC 6960) for certificates of the issuing CA: good, revoked (with time
 * and reason) or unknown per serial, signed by the OCSP certificate (which is included), the request's
 * nonce echoed. Undecodable requests get malformedRequest; a request about another CA's certificates
 * gets unauthorized (RFC 5019 §2.2.3). Never throws for bad input.
 */
export async function respondOcsp(requestDer: Uint8Array, deps: OcspDeps): Promise<Uint8Array> {
  let request: pkijs.OCSPRequest;
  try {
    if (requestDer.length === 0 || requestDer.length > MAX_OCSP_REQUEST_BYTES) throw new Error('size');
    request = pkijs.OCSPRequest.fromBER(toArrayBuffer(requestDer));
    if (request.tbsRequest.requestList.length === 0) throw new Error('empty');
  } catch {
    return statusOnly(OcspResponseStatus.MalformedRequest);
  }
  try {
    const ca = deps.ca;
    const ids = issuerIds(ca);
    const now = wholeSeconds(deps.now?.() ?? new Date());
    const nextUpdate = new Date(now.getTime() + OCSP_VALIDITY_MS);
    // The CA's own end-entity certificates are not in the account repository but are good while in use.
    const own = new Set([ca.tsa.cert.serialNumber, ca.ocsp.cert.serialNumber].map(normalizeSerial));

    const responses: pkijs.SingleResponse[] = [];
    for (const r of request.tbsRequest.requestList) {
      const certId = r.reqCert;
      const alg = certId.hashAlgorithm.algorithmId;
      const ours =
        alg in HASHES &&
        toHex(certId.issuerNameHash.valueBlock.valueHexView) === ids.nameHash[alg] &&
        toHex(certId.issuerKeyHash.valueBlock.valueHexView) === ids.keyHash[alg];
      if (!ours) return statusOnly(OcspResponseStatus.Unauthorized);
      const serial = normalizeSerial(toHex(certId.serialNumber.valueBlock.valueHexView));
      let certStatus: asn1js.AsnType;
      if (own.has(serial)) certStatus = good();
      else {
        const rec = await deps.repository.findBySerial(serial);
        if (!rec) certStatus = unknown();
        else if (rec.status === CertStatus.Revoked) certStatus = revoked(rec.revokedAt ?? now, rec.reason);
        else certStatus = good();
      }
      responses.push(new pkijs.SingleResponse({ certID: certId, certStatus, thisUpdate: now, nextUpdate }));
    }

    const basic = new pkijs.BasicOCSPResponse();
    basic.tbsResponseData.responderID = new asn1js.OctetString({ valueHex: toArrayBuffer(ids.ocspKeyId) });
    basic.tbsResponseData.producedAt = now;
    basic.tbsResponseData.responses = responses;
    const nonce = request.tbsRequest.requestExtensions?.find((e) => e.extnID === Oid.ocspNonce);
    if (nonce) {
      basic.tbsResponseData.responseExtensions = [
        new pkijs.Extension({
          extnID: Oid.ocspNonce,
          critical: false,
          extnValue: toArrayBuffer(new Uint8Array(nonce.extnValue.valueBlock.valueHexView)),
        }),
      ];
    }
    basic.certs = [pkijs.Certificate.fromBER(toArrayBuffer(ca.ocsp.der))];
    // sha256WithRSAEncryption or ecdsa-with-SHA256 (a DER Ecdsa-Sig-Value), by the responder's key.
    await basic.sign(ca.ocsp.privateKey, signHash(ca.ocsp.privateKey));

    const resp = new pkijs.OCSPResponse({
      responseStatus: new asn1js.Enumerated({ value: OcspResponseStatus.Successful }),
      responseBytes: new pkijs.ResponseBytes({
        responseType: Oid.ocspBasic,
        response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER() }),
      }),
    });
    return new Uint8Array(resp.toSchema().toBER());
  } catch (err) {
    deps.onError?.(err);
    return statusOnly(OcspResponseStatus.InternalError);
  }
}

/** An OCSP request (SHA-256 CertID) for one certificate issued by `issuerDer`, as DER. */
export async function ocspRequestFor(certDer: Uint8Array, issuerDer: Uint8Array): Promise<Uint8Array> {
  const cert = pkijs.Certificate.fromBER(toArrayBuffer(certDer));
  const issuer = pkijs.Certificate.fromBER(toArrayBuffer(issuerDer));
  const req = new pkijs.OCSPRequest();
  await req.createForCertificate(cert, { hashAlgorithm: 'SHA-256', issuerCertificate: issuer });
  return new Uint8Array(req.toSchema(true).toBER());
}
