/**
 * Certificate path building to trust anchors, validity at a time, and revocation from embedded
 * validation data (PDF DSS and the CMS adbe-revocationInfoArchival attribute). No network access here:
 * answers from outside the file come through the caller's revocation hook (VerifyOptions.revocation),
 * so missing data yields 'unknown', never 'good'.
 */
import type { KeyObject } from 'node:crypto';
import {
  algIdOf,
  type Cert,
  certAt,
  certFromDer,
  keyHashSha1,
  namesEqual,
  publicKeyOf,
  sameCert,
} from './cert.ts';
import { type Attr, digestName, SIG_ALGS, verifySignatureValue } from './cms.ts';
import {
  allChildren,
  bitsOf,
  bytesEq,
  certIssuerSerial,
  children,
  content,
  ctx,
  eqBytes,
  octetsOf,
  raw,
  readTlv,
  T,
  timeOf,
} from '../../lib/der.ts';

type Revocation = 'good' | 'revoked' | 'unknown';

type ChainResult = {
  chain: Cert[];
  /** the chain ends at one of the trust anchors */
  anchored: boolean;
  /** every certificate of the chain is within its validity period at `at` */
  validAt: boolean;
  notYetValid: boolean;
};

/**
 * Signature checks already made within one verification: the same certificate pairs and OCSP responses
 * come up again for every signature of a file.
 */
const issuedCache = new WeakMap<Cert, WeakMap<Cert, boolean>>();

/**
 * The certificate's signature verifies with `key`, as OpenSSL's X509_verify decides it: the outer
 * signature algorithm must equal the one inside the TBS, the BIT STRING must have no unused bits, and
 * the algorithm must name its hash (a bare rsaEncryption or EC key OID is not a signature algorithm).
 */
function certSignatureValid(c: Cert, key: KeyObject): boolean {
  if (!c.algorithmsAgree || !c.signatureValue) return false;
  const entry = SIG_ALGS[c.signatureAlgorithm.oid];
  if (!entry || (entry[1] === null && entry[0] !== 'pss' && entry[0] !== 'eddsa')) return false;
  return verifySignatureValue(c.signatureAlgorithm, 'sha256', c.tbs, c.signatureValue, key) === true;
}

/** True when `issuer` signed `child` (name match and signature check). */
function issued(issuer: Cert, child: Cert): boolean {
  if (!namesEqual(child.issuer, issuer.subject)) return false;
  let byChild = issuedCache.get(issuer);
  const known = byChild?.get(child);
  if (known !== undefined) return known;
  const key = publicKeyOf(issuer);
  const ok = !!key && certSignatureValid(child, key);
  if (!byChild) {
    byChild = new WeakMap();
    issuedCache.set(issuer, byChild);
  }
  byChild.set(child, ok);
  return ok;
}

function within(c: Cert, at: Date): { ok: boolean; early: boolean } {
  const from = c.notBefore.getTime();
  const to = c.notAfter.getTime();
  const t = at.getTime();
  return { ok: t >= from && t <= to, early: t < from };
}

/** Builds the path leaf → anchor using the pool of intermediates found in the file. */
export function buildChain(leaf: Cert, pool: Cert[], anchors: Cert[], at: Date): ChainResult {
  const chain: Cert[] = [leaf];
  let anchored = anchors.some((a) => sameCert(a, leaf));
  let cur = leaf;
  for (let i = 0; i < 12 && !anchored; i++) {
    const anchor = anchors.find((a) => issued(a, cur));
    if (anchor) {
      if (!sameCert(anchor, cur)) chain.push(anchor);
      anchored = true;
      break;
    }
    const next = pool.find((p) => !chain.some((c) => sameCert(c, p)) && issued(p, cur));
    if (!next) break;
    chain.push(next);
    cur = next;
  }
  let validAt = true;
  let notYetValid = false;
  for (const c of chain) {
    const w = within(c, at);
    if (!w.ok) validAt = false;
    if (w.early) notYetValid = true;
  }
  return { chain, anchored, validAt, notYetValid };
}

