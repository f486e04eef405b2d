// Encrypted files (empty user password) and damaged files pdf-lib cannot read go through the product:
// upload (page count and sizes read by the PDF core), launch without the verification footer (the footer
// is a pdf-lib rewrite that would drop the encryption; the audit trail says so, in both languages), sign,
// and the signed file passes the platform verifier and pdfsig, with the uploaded bytes a byte prefix of it.
// Files that need a user password, or whose permissions forbid signing, are refused at upload with that
// reason; a file whose attachments alone are encrypted needs none. A repair says what it repaired, in both
// languages.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SIGNED_PDF_PATH, uploadDocument } from '#contract/calls/document.ts';
import { getAuditTrail } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { appForFile } from '../helper.ts';
import { encryptedPdf, hasTool, isPrefix, pdfsigReport, run } from '../fixtures/pdf-signing.ts';
import {
  contractPdf,
  expectAllPassed,
  getBytes,
  ok,
  personWithCert,
  type Signer,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
} from '../fixtures/flow.ts';

const t = appForFile();
let owner: Signer;
const WILD = join(import.meta.dirname, '../../../../shared/pdf-wild/files');

beforeAll(async () => {
  owner = await personWithCert(t, '钱七');
}, 120_000);

const encrypted = async (
  algorithm: 'RC4-128' | 'AES-256',
  permissions = { fillingForms: true, annotating: true },
  userPassword = '',
) => encryptedPdf(await contractPdf(2), algorithm, permissions, userPassword);

type Trail = {
  entries: { event: string; detail: string | null; hashAfter: string | null }[];
  chains: { isIntact: boolean }[];
};

