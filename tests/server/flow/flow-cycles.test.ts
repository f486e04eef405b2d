// Files whose object graph loops (issue 23, L2) through the product: upload, launch, sign, verify. The
// finding: a one-page PDF whose page /Resources is the page itself was uploaded, then the launch answered
// 500 (a RangeError of pdf-lib's recursion while writing the footer). Each variant (resources, form
// XObject, /Kids, /Parent, annotation /P and /AP cycles, a page reached twice, deep nesting) must launch,
// with the footer when pdf-lib can rewrite it safely and otherwise without it, the audit trail saying so
// in both languages, exactly as a damaged file; the launched flow signs and its signed PDF verifies.
import { beforeAll, describe, expect, test } from 'vitest';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { getAuditTrail } from '#contract/calls/flow.ts';
import { appForFile } from '../helper.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';
import { CYCLIC_CASES, KEYWORD, type CyclicCase } from '../fixtures/cyclic-pdfs.ts';
import {
  expectAllPassed,
  getBytes,
  ok,
  personWithCert,
  type Signer,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
} from '../fixtures/flow.ts';

// one flow per case, each using a signing of the starter allowance
const t = appForFile({ FREE_SIGNING_ALLOWANCE: '100' });
let owner: Signer;

beforeAll(async () => {
  owner = await personWithCert(t, '孙八');
}, 120_000);

type Trail = { entries: { event: string; detail: string | null }[]; chains: { isIntact: boolean }[] };

const isPrefix = (before: Uint8Array, after: Uint8Array) =>
  after.length > before.length && Buffer.from(after.subarray(0, before.length)).equals(Buffer.from(before));

async function expectValid(bytes: Uint8Array, name: string) {
  const { pki } = await expectAllPassed(t, bytes);
  const out = pdfsigReport(bytes, pki.rootPem, `${name.replace(/\W+/g, '-')}.pdf`);
  if (out === null) return;
  expect(out, out).not.toContain('Signature is Invalid');
  expect(out, out).toContain('Signature is Valid.');
}

async function throughTheProduct(c: CyclicCase, position: 'rect' | 'keyword') {
  const input = c.bytes();
  const up = await uploadPdf(owner.agent, input, 0);
  expect(up.status).toBe(200);
  expect(up.body.code, up.body.msg).toBe(0);
  expect(up.body.data.pages).toBe(1);
  const documentId = up.body.data.documentId;
  const launched = await tryLaunchForOne(owner.agent, owner, {
    documentId,
    title: `环 ${c.name}`,
    position:
      position === 'rect'
        ? { page: 1, rect: [300, 100, 400, 150] }
        : { keyword: KEYWORD, widthMm: 30, heightMm: 15 },
  });
  // never the 500 of the finding
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  return { input, documentId, launched };
}

describe('cyclic files through upload, launch, signing and verification', () => {
  test.each(CYCLIC_CASES.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const { input, documentId, launched } = await throughTheProduct(c, 'rect');
      expect(launched.body.code, launched.body.msg).toBe(0);
      const flowId = launched.body.data.flowId;
      const trail = (lang: string) =>
        owner.agent.call<Trail>(
          getAuditTrail,
          { userType: 0, flowId },
          { headers: { 'accept-language': lang } },
        );
      const en = ok(await trail('en-US'), 'trail en');
      const zh = ok(await trail('zh-CN'), 'trail zh');
      const launchEn = en.entries.find((e) => e.event === 'launch')?.detail ?? '';
      const launchZh = zh.entries.find((e) => e.event === 'launch')?.detail ?? '';
      if (c.footer) {
        expect(launchEn).not.toMatch(/without the verification footer/);
        expect(launchZh).not.toMatch(/未加验证页脚/);
      } else {
        expect(launchEn).toMatch(
          /launched without the verification footer \(the file is damaged, and a rewrite could change what it shows\)$/,
        );
        expect(launchZh).toMatch(/未加验证页脚（文件受损，重写可能改变其显示的内容）$/);
      }
      expect(en.chains.every((x) => x.isIntact)).toBe(true);

      const signed = await signByLink(t, t.agent(), owner);
      expect(signed.status).toBe(200);
      expect(signed.body.code, signed.body.msg).toBe(0);
      expect(signed.body.data.flowStatus).toBe('completed');
      const final = await getBytes(owner.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
      expect(final.status).toBe(200);
      // without the footer, the uploaded bytes are what was signed (no rewrite, not even a repair here)
      if (!c.footer) expect(isPrefix(input, final.bytes)).toBe(true);
      await expectValid(final.bytes, c.name);
    },
    120_000,
  );

  test.each(CYCLIC_CASES.slice(0, 4).map((c) => [c.name, c] as const))(
    'a keyword position on "%s": pdf.js finds the keyword through the cycle, launched',
    async (_name, c) => {
      const { launched } = await throughTheProduct(c, 'keyword');
      expect(launched.body.code, launched.body.msg).toBe(0);
    },
    60_000,
  );
});