export type ValidationData = { certs: Cert[]; crls: Uint8Array[]; ocsps: Uint8Array[] };

/** Extracts CRLs and OCSP responses from the adbe-revocationInfoArchival signed attribute. */
export function adbeRevocationData(attr: Attr | undefined): {
  crls: Uint8Array[];
  ocsps: Uint8Array[];
} {
  const crls: Uint8Array[] = [];
  const ocsps: Uint8Array[] = [];
  const seq = attr?.values[0];
  if (!attr || seq?.tag !== T.SEQUENCE) return { crls, ocsps };
  const b = attr.b;
  // a malformed part ends the walk: what was read so far is used, revocation may stay unknown
  for (const tagged of allChildren(b, seq) ?? []) {
    const inner = (tagged.tag & 0x20) !== 0 ? allChildren(b, tagged)?.[0] : undefined;
    const items = inner && (inner.tag & 0x20) !== 0 ? allChildren(b, inner) : undefined;
    if (!items) break;
    const n = tagged.tagNum;
    for (const item of items) {
      if (n === 0) crls.push(raw(b, item));
      else if (n === 1) ocsps.push(raw(b, item));
    }
  }
  return { crls, ocsps };
}

/** Outcome of a CRL or OCSP signature check per signer, kept for the other signatures of the file. */
const crlSignedBy = new WeakMap<Uint8Array, Map<Cert, boolean>>();

/** One revocation answer: `revokedAt` is set when the source dates the revocation. */
export type RevocationFinding = { status: Revocation; revokedAt?: Date };

function crlStatus(crlDer: Uint8Array, cert: Cert, issuer: Cert): RevocationFinding | undefined {
  // Raw DER walk: CRLs can hold many thousand entries and full object parsing is slow.
  try {
    const ci = certIssuerSerial(cert.der);
    const outer = readTlv(crlDer, 0);
    if (!ci || !outer) return undefined;
    const [tbs, sigAlg, sigVal] = children(crlDer, outer, 3);
    if (!tbs || !sigAlg || !sigVal || sigVal.tag !== 0x03) return undefined;
    const f = children(crlDer, tbs, 8);
    let i = f[0]?.tag === 0x02 ? 1 : 0;
    const crlIssuer = f[i + 1];
    if (!crlIssuer || !bytesEq(crlDer, crlIssuer, cert.der, ci.issuer)) return undefined;
    i += 3; // signature, issuer, thisUpdate
    if (f[i] && (f[i].tag === 0x17 || f[i].tag === 0x18)) i++;
    let bySigner = crlSignedBy.get(crlDer);
    let ok = bySigner?.get(issuer);
    if (ok === undefined) {
      const key = publicKeyOf(issuer);
      const alg = algIdOf(crlDer, sigAlg);
      if (!key || !alg) return undefined;
      ok =
        verifySignatureValue(
          alg,
          digestName(alg.oid) ?? 'sha256',
          crlDer.subarray(tbs.start, tbs.end),
          crlDer.subarray(sigVal.headerEnd + 1, sigVal.end),
          key,
        ) === true;
      if (!bySigner) {
        bySigner = new Map();
        crlSignedBy.set(crlDer, bySigner);
      }
      bySigner.set(issuer, ok);
    }
    if (!ok) return undefined;
    const revoked = f[i]?.tag === 0x30 ? f[i] : undefined;
    if (revoked) {
      for (const entry of children(crlDer, revoked)) {
        const [serial, date] = children(crlDer, entry, 2);
        if (serial && bytesEq(crlDer, serial, cert.der, ci.serial)) {
          if (!date) return { status: 'revoked' };
          const d = timeOf(crlDer, date);
          if (!d) return undefined;
          return { status: 'revoked', revokedAt: d };
        }
      }
    }
    return { status: 'good' };
  } catch {
    return undefined;
  }
}

