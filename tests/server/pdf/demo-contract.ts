// The demo contract as the platform produces it (scripts/demo.ts: company contract seal with a cross-page
// seal, then the person, then /DSS and a document time-stamp: B-LTA), built here with the signing engine
// directly, plus a "prepared" variant carrying what shadow attacks need before anyone signs.
import type { TimestampFn } from '#server/pdf/sign/cms.ts';
import type { Signer } from '#server/pdf/sign/cms.ts';
import { addDocumentTimestamp, addValidationData } from '#server/pdf/sign/ltv.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import type { PkiFixture } from '../pki/fixture.ts';
import { appendUpdate, contentStream, firstPage, lastRevision, pageWith } from './attack-kit.ts';
import { contractSealPdf, makePdf, partySigner } from './sign/helpers.ts';

export type DemoFiles = {
  /** two party signatures with signature time-stamps (PAdES B-T) */
  bt: Uint8Array;
  /** bt + /DSS (B-LT) */
  lt: Uint8Array;
  /** lt + a document time-stamp (B-LTA): the demo contract */
  lta: Uint8Array;
};

export type Parties = { company: Signer; person: Signer; ts: TimestampFn };

export async function parties(fx: PkiFixture): Promise<Parties> {
  return {
    company: await partySigner(fx, 'company-1', '示例科技有限公司', 1),
    person: await partySigner(fx, 'person-1', '张三', 0),
    ts: (imprint) => fx.pki.timestamp(imprint),
  };
}

export async function signTwice(original: Uint8Array, p: Parties, crossPage = true): Promise<Uint8Array> {
  const seal = await contractSealPdf();
  const company = await signPdf(original, {
    signer: p.company,
    timestamp: p.ts,
    appearance: { pdf: seal },
    placement: { pageIndex: 2, rect: [320, 120, 440, 240] },
    reason: '同意合同条款',
    name: '示例科技有限公司',
    ...(crossPage ? { crossPageSeal: {} } : {}),
  });
  return signPdf(company, {
    signer: p.person,
    timestamp: p.ts,
    appearance: { pdf: seal },
    placement: { pageIndex: 0, mm: { left: 30, top: 230, width: 30, height: 30 } },
    fieldName: 'person-zhangsan',
  });
}

export async function demoContract(fx: PkiFixture, p: Parties): Promise<DemoFiles> {
  const bt = await signTwice(await makePdf({ pages: 3 }), p);
  const lt = addValidationData(bt, {
    certs: [fx.pki.ca.issuing.der, fx.pki.ca.root.der, fx.pki.ca.tsa.der],
    crls: [await fx.pki.crl(), fx.pki.rootCrl],
  });
  const lta = await addDocumentTimestamp(lt, p.ts);
  return { bt, lt, lta };
}

/**
 * What a shadow attacker prepares before handing the contract over for signing (Mainka et al., 2021):
 * - page 1 gets an overlay stream K: first written empty, then rewritten as a white box that hides text;
 * - the font F of page 1 is first written as ZapfDingbats, then rewritten back to Helvetica;
 * - a second, hidden document (catalog H with its own one-page tree) that shares the AcroForm.
 * Every object an attack later points back to is already inside the bytes the parties sign.
 */
export type Prepared = {
  bytes: Uint8Array;
  overlay: { num: number; emptyAt: number };
  font: { num: number; dingbatsAt: number };
  hiddenCatalog: number;
};

export async function preparedContract(): Promise<Prepared> {
  const original = await makePdf({ pages: 3 });
  const page = firstPage(original);
  if (page.fontNum === null) throw new Error('page 1 has no indirect font');
  const { size, root, pdf, rev } = lastRevision(original);
  const catalog = pdf.catalog(rev);
  if (!catalog) throw new Error('no catalog');
  const K = size;
  const AF = size + 1;
  const H = size + 2;
  const HP = size + 3;
  const HPG = size + 4;
  const HC = size + 5;
  const catSrc = Buffer.from(original.subarray(catalog.start, catalog.end)).toString('latin1');
  const u0 = appendUpdate(original, {
    objects: [
      { num: K, body: contentStream('q Q') },
      {
        num: page.num,
        body: pageWith(original, page.dict, { Contents: `[${page.contentNum} 0 R ${K} 0 R]` }),
      },
      { num: page.fontNum, body: '<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>' },
      { num: AF, body: '<< /Fields [] >>' },
      { num: root.num, body: catSrc.replace(/>>\s*$/, ` /AcroForm ${AF} 0 R >>`) },
      { num: H, body: `<< /Type /Catalog /Pages ${HP} 0 R /AcroForm ${AF} 0 R >>` },
      { num: HP, body: `<< /Type /Pages /Kids [${HPG} 0 R] /Count 1 >>` },
      {
        num: HPG,
        body: `<< /Type /Page /Parent ${HP} 0 R /MediaBox [0 0 595.28 841.89] /Contents ${HC} 0 R /Resources << /Font << /F1 ${page.fontNum} 0 R >> >> >>`,
      },
      { num: HC, body: contentStream('BT /F1 24 Tf 72 720 Td (Party B owes Party A 1,000,000 yuan) Tj ET') },
    ],
  });
  const r0 = lastRevision(u0).rev;
  const emptyAt = r0.table.get(K);
  const dingbatsAt = r0.table.get(page.fontNum);
  if (emptyAt?.type !== 1 || dingbatsAt?.type !== 1) throw new Error('unexpected xref');
  const u1 = appendUpdate(u0, {
    objects: [
      { num: K, body: contentStream('q 1 1 1 rg 60 300 480 420 re f Q') },
      {
        num: page.fontNum,
        body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      },
    ],
  });
  return {
    bytes: u1,
    overlay: { num: K, emptyAt: emptyAt.offset },
    font: { num: page.fontNum, dingbatsAt: dingbatsAt.offset },
    hiddenCatalog: H,
  };
}