/** Upload, launch (one signer), sign; returns the signed file and the audit trail in both languages. */
async function throughTheProduct(input: Uint8Array, title: string) {
  const up = ok(await uploadPdf(owner.agent, input, 0), 'upload');
  expect(up.pages).toBeGreaterThan(0);
  const documentId = up.documentId;
  const { widthPt: w, heightPt: h } = up.pageSizes[0];
  const launched = await tryLaunchForOne(owner.agent, owner, {
    documentId,
    title,
    position: { page: 1, rect: [0, 0, Math.min(100, w), Math.min(50, h)] },
  });
  expect(launched.body.code, launched.body.msg).toBe(0);
  const flowId = launched.body.data.flowId;
  const signed = await signByLink(t, t.agent(), owner);
  expect(signed.body.code, signed.body.msg).toBe(0);
  expect(signed.body.data.flowStatus).toBe('completed');
  const final = await getBytes(owner.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
  expect(final.status).toBe(200);
  const trail = (lang: string) =>
    owner.agent.call<Trail>(getAuditTrail, { userType: 0, flowId }, { headers: { 'accept-language': lang } });
  return {
    pages: up.pages,
    final: final.bytes,
    en: ok(await trail('en-US'), 'trail en'),
    zh: ok(await trail('zh-CN'), 'trail zh'),
  };
}

async function expectValid(bytes: Uint8Array, name: string) {
  // the party's signature and the document time-stamp of the completed flow
  const { report, pki } = await expectAllPassed(t, bytes, 2);
  const out = pdfsigReport(bytes, pki.rootPem, name);
  if (out === null) return;
  const blocks = out.split(/Signature #\d+:/).slice(1);
  expect(blocks.length, out).toBe(report.signatures.length);
  for (const b of blocks) {
    expect(b, out).not.toContain('Signature is Invalid');
    // pdfsig (poppler 22.12) does not validate RFC 3161 document time-stamps ("Unimplemented Feature"),
    // and in an encrypted file it also decrypts their /Contents, which ISO 32000-2 §7.6.2 exempts (it
    // exempts only /Type /Sig): the platform verifier checks them above. Every party signature is valid.
    if (b.includes('Field Name: DocTimeStamp')) {
      expect(b).toContain('Signature has not yet been verified');
      continue;
    }
    expect(b, out).toContain('Signature is Valid.');
  }
}

describe('encrypted files with an empty user password through the product', () => {
  test.each(['AES-256', 'RC4-128'] as const)(
    '%s: uploaded, launched without the footer (recorded), signed, valid, still encrypted',
    async (algorithm) => {
      const input = await encrypted(algorithm);
      const { pages, final, en, zh } = await throughTheProduct(input, `加密 ${algorithm}`);
      expect(pages).toBe(2);
      expect(isPrefix(input, final)).toBe(true);
      // the signed revisions are encrypted updates: the trailer still names /Encrypt
      expect(Buffer.from(final.subarray(input.length)).toString('latin1')).toMatch(/\/Encrypt\s+\d+ \d+ R/);
      const launchEn = en.entries.find((e) => e.event === 'launch');
      expect(launchEn?.detail).toMatch(
        /launched without the verification footer \(the file is encrypted and a rewrite would remove its encryption\)$/,
      );
      const launchZh = zh.entries.find((e) => e.event === 'launch');
      expect(launchZh?.detail).toMatch(/未加验证页脚（文件已加密，重写会去除加密）$/);
      expect(en.chains.every((c) => c.isIntact)).toBe(true);
      await expectValid(final, `enc-${algorithm}.pdf`);
      if (hasTool('qpdf')) {
        const dir = mkdtempSync(join(tmpdir(), 'flow-encrypted-q-'));
        writeFileSync(join(dir, 'f.pdf'), final);
        const show = run('qpdf', ['--show-encryption', join(dir, 'f.pdf')]).out;
        expect(show).not.toMatch(/File is not encrypted/);
      }
    },
    120_000,
  );

  test('refused at upload: a user password, or permissions that forbid signing (named)', async () => {
    const pw = await uploadPdf(owner.agent, await encrypted('AES-256', undefined, 'user-secret'));
    expect(pw.body.code).toBe(Code.DocumentRejected);
    expect(pw.body.msg).toMatch(/needs a password/);
    const restricted = await encrypted('AES-256', { fillingForms: false, annotating: false });
    const en = await uploadPdf(owner.agent, restricted);
    expect(en.body.code).toBe(Code.DocumentRejected);
    expect(en.body.msg).toMatch(/permissions do not allow filling in form fields/);
    // the same refusal in Chinese (the multipart form the client sends, with the reader's language)
    const boundary = '----zhupload';
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="userType"\r\n\r\n0\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(restricted),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const zh = await owner.agent.call(callPath(uploadDocument), undefined, {
      raw,
      contentType: `multipart/form-data; boundary=${boundary}`,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body.code).toBe(Code.DocumentRejected);
    expect(zh.body.msg).toMatch(/权限设置不允许填写表单域/);
  }, 60_000);
});

describe('damaged files pdf-lib cannot read through the product', () => {
  test.each([
    'bug1250079.pdf',
    'bug1606566.pdf',
    'filled-background.pdf',
    'issue6069.pdf',
    'operator_list_cycle.pdf',
  ])(
    '%s: launched without the footer (recorded), signed, valid, the repaired file a prefix',
    async (name) => {
      const input = new Uint8Array(readFileSync(join(WILD, name)));
      const ready = prepareForSigning(input);
      const { final, en, zh } = await throughTheProduct(input, `损坏 ${name}`);
      // what was signed starts with the uploaded file, or with its repair (which only appends, or puts the
      // missing %PDF header first), recorded in the audit trail with its hash
      expect(isPrefix(ready.bytes, final)).toBe(true);
      const repair = en.entries.find((e) => e.event === 'repair');
      if (ready.repaired)
        expect(repair?.hashAfter).toBe(createHash('sha256').update(ready.bytes).digest('hex'));
      else expect(repair).toBeUndefined();
      expect(en.entries.find((e) => e.event === 'launch')?.detail).toMatch(
        /launched without the verification footer \(the file is damaged, and a rewrite could change what it shows\)$/,
      );
      expect(zh.entries.find((e) => e.event === 'launch')?.detail).toMatch(/未加验证页脚（文件受损/);
      await expectValid(final, name);
    },
    120_000,
  );
});

test('auth-event-ef-open.pdf, whose attachment alone is encrypted, is uploaded without a password and signed', async () => {
  const input = new Uint8Array(readFileSync(join(WILD, 'auth-event-ef-open.pdf')));
  const { final, en } = await throughTheProduct(input, '附件加密 attachment encrypted');
  expect(isPrefix(input, final)).toBe(true);
  expect(en.entries.find((e) => e.event === 'launch')?.detail).toMatch(/\(the file is encrypted/);
  await expectValid(final, 'ef-open.pdf');
}, 120_000);

test('issue9105_other.pdf (a catalog in the trailer, its page inside /Kids): the audit says what was repaired', async () => {
  const input = new Uint8Array(readFileSync(join(WILD, 'issue9105_other.pdf')));
  const { final, en, zh } = await throughTheProduct(input, '直接页面 direct page');
  expect(en.entries.find((e) => e.event === 'repair')?.detail).toBe(
    'repaired before signing: cross-reference table rebuilt: its startxref was missing; ' +
      'the catalog made an indirect object; page 1 made an indirect object',
  );
  expect(zh.entries.find((e) => e.event === 'repair')?.detail).toBe(
    '签署前已修复：重建了交叉引用表（缺少 startxref）；文档目录改写为间接对象；第 1 页改写为间接对象',
  );
  await expectValid(final, 'direct-page.pdf');
}, 120_000);

test('issue15590.pdf, whose /Pages names a JavaScript action, is refused at upload as having no page', async () => {
  const input = new Uint8Array(readFileSync(join(WILD, 'issue15590.pdf')));
  const res = await uploadPdf(owner.agent, input);
  expect(res.body.code).toBe(Code.DocumentRejected);
  expect(res.body.msg).toMatch(/no pages/);
});