type OcspSingle = { serial: Uint8Array; keyHash: Uint8Array; status: number; revokedAt?: Date };
type ParsedOcsp = {
  tbs: Uint8Array;
  sigAlg: NonNullable<ReturnType<typeof algIdOf>>;
  sig: Uint8Array;
  certs: Cert[];
  responses: OcspSingle[];
  signedBy: Map<Cert, boolean>;
};
const ocspCache = new WeakMap<Uint8Array, ParsedOcsp | null>();

/** BasicOCSPResponse (bare or inside an OCSPResponse), or null when it is not one. */
function parseOcsp(der: Uint8Array): ParsedOcsp | null {
  const top = readTlv(der, 0);
  let b = der;
  let basicT = top;
  const f = top?.tag === T.SEQUENCE ? allChildren(der, top) : undefined;
  if (!f) return null;
  if (f[0]?.tag === T.ENUMERATED) {
    // OCSPResponse { responseStatus, responseBytes [0] EXPLICIT { responseType, response OCTET STRING } }
    const rb = f[1]?.tag === ctx(0) ? allChildren(der, f[1])?.[0] : undefined;
    const parts = rb?.tag === T.SEQUENCE ? allChildren(der, rb) : undefined;
    const inner = parts?.[1] && parts[1].tag === T.OCTET_STRING ? octetsOf(der, parts[1]) : undefined;
    if (!inner) return null;
    b = inner;
    basicT = readTlv(b, 0);
  }
  const bf = basicT?.tag === T.SEQUENCE ? allChildren(b, basicT) : undefined;
  if (!bf || bf.length < 3 || bf.length > 4) return null;
  const [tbsT, algT, sigT, certsT] = bf;
  const sigAlg = algIdOf(b, algT);
  const sig = bitsOf(b, sigT);
  if (tbsT.tag !== T.SEQUENCE || !sigAlg || !sig) return null;
  const certs: Cert[] = [];
  if (certsT) {
    const list = certsT.tag === ctx(0) ? allChildren(b, certsT)?.[0] : undefined;
    const items = list?.tag === T.SEQUENCE ? allChildren(b, list) : undefined;
    if (!items) return null;
    for (const c of items) {
      const cert = certAt(b, c);
      if (!cert) return null;
      certs.push(cert);
    }
  }
  // ResponseData { version [0] OPTIONAL, responderID [1]|[2], producedAt, responses, [1] extensions }
  const rd = allChildren(b, tbsT);
  if (!rd) return null;
  let i = rd[0]?.tag === ctx(0) ? 1 : 0;
  if (rd[i]?.tag !== ctx(1) && rd[i]?.tag !== ctx(2)) return null;
  i++;
  if (rd[i]?.tag !== T.GENERALIZED_TIME) return null;
  i++;
  const list = rd[i]?.tag === T.SEQUENCE ? allChildren(b, rd[i]) : undefined;
  if (!list) return null;
  const responses: OcspSingle[] = [];
  for (const sr of list) {
    const sf = sr.tag === T.SEQUENCE ? allChildren(b, sr) : undefined;
    const id = sf?.[0]?.tag === T.SEQUENCE ? allChildren(b, sf[0]) : undefined;
    if (!sf || !id || id.length !== 4 || !algIdOf(b, id[0])) return null;
    const [, , keyHashT, serialT] = id;
    if (id[1].tag !== T.OCTET_STRING || keyHashT.tag !== T.OCTET_STRING || serialT.tag !== T.INTEGER)
      return null;
    const statusT = sf[1];
    if (!statusT || (statusT.tag & 0xc0) !== 0x80 || statusT.tagNum > 2) return null;
    if (sf[2]?.tag !== T.GENERALIZED_TIME) return null;
    // RevokedInfo { revocationTime GeneralizedTime, revocationReason [0] OPTIONAL }
    const revokedInfo =
      statusT.tagNum === 1 && (statusT.tag & 0x20) !== 0 ? allChildren(b, statusT) : undefined;
    const revokedAt = revokedInfo?.[0]?.tag === T.GENERALIZED_TIME ? timeOf(b, revokedInfo[0]) : undefined;
    responses.push({
      serial: content(b, serialT),
      keyHash: content(b, keyHashT),
      status: statusT.tagNum,
      revokedAt,
    });
  }
  return { tbs: raw(b, tbsT), sigAlg, sig, certs, responses, signedBy: new Map() };
}

