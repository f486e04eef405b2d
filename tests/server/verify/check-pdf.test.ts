// checkPdf through HTTP: real corpus files (valid and attacked), bad input with its own codes, and files the
// platform itself signed (trusted through the platform root) with tampered copies of them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkPdf, getVerifyReport, type VerifyResult } from '#contract/calls/verify.ts';
import { Code } from '#contract/codes.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { createTestApp, appForFile } from '../helper.ts';
import { contractSealPdf, hasTool, makePdf } from '../fixtures/pdf-signing.ts';
import {
  checkFile,
  corpusFile,
  hasCorpus,
  platformSigner,
  replaceFirstPageContent,
} from '../fixtures/verify.ts';

const VALID = 'files/node-signpdf/signed-once.pdf';
const ATTACKED = 'files/dss/pdf-signed-added-page.pdf';

const t = appForFile();
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verify-check-'));
}, 60_000);

const ok = (res: { body: { code: number; msg: string; data: VerifyResult } }) => {
  expect(res.body.code, res.body.msg).toBe(0);
  return res.body.data;
};

describe.skipIf(!hasCorpus)('corpus files', () => {
  it('a valid file: sound with trust aside, but unknown identity with only the platform root trusted', async () => {
    const r = ok(await checkFile(t.agent(), corpusFile(VALID), 'signed-once.pdf'));
    expect(r.trustAside.verdict).toBe('TOTAL_PASSED');
    expect(r.verdict).toBe('INDETERMINATE');
    expect(r.status).toBe('unknownIdentity');
    const [s] = r.signatures;
    expect(s.trusted).toBe(false);
    expect(s.trustSource).toBeNull();
    expect(s.intact).toBe(true);
    expect(s.cryptoValid).toBe(true);
    expect(s.coverage).toBe('ENTIRE_FILE');
    expect(s.reasons).toContain('UNTRUSTED');
    expect(s.chain.length).toBeGreaterThan(0);
    expect(r.file).toMatchObject({ name: 'signed-once.pdf', size: corpusFile(VALID).length });
    expect(r.file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.file.pages.length).toBeGreaterThan(0);
  });

  it('an attacked file (a page added after signing): failed, modified after signing, disallowed', async () => {
    const r = ok(await checkFile(t.agent(), corpusFile(ATTACKED), 'attacked.pdf'));
    expect(r.verdict).toBe('TOTAL_FAILED');
    expect(r.status).toBe('modified');
    const [s] = r.signatures;
    expect(s.modifiedAfterSigning).toBe('disallowed');
    expect(s.status).toBe('modified');
    expect(s.reasons).toContain('MODIFIED_DISALLOWED');
    expect(s.changes.length).toBeGreaterThan(0);
  });

  it('a field name with NUL bytes and 5000 characters (a fuzzed file): answered and kept, the name made safe', async () => {
    const src = Buffer.from(corpusFile(VALID));
    const at = src.indexOf('/T (Signature1)');
    expect(at).toBeGreaterThan(0);
    const hostile = Buffer.from(`/T (Sig\u0000na\u0001ture${'x'.repeat(5000)})`, 'latin1');
    const bytes = Buffer.concat([src.subarray(0, at), hostile, src.subarray(at + '/T (Signature1)'.length)]);
    const r = ok(await checkFile(t.agent(), new Uint8Array(bytes), 'hostile.pdf'));
    expect(r.verdict).not.toBe('TOTAL_PASSED');
    const [s] = r.signatures;
    expect(s.field).toMatch(/^Sig\uFFFDna\uFFFDturex+…$/);
    expect(s.field.length).toBeLessThanOrEqual(500);
    // kept (jsonb refuses U+0000): the report reloads by its id
    const again = await t.agent().call(getVerifyReport, { userType: 0, reportId: r.reportId });
    expect(again.body.code, again.body.msg).toBe(0);
  });

  it('an unsigned file says so', async () => {
    const r = ok(await checkFile(t.agent(), corpusFile('files/pyhanko/minimal.pdf')));
    expect(r.verdict).toBe('NO_SIGNATURE_FOUND');
    expect(r.status).toBe('unsigned');
    expect(r.signatures).toEqual([]);
  });
});

