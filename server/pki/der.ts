/**
 * DER for the TSA: the generic writer and reader live in server/lib/der.ts; this adds what only the PKI
 * needs.
 */
import { children, raw, readTlv } from '../lib/der.ts';

export * from '../lib/der.ts';

/**
 * The issuer Name and the serialNumber INTEGER of an X.509 certificate, as the DER bytes found in it
 * (what IssuerAndSerialNumber and ESSCertIDv2 must repeat exactly). Throws RangeError on malformed DER.
 */
export function issuerAndSerial(certDer: Uint8Array): { issuer: Uint8Array; serial: Uint8Array } {
  const cert = readTlv(certDer, 0);
  const tbs = children(certDer, cert)[0];
  const f = children(certDer, tbs);
  // tbsCertificate starts with an optional [0] version.
  const i = f[0]?.tag === 0xa0 ? 1 : 0;
  if (f.length < i + 6 || f[i].tag !== 0x02 || f[i + 2].tag !== 0x30)
    throw new RangeError('DER: not a certificate');
  return { serial: raw(certDer, f[i]), issuer: raw(certDer, f[i + 2]) };
}
