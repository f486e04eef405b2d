/**
 * Certificate path building to trust anchors, validity at a time, and revocation from embedded
 * validation data (PDF DSS and the CMS adbe-revocationInfoArchival attribute). No network access:
 * online OCSP is a later step, so missing data yields 'unknown', never 'good'.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEq, certIssuerSerial, children, readTlv } from './der.ts';
import {
  type Cert,
  certFromDer,
  certFromPkijs,
  digestName,
  publicKeyOf,
  serialHex,
  verifySignatureValue,
} from './cms.ts';

export type Revocation = 'good' | 'revoked' | 'unknown';

export type ChainResult = {
  chain: Cert[];
  /** the chain ends at one of the trust anchors */
  anchored: boolean;
  /** every certificate of the chain is within its validity period at `at` */
  validAt: boolean;
  notYetValid: boolean;
};

function sameDer(a: Cert, b: Cert): boolean {
  return Buffer.compare(Buffer.from(a.der), Buffer.from(b.der)) === 0;
}

const x509Cache = new WeakMap<Cert, X509Certificate | null>();
function x509(c: Cert): X509Certificate | null {
  if (!x509Cache.has(c)) {
    let x: X509Certificate | null = null;
    try {
      x = new X509Certificate(Buffer.from(c.der));
    } catch {
      x = null;
    }
    x509Cache.set(c, x);
  }
  return x509Cache.get(c) ?? null;
}

/** True when `issuer` signed `child` (name match and signature check). */
export function issued(issuer: Cert, child: Cert): boolean {
  if (!child.pk.issuer.isEqual(issuer.pk.subject)) return false;
  const xc = x509(child);
  const key = publicKeyOf(issuer);
  if (!xc || !key) return false;
  try {
    return xc.verify(key);
  } catch {
    return false;
  }
}

function within(c: Cert, at: Date): { ok: boolean; early: boolean } {
  const from = c.pk.notBefore.value.getTime();
  const to = c.pk.notAfter.value.getTime();
  const t = at.getTime();
  return { ok: t >= from && t <= to, early: t < from };
}

/** Builds the path leaf → anchor using the pool of intermediates found in the file. */
export function buildChain(leaf: Cert, pool: Cert[], anchors: Cert[], at: Date): ChainResult {
  const chain: Cert[] = [leaf];
  let anchored = anchors.some((a) => sameDer(a, leaf));
  let cur = leaf;
  for (let i = 0; i < 12 && !anchored; i++) {
    const anchor = anchors.find((a) => issued(a, cur));
    if (anchor) {
      if (!sameDer(anchor, cur)) chain.push(anchor);
      anchored = true;
      break;
    }
    const next = pool.find((p) => !chain.some((c) => sameDer(c, p)) && issued(p, cur));
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
export function adbeRevocationData(attr: pkijs.Attribute | undefined): {
  crls: Uint8Array[];
  ocsps: Uint8Array[];
} {
  const crls: Uint8Array[] = [];
  const ocsps: Uint8Array[] = [];
  if (!attr) return { crls, ocsps };
  try {
    const seq = attr.values[0] as asn1js.Sequence;
    for (const tagged of seq.valueBlock.value) {
      const tag = tagged.idBlock.tagNumber;
      const inner = (tagged as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
      for (const item of inner.valueBlock.value) {
        const der = new Uint8Array(item.toBER(false));
        if (tag === 0) crls.push(der);
        else if (tag === 1) ocsps.push(der);
      }
    }
  } catch {
    // malformed archival attribute: ignored, revocation stays unknown
  }
  return { crls, ocsps };
}

function crlStatus(crlDer: Uint8Array, cert: Cert, issuer: Cert, at: Date): Revocation | undefined {
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
    const key = publicKeyOf(issuer);
    if (!key) return undefined;
    const alg = pkijs.AlgorithmIdentifier.fromBER(crlDer.slice(sigAlg.start, sigAlg.end));
    const ok = verifySignatureValue(
      alg,
      digestName(alg.algorithmId) ?? 'sha256',
      crlDer.subarray(tbs.start, tbs.end),
      crlDer.subarray(sigVal.headerEnd + 1, sigVal.end),
      key,
    );
    if (!ok) return undefined;
    const revoked = f[i]?.tag === 0x30 ? f[i] : undefined;
    if (revoked) {
      for (const entry of children(crlDer, revoked)) {
        const [serial, date] = children(crlDer, entry, 2);
        if (serial && bytesEq(crlDer, serial, cert.der, ci.serial)) {
          const d = date ? pkijs.Time.fromBER(crlDer.slice(date.start, date.end)) : undefined;
          return !d || d.value.getTime() <= at.getTime() ? 'revoked' : 'good';
        }
      }
    }
    return 'good';
  } catch {
    return undefined;
  }
}

function ocspStatus(
  der: Uint8Array,
  cert: Cert,
  issuer: Cert,
  at: Date,
  pool: Cert[],
): Revocation | undefined {
  try {
    let basic: pkijs.BasicOCSPResponse;
    try {
      const resp = pkijs.OCSPResponse.fromBER(der.slice());
      if (!resp.responseBytes) return undefined;
      basic = pkijs.BasicOCSPResponse.fromBER(resp.responseBytes.response.valueBlock.valueHexView.slice());
    } catch {
      basic = pkijs.BasicOCSPResponse.fromBER(der.slice());
    }
    const issuerKeyHash = createHash('sha1')
      .update(issuer.pk.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)
      .digest();
    const single = basic.tbsResponseData.responses.find(
      (r) =>
        r.certID.serialNumber.isEqual(cert.pk.serialNumber) &&
        Buffer.compare(Buffer.from(r.certID.issuerKeyHash.valueBlock.valueHexView), issuerKeyHash) === 0,
    );
    if (!single) return undefined;
    // responder: the issuer itself or a certificate the issuer delegated
    const candidates = [
      issuer,
      ...(basic.certs ?? []).map((c) => certFromPkijs(c as pkijs.Certificate)),
      ...pool,
    ];
    const tbs = new Uint8Array(basic.tbsResponseData.tbsView);
    const sig = new Uint8Array(basic.signature.valueBlock.valueHexView);
    const signedBy = candidates.find((c) => {
      const key = publicKeyOf(c);
      if (!key) return false;
      const ok = verifySignatureValue(basic.signatureAlgorithm, 'sha256', tbs, sig, key);
      return ok === true && (sameDer(c, issuer) || issued(issuer, c));
    });
    if (!signedBy) return undefined;
    const tag = (single.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
    if (tag === 0) return 'good';
    if (tag === 1) return 'revoked';
    void at;
    return 'unknown';
  } catch {
    return undefined;
  }
}

/** Revocation status of `cert` (issued by `issuer`) from embedded CRLs/OCSP responses. */
export function revocationOf(
  cert: Cert,
  issuer: Cert | undefined,
  data: ValidationData,
  at: Date,
): Revocation {
  if (!issuer) return 'unknown';
  let result: Revocation = 'unknown';
  for (const o of data.ocsps) {
    const s = ocspStatus(o, cert, issuer, at, data.certs);
    if (s === 'revoked') return 'revoked';
    if (s === 'good') result = 'good';
  }
  for (const c of data.crls) {
    const s = crlStatus(c, cert, issuer, at);
    if (s === 'revoked') return 'revoked';
    if (s === 'good') result = 'good';
  }
  return result;
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

export { serialHex };
