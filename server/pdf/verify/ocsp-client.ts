/**
 * A revocation hook that asks the OCSP responder named in a certificate's Authority Information Access
 * over plain HTTP (what the CLI's `--ocsp` uses). Network access lives here, outside the verifier.
 */
import { createHash } from 'node:crypto';

import { certFromDer, keyHashSha1 } from './cert.ts';
import { certIssuerSerial, NULL, octets, oid, raw, seq, tlv } from '../../lib/der.ts';
import { ocspFinding } from './trust.ts';
import type { RevocationAnswer, RevocationHook } from './types.ts';

/** id-ad-ocsp (1.3.6.1.5.5.7.48.1) as DER, then a uniformResourceIdentifier [6]. */
const AD_OCSP = Buffer.from('06082b06010505073001', 'hex');
const URI_TAG = 0x86;
const MAX_RESPONSE_BYTES = 256 * 1024;

/** The OCSP addresses of the certificate's AIA extension (http only: OCSP answers are signed). */
export function ocspUrls(certDer: Uint8Array): string[] {
  const b = Buffer.from(certDer);
  const out: string[] = [];
  for (let i = b.indexOf(AD_OCSP); i >= 0; i = b.indexOf(AD_OCSP, i + 1)) {
    const at = i + AD_OCSP.length;
    const len = b[at + 1];
    if (b[at] !== URI_TAG || len === undefined || len >= 0x80) continue;
    const url = b.subarray(at + 2, at + 2 + len).toString('latin1');
    if (/^http:\/\/[\x21-\x7e]+$/.test(url)) out.push(url);
  }
  return out;
}

/** OCSPRequest for one certificate: CertID with SHA-1 hashes of the issuer's name and key (RFC 6960). */
export function ocspRequest(certDer: Uint8Array, issuerDer: Uint8Array): Uint8Array | undefined {
  const cert = certFromDer(certDer);
  const issuer = certFromDer(issuerDer);
  const ids = certIssuerSerial(certDer);
  if (!cert || !issuer || !ids) return undefined;
  const sha1 = (d: Uint8Array) => new Uint8Array(createHash('sha1').update(d).digest());
  const certId = seq(
    seq(oid('1.3.14.3.2.26'), NULL),
    octets(sha1(raw(certDer, ids.issuer))),
    octets(new Uint8Array(keyHashSha1(issuer))),
    tlv(0x02, cert.serial),
  );
  return seq(seq(seq(seq(certId))));
}

/**
 * Asks each OCSP address of the certificate in turn, each within `timeoutMs`; answers what the first
 * response signed by the issuer (or its delegated responder) says, else 'unknown'. No nonce is sent (the
 * platform's responder, like most, answers from pre-signed state): a replayed older answer is possible on
 * an untrusted network.
 */
export function ocspHook(opts: { timeoutMs: number; fetch?: typeof fetch }): RevocationHook {
  const get = opts.fetch ?? fetch;
  return async (certIn, issuerIn) => {
    const cert = certFromDer(certIn.der);
    const issuer = certFromDer(issuerIn.der);
    const request = ocspRequest(certIn.der, issuerIn.der);
    if (!cert || !issuer || !request) return { status: 'unknown', source: 'ocsp' };
    for (const url of ocspUrls(certIn.der)) {
      try {
        const res = await get(url, {
          method: 'POST',
          headers: { 'content-type': 'application/ocsp-request' },
          body: Buffer.from(request),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) continue;
        const body = new Uint8Array(await res.arrayBuffer());
        if (body.length > MAX_RESPONSE_BYTES) continue;
        const f = ocspFinding(body, cert, issuer);
        if (!f || f.status === 'unknown') continue;
        const answer: RevocationAnswer = { status: f.status, source: url };
        if (f.revokedAt) answer.revokedAt = f.revokedAt;
        return answer;
      } catch {
        // unreachable, slow or malformed: try the next address
      }
    }
    return { status: 'unknown', source: 'ocsp' };
  };
}
