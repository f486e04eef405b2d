// Issue 26: where a page shows something other than what was signed reaches the page (each card's
// `changedRegions`, from the verifier's visual comparison) and the downloadable report; a report kept
// before the field existed still loads, with no regions.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getVerifyReport, type VerifyResult } from '#contract/calls/verify.ts';
import { rawOf } from '#server/db/database.ts';
import { appForFile } from '../helper.ts';
import { COVERED_FIELD_RECT, coveredFieldPdf } from '../fixtures/pdf-covered-field.ts';
import { hasTool } from '../fixtures/pdf-signing.ts';
import { checkFile, platformSigner } from '../fixtures/verify.ts';

const t = appForFile();
let covered: VerifyResult;

const reportPdfText = async (reportId: string): Promise<string | null> => {
  const pdf = await t.app.inject({
    method: 'GET',
    url: `/v1/account/api/csign/downloadVerifyReport/${reportId}.pdf`,
  });
  expect(pdf.statusCode).toBe(200);
  if (!hasTool('pdftotext')) return null;
  const file = join(mkdtempSync(join(tmpdir(), 'verify-regions-')), 'report.pdf');
  writeFileSync(file, pdf.rawPayload);
  // Long lines wrap anywhere (by characters): read them joined.
  return spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(/\n/g, '');
};

beforeAll(async () => {
  const { signer, timestamp } = await platformSigner(t.deps, {
    name: '张三',
    idNumber: '110101199003071234',
  });
  const bytes = await coveredFieldPdf(signer, timestamp);
  const res = await checkFile(t.agent(), bytes, 'covered.pdf');
  expect(res.body.code, res.body.msg).toBe(0);
  covered = res.body.data;
}, 120_000);

describe('a form field filled after signing over the signed words', () => {
  it('is modified, and the card names page 1 and a region inside the field', () => {
    expect(covered.status).toBe('modified');
    const [card] = covered.signatures;
    expect(card.changedRegions).toHaveLength(1);
    const [region] = card.changedRegions;
    expect(region).toMatchObject({ page: 1, what: 'covered' });
    const [x0, y0, x1, y1] = region.rect;
    const [fx0, fy0, fx1, fy1] = COVERED_FIELD_RECT;
    expect(x0).toBeGreaterThanOrEqual(fx0 - 2);
    expect(y0).toBeGreaterThanOrEqual(fy0 - 2);
    expect(x1).toBeLessThanOrEqual(fx1 + 2);
    expect(y1).toBeLessThanOrEqual(fy1 + 2);
    expect(x1).toBeGreaterThan(x0);
    expect(y1).toBeGreaterThan(y0);
  });

  it('the kept report has the region, and its PDF lists it in both languages', async () => {
    const again = await t
      .agent()
      .call<{ result: VerifyResult }>(getVerifyReport, { userType: 0, reportId: covered.reportId });
    expect(again.body.data.result.signatures[0].changedRegions).toEqual(covered.signatures[0].changedRegions);
    const text = await reportPdfText(covered.reportId);
    if (text !== null) {
      expect(text).toContain('第 1 页：表单域现在遮盖了签署时的文字');
      expect(text).toContain('Page 1: a form field now covers text that was signed (region x ');
    }
  });
});

describe('a report kept before regions existed', () => {
  it('loads with no regions, and its PDF still downloads', async () => {
    const id = randomUUID();
    const old = {
      ...covered,
      reportId: id,
      signatures: covered.signatures.map(({ changedRegions: _, ...card }) => card),
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
    expect(kept.body.data.result.signatures.map((s) => s.changedRegions)).toEqual([[]]);
    expect(kept.body.data.result.status).toBe('modified');
    await reportPdfText(id);
  });
});
