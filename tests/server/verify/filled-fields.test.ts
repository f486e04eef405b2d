// Issue 28: the fields each signature filled reach the verification page (each card's `filledFields`:
// label = value) and the downloadable report, in both languages; a report kept before the field existed
// still loads, with none.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getVerifyReport, type VerifyResult } from '#contract/calls/verify.ts';
import { rawOf } from '#server/db/database.ts';
import { addFormFields } from '#server/pdf/sign/form-fields.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { appForFile } from '../helper.ts';
import { contractSealPdf, hasTool, makePdf } from '../fixtures/pdf-signing.ts';
import { checkFile, platformSigner } from '../fixtures/verify.ts';

const t = appForFile();
let checked: VerifyResult;

beforeAll(async () => {
  const a = await platformSigner(t.deps, { name: '张三', idNumber: '110101199003071234' });
  const b = await platformSigner(t.deps, { name: '李四', idNumber: '110101199003071234' });
  const seal = await contractSealPdf();
  const withFields = addFormFields(await makePdf({ pages: 1 }), [
    { name: 'f-name', kind: 'text', pageIndex: 0, rect: [72, 100, 300, 124], label: '乙方姓名' },
    { name: 'f-read', kind: 'checkbox', pageIndex: 0, rect: [320, 104, 336, 120], label: 'I have read it' },
    { name: 'f-plan', kind: 'select', pageIndex: 0, rect: [72, 60, 240, 84], options: ['A', 'B'] },
  ]);
  const signedA = await signPdf(withFields, {
    signer: a.signer,
    timestamp: a.timestamp,
    appearance: { pdf: seal },
    placement: { pageIndex: 0, rect: [360, 40, 440, 120] },
    fill: [
      { name: 'f-name', value: '张三丰' },
      { name: 'f-read', value: true },
    ],
  });
  const signedB = await signPdf(signedA, {
    signer: b.signer,
    timestamp: b.timestamp,
    appearance: { pdf: seal },
    placement: { pageIndex: 0, rect: [460, 40, 540, 120] },
  });
  const res = await checkFile(t.agent(), signedB, 'filled.pdf');
  expect(res.body.code, res.body.msg).toBe(0);
  checked = res.body.data;
}, 120_000);

const reportPdfText = async (reportId: string): Promise<string | null> => {
  const pdf = await t.app.inject({
    method: 'GET',
    url: `/v1/account/api/csign/downloadVerifyReport/${reportId}.pdf`,
  });
  expect(pdf.statusCode).toBe(200);
  if (!hasTool('pdftotext')) return null;
  const file = join(mkdtempSync(join(tmpdir(), 'verify-filled-')), 'report.pdf');
  writeFileSync(file, pdf.rawPayload);
  return spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(/\n/g, '');
};

describe('a document whose first signer filled two fields', () => {
  it('is valid, and only the first card lists them with their labels', () => {
    expect(checked.status).toBe('valid');
    expect(checked.signatures.map((s) => s.filledFields)).toEqual([
      [
        { name: 'f-name', label: '乙方姓名', value: '张三丰', checkbox: false },
        { name: 'f-read', label: 'I have read it', value: 'Yes', checkbox: true },
      ],
      [],
    ]);
  });

  it('the kept report has them, and its PDF lists them in both languages', async () => {
    const again = await t
      .agent()
      .call<{ result: VerifyResult }>(getVerifyReport, { userType: 0, reportId: checked.reportId });
    expect(again.body.data.result.signatures[0].filledFields).toEqual(checked.signatures[0].filledFields);
    const text = await reportPdfText(checked.reportId);
    if (text !== null) {
      expect(text).toContain('本签名填写的字段 Fields filled with this signature');
      expect(text).toContain('乙方姓名 = 张三丰');
      expect(text).toContain('I have read it = 已勾选 ticked');
    }
  });
});

describe('a report kept before filled fields existed', () => {
  it('loads with none, and its PDF still downloads', async () => {
    const id = randomUUID();
    const old = {
      ...checked,
      reportId: id,
      signatures: checked.signatures.map(({ filledFields: _, ...card }) => card),
    };
    const now = t.clock.now();
    await rawOf(t.deps.db).withConnection((_exec, query) =>
      query(
        `INSERT INTO verify_reports (id, source, result, created_at, expires_at)
         VALUES ($1, 'upload', $2::jsonb, $3, $4)`,
        [id, JSON.stringify(old), now.toISOString(), new Date(now.getTime() + 60_000).toISOString()],
      ),
    );
    const kept = await t
      .agent()
      .call<{ result: VerifyResult }>(getVerifyReport, { userType: 0, reportId: id });
    expect(kept.body.code, kept.body.msg).toBe(0);
    expect(kept.body.data.result.signatures.map((s) => s.filledFields)).toEqual([[], []]);
    await reportPdfText(id);
  });
});
