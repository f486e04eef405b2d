// Pieces of CMS signer infos that the TSA here and the PDF signer (server/pdf) both need.
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import { pkijs, toArrayBuffer } from './crypto.ts';
import { Oid } from './profile.ts';

/**
 * Orders attributes as DER orders a SET OF: by their encodings (X.690 §11.6). OpenSSL and NSS re-encode
 * signed attributes in that order before checking a signature, so a signer must send them so.
 */
export function sortDerSet(attrs: pkijs.Attribute[]): pkijs.Attribute[] {
  const enc = attrs.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER()) }));
  enc.sort((x, y) => Buffer.compare(x.der, y.der));
  return enc.map((e) => e.a);
}

/**
 * The signing-certificate-v2 signed attribute (RFC 5035, required by PAdES and RFC 5816 tokens): one
 * ESSCertIDv2 with the SHA-256 hash of the signer's certificate and its issuer and serial.
 */
export function signingCertificateV2(certDer: Uint8Array): pkijs.Attribute {
  const cert = pkijs.Certificate.fromBER(toArrayBuffer(certDer));
  const issuerSerial = new asn1js.Sequence({
    value: [
      // GeneralNames with one directoryName ([4], explicit because Name is a CHOICE).
      new asn1js.Sequence({
        value: [
          new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] }),
        ],
      }),
      new asn1js.Integer({
        valueHex: toArrayBuffer(new Uint8Array(cert.serialNumber.valueBlock.valueHexView)),
      }),
    ],
  });
  // hashAlgorithm is left out: SHA-256 is its DEFAULT, and DER omits defaults.
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: toArrayBuffer(createHash('sha256').update(certDer).digest()) }),
      issuerSerial,
    ],
  });
  return new pkijs.Attribute({
    type: Oid.signingCertificateV2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}
