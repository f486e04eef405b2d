/**
 * DER to build a CMS signature by hand: the generic writer and reader live in server/lib/der.ts (the
 * encoder writes exactly the bytes we mean, no library re-encoding signed attributes); this adds the few
 * fields of a certificate that CMS needs.
 */
import { children, raw, readTlv } from '../../lib/der.ts';

export * from '../../lib/der.ts';

export type CertFields = {
  der: Uint8Array;
  /** the issuer Name, DER */
  issuer: Uint8Array;
  /** the serialNumber INTEGER, DER (tag and length included) */
  serial: Uint8Array;
  subject: Uint8Array;
  /** OID of the subject public key algorithm, DER */
  keyAlgorithm: Uint8Array;
};

/** Issuer, serial, subject and key algorithm of an X.509 certificate; throws RangeError on malformed DER. */
export function certFields(der: Uint8Array): CertFields {
  const cert = readTlv(der, 0);
  const tbs = children(der, cert)[0];
  const f = children(der, tbs);
  const i = f[0].tag === 0xa0 ? 1 : 0;
  const spki = f[i + 5];
  const keyAlgId = children(der, children(der, spki)[0])[0];
  return {
    der,
    serial: raw(der, f[i]),
    issuer: raw(der, f[i + 2]),
    subject: raw(der, f[i + 4]),
    keyAlgorithm: raw(der, keyAlgId),
  };
}
