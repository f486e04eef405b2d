// A one-page PDF with one CMS signature (ETSI.CAdES.detached, signing-certificate-v2, a time-stamp from
// the TSA here), built by hand so that the PKI can be checked with pdfsig before server/pdf signs for real.
// Test helper only: the product's signer is server/pdf.
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import { signingCertificateV2, sortDerSet } from '#server/pki/cms-attributes.ts';
import { pkijs, toArrayBuffer } from '#server/pki/crypto.ts';

const CONTENTS_BYTES = 16 * 1024;
const PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

export type Signer = { der: Uint8Array; privateKey: CryptoKey; chain: Uint8Array[] };

export async function buildSignedPdf(
  signer: Signer,
  timestamp: (imprint: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /SigFlags 3 >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
    '<< /Type /Annot /Subtype /Widget /FT /Sig /Rect [0 0 0 0] /V 5 0 R /T (Signature1) /F 132 /P 3 0 R >>',
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${PLACEHOLDER} /Contents <${'0'.repeat(
      CONTENTS_BYTES * 2,
    )}> /M (D:20260101000000Z) >>`,
  ];
  let pdf = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) pdf += `${String(o).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;

  const bytes = Buffer.from(pdf, 'latin1');
  const contentsStart = bytes.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = contentsStart + 2 + CONTENTS_BYTES * 2;
  const range = [0, contentsStart, contentsEnd, bytes.length - contentsEnd];
  const rangeText = `/ByteRange [0 ${range
    .slice(1)
    .map((n) => String(n).padStart(10, ' '))
    .join(' ')}]`;
  if (rangeText.length !== PLACEHOLDER.length) throw new Error('ByteRange does not fit its placeholder');
  bytes.write(rangeText, bytes.indexOf(PLACEHOLDER), 'latin1');

  const digest = createHash('sha256')
    .update(bytes.subarray(0, contentsStart))
    .update(bytes.subarray(contentsEnd))
    .digest();
  const cert = pkijs.Certificate.fromBER(toArrayBuffer(signer.der));
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
    certificates: [cert, ...signer.chain.slice(0, 1).map((d) => pkijs.Certificate.fromBER(toArrayBuffer(d)))],
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: sortDerSet([
            new pkijs.Attribute({
              type: '1.2.840.113549.1.9.3',
              values: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.1' })],
            }),
            new pkijs.Attribute({
              type: '1.2.840.113549.1.9.4',
              values: [new asn1js.OctetString({ valueHex: toArrayBuffer(new Uint8Array(digest)) })],
            }),
            signingCertificateV2(signer.der),
          ]),
        }),
      }),
    ],
  });
  await signedData.sign(signer.privateKey, 0, 'SHA-256');
  const signatureValue = signedData.signerInfos[0].signature.valueBlock.valueHexView;
  const token = await timestamp(new Uint8Array(createHash('sha256').update(signatureValue).digest()));
  signedData.signerInfos[0].unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.16.2.14',
        values: [asn1js.fromBER(toArrayBuffer(token)).result],
      }),
    ],
  });
  const cms = new pkijs.ContentInfo({
    contentType: '1.2.840.113549.1.7.2',
    content: signedData.toSchema(true),
  });
  const hex = Buffer.from(cms.toSchema().toBER()).toString('hex');
  if (hex.length > CONTENTS_BYTES * 2) throw new Error('signature larger than its placeholder');
  bytes.write(hex, contentsStart + 1, 'latin1');
  return new Uint8Array(bytes);
}