function ocspStatus(der: Uint8Array, cert: Cert, issuer: Cert, pool: Cert[]): RevocationFinding | undefined {
  try {
    let basic = ocspCache.get(der);
    if (basic === undefined) {
      basic = parseOcsp(der);
      ocspCache.set(der, basic);
    }
    if (!basic) return undefined;
    const issuerKeyHash = keyHashSha1(issuer);
    const single = basic.responses.find(
      (r) => eqBytes(r.serial, cert.serial) && eqBytes(r.keyHash, issuerKeyHash),
    );
    if (!single) return undefined;
    // responder: the issuer itself or a certificate the issuer delegated
    const candidates = [issuer, ...basic.certs, ...pool];
    const p = basic;
    const signedBy = candidates.find((c) => {
      let ok = p.signedBy.get(c);
      if (ok === undefined) {
        const key = publicKeyOf(c);
        ok = !!key && verifySignatureValue(p.sigAlg, 'sha256', p.tbs, p.sig, key) === true;
        p.signedBy.set(c, ok);
      }
      return ok && (sameCert(c, issuer) || issued(issuer, c));
    });
    if (!signedBy) return undefined;
    if (single.status === 0) return { status: 'good' };
    if (single.status === 1) return { status: 'revoked', revokedAt: single.revokedAt };
    return { status: 'unknown' };
  } catch {
    return undefined;
  }
}

/**
 * The answer of one OCSP response (an OCSPResponse or a bare BasicOCSPResponse) about `cert`, when the
 * issuer or a responder the issuer delegated signed it; undefined when it says nothing usable.
 */
export function ocspFinding(der: Uint8Array, cert: Cert, issuer: Cert): RevocationFinding | undefined {
  return ocspStatus(der, cert, issuer, []);
}

/**
 * Revocation of `cert` (issued by `issuer`) from embedded CRLs and OCSP responses, whatever its time:
 * 'revoked' when any signed source lists it (the earliest dated revocation; undated wins), else 'good'
 * when one vouches for it, else 'unknown'. Sources not signed by the issuer (or its delegate) are ignored.
 */
export function revocationFindingOf(
  cert: Cert,
  issuer: Cert | undefined,
  data: ValidationData,
): RevocationFinding {
  if (!issuer) return { status: 'unknown' };
  const found: RevocationFinding[] = [];
  for (const o of data.ocsps) {
    const s = ocspStatus(o, cert, issuer, data.certs);
    if (s) found.push(s);
  }
  for (const c of data.crls) {
    const s = crlStatus(c, cert, issuer);
    if (s) found.push(s);
  }
  return mergeFindings(found);
}

/** Combines revocation answers: revoked wins with its earliest time (an undated one first), then good. */
export function mergeFindings(found: RevocationFinding[]): RevocationFinding {
  const revoked = found.filter((f) => f.status === 'revoked');
  if (revoked.length > 0) {
    if (revoked.some((f) => !f.revokedAt)) return { status: 'revoked' };
    const times = revoked.map((f) => f.revokedAt?.getTime() ?? 0);
    return { status: 'revoked', revokedAt: new Date(Math.min(...times)) };
  }
  return { status: found.some((f) => f.status === 'good') ? 'good' : 'unknown' };
}

/** Parses PEM text holding one or more certificates. */
export function certsFromPem(pem: string): Cert[] {
  const out: Cert[] = [];
  const re = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (const m of pem.matchAll(re)) {
    const c = certFromDer(new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64')));
    if (c) out.push(c);
  }
  return out;
}