describe('bad input gets its own code and a message in the asked language', () => {
  it('not a PDF', async () => {
    const res = await checkFile(t.agent(), new TextEncoder().encode('hello, not a pdf'), 'note.txt');
    expect(res.body.code).toBe(Code.VerifyNotPdf);
    expect(res.body.msg).toBe('The file is not a PDF document.');
  });

  it('empty (in Chinese when asked)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/account/api/csign/checkPdf',
      headers: {
        'content-type': 'multipart/form-data; boundary=b1',
        'accept-language': 'zh-CN',
      },
      payload:
        '--b1\r\nContent-Disposition: form-data; name="userType"\r\n\r\n0\r\n' +
        '--b1\r\nContent-Disposition: form-data; name="file"; filename="e.pdf"\r\nContent-Type: application/pdf\r\n\r\n\r\n--b1--\r\n',
    });
    expect(res.json()).toMatchObject({ code: Code.VerifyEmpty, msg: '文件是空的。' });
  });

  it.skipIf(!hasTool('qpdf'))('encrypted', async () => {
    const plain = join(dir, 'plain.pdf');
    const enc = join(dir, 'enc.pdf');
    writeFileSync(plain, await makePdf({ pages: 1 }));
    const r = spawnSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', plain, enc]);
    expect(r.status, String(r.stderr)).toBe(0);
    const res = await checkFile(t.agent(), readFileSync(enc), 'enc.pdf');
    expect(res.body.code).toBe(Code.VerifyEncrypted);
    expect(res.body.msg).toMatch(/encrypted/);
  });

  it('a file cut to its header is unreadable, not a crash', async () => {
    const res = await checkFile(t.agent(), new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<'), 'cut.pdf');
    expect(res.body.code).toBe(Code.VerifyUnreadable);
  });

  it('no file, or a JSON body, is refused clearly', async () => {
    const none = await checkFile(t.agent(), new Uint8Array(0), 'x.pdf', { userType: '0', other: 'x' });
    expect(none.body.code).toBe(Code.VerifyEmpty);
    const json = await t.agent().call(checkPdf, { userType: 0 });
    expect(json.body.code).toBe(Code.BadRequest);
    expect(json.body.msg).toMatch(/multipart/);
    const noType = await t.agent().call(checkPdf, {});
    expect(noType.body.code).toBe(Code.UserTypeInvalid);
  });

  it('over the size limit (UPLOAD_LIMIT_MB=1): refused before verifying, with the limit in the message', async () => {
    const small = await createTestApp({ UPLOAD_LIMIT_MB: '1' });
    try {
      const big = new Uint8Array(1024 * 1024 + 10);
      big.set(new TextEncoder().encode('%PDF-1.7\n'));
      const res = await checkFile(small.agent(), big, 'big.pdf');
      expect(res.body.code).toBe(Code.VerifyTooLarge);
      expect(res.body.msg).toBe('The file is larger than the 1 MB limit.');
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('files signed by the platform', () => {
  let signed: Uint8Array;

  beforeAll(async () => {
    signed = await signPdf(await makePdf({ pages: 2 }), {
      ...(await platformSigner(t.deps, { name: '张三', idNumber: '110101199003071234' })),
      appearance: { pdf: await contractSealPdf() },
      placement: { pageIndex: 1, rect: [100, 100, 220, 220] },
      fieldName: 'zhangsan',
    });
  }, 60_000);

  it('pass, trusted through the platform root, with the widget on its page', async () => {
    const r = ok(await checkFile(t.agent(), signed, '合同.pdf'));
    expect(r.verdict).toBe('TOTAL_PASSED');
    expect(r.status).toBe('valid');
    expect(r.file.name).toBe('合同.pdf');
    expect(r.file.pages).toHaveLength(2);
    const [s] = r.signatures;
    expect(s).toMatchObject({ field: 'zhangsan', trusted: true, trustSource: 'platform', intact: true });
    expect(s.signer?.name).toBe('张三');
    expect(s.timestamp?.valid).toBe(true);
    expect(s.widgets).toEqual([{ page: 2, rect: [100, 100, 220, 220] }]);
    expect(s.chain[0].subject).toContain('张三');
    expect(s.chain.length).toBeGreaterThanOrEqual(2);
  });

  it('a byte flipped inside the signed range: invalid, the signed bytes changed', async () => {
    const copy = new Uint8Array(signed);
    const at = copy.indexOf(0x0a) + 2; // inside the binary-marker comment: the file still parses
    copy[at] ^= 0x01;
    const r = ok(await checkFile(t.agent(), copy));
    expect(r.verdict).toBe('TOTAL_FAILED');
    expect(r.status).toBe('invalid');
    expect(r.signatures[0].reasons).toContain('HASH_MISMATCH');
  });

  it('a byte flipped in a file signed twice: the report claims nothing that needs the signed bytes intact', async () => {
    const twice = await signPdf(signed, {
      ...(await platformSigner(t.deps, { name: '李四', idNumber: '110101199003072345' })),
      appearance: { pdf: await contractSealPdf() },
      placement: { pageIndex: 0, rect: [100, 100, 220, 220] },
      fieldName: 'lisi',
    });
    const intact = ok(await checkFile(t.agent(), twice));
    // untouched, the first signature is followed by an allowed change (the second signature), both trusted
    expect(intact.signatures[0]).toMatchObject({ modifiedAfterSigning: 'allowed', trusted: true });
    const copy = new Uint8Array(twice);
    copy[copy.indexOf(0x0a) + 2] ^= 0x01; // inside the binary-marker comment, signed by both
    const r = ok(await checkFile(t.agent(), copy));
    expect(r.status).toBe('invalid');
    for (const s of r.signatures) {
      expect(s).toMatchObject({ status: 'invalid', intact: false, trusted: null, trustSource: null });
      // what changed after signing cannot be told when the signed bytes themselves changed
      expect(s.modifiedAfterSigning).toBe('unknown');
      expect(s.reasons).toContain('HASH_MISMATCH');
      for (const claim of [
        'MODIFIED_ALLOWED',
        'MODIFIED_DISALLOWED',
        'UNTRUSTED',
        'NO_CHAIN',
        'REVOCATION_UNKNOWN',
      ])
        expect(s.reasons).not.toContain(claim);
    }
  });

  it("an incremental update replacing a page's content after the signature: modified", async () => {
    const r = ok(await checkFile(t.agent(), replaceFirstPageContent(signed, 'You owe us 1,000,000')));
    expect(r.verdict).toBe('TOTAL_FAILED');
    expect(r.status).toBe('modified');
    expect(r.signatures[0]).toMatchObject({ intact: true, modifiedAfterSigning: 'disallowed' });
  });

  it('a file cut short never passes', async () => {
    for (const cut of [signed.length - 200, Math.floor(signed.length / 2)]) {
      const res = await checkFile(t.agent(), signed.subarray(0, cut));
      if (res.body.code === 0) expect(res.body.data.status).not.toBe('valid');
      else expect(res.body.code).toBe(Code.VerifyUnreadable);
    }
  });

  it('the report is kept an hour: reloaded by id, downloadable as JSON and PDF, then gone', async () => {
    const r = ok(await checkFile(t.agent(), signed, 'contract.pdf'));
    const again = await t
      .agent()
      .call<{ result: VerifyResult }>(getVerifyReport, { userType: 0, reportId: r.reportId });
    expect(again.body.data.result.signatures[0].status).toBe('valid');
    const json = await t.app.inject({
      method: 'GET',
      url: `/v1/account/api/csign/downloadVerifyReport/${r.reportId}.json`,
    });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-disposition']).toMatch(/attachment/);
    expect(json.json()).toMatchObject({ verdict: 'TOTAL_PASSED', reportId: r.reportId });
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/account/api/csign/downloadVerifyReport/${r.reportId}.pdf`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (hasTool('pdftotext')) {
      const file = join(dir, 'report.pdf');
      writeFileSync(file, pdf.rawPayload);
      const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout;
      expect(text).toContain('签名有效 Signature is valid');
      expect(text).toContain('张三');
    }
    t.clock.advance(61 * 60_000);
    const gone = await t.agent().call(getVerifyReport, { userType: 0, reportId: r.reportId });
    expect(gone.body).toMatchObject({ code: 0, data: null });
    const gonePdf = await t.app.inject({
      method: 'GET',
      url: `/v1/account/api/csign/downloadVerifyReport/${r.reportId}.pdf`,
    });
    expect(gonePdf.json().code).toBe(Code.NotFound);
  });
});
