// Bulk sending through HTTP (issue 28): the sheet made for a template, the check of an uploaded sheet (problems
// by row and column in both languages; crafted, oversized and foreign files refused cleanly), sending in the
// background (one flow per good row, each party told), a restart in the middle of a batch (every row once),
// and two batches racing for the last units of a quota (never overspent).
import { sql } from 'drizzle-orm';
import * as XLSX from 'xlsx';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  BULK_RESULTS_PATH,
  BULK_SHEET_PATH,
  type BulkSummary,
  listBulkSends,
  startBulkSend,
} from '#contract/calls/bulk.ts';
import { type FlowDetail, getFlowDetail } from '#contract/calls/flow.ts';
import { createWebhookEndpoint } from '#contract/calls/webhook.ts';
import type { Template } from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { queryRows } from '#server/db/database.ts';
import { afterRowLaunch, sendBatch } from '#server/modules/bulk/index.ts';
import { readSheet } from '#server/modules/bulk/testing.ts';
import {
  SHEET_HEADERS,
  bulkState,
  checkSheet,
  csvOf,
  sheetRow,
  twoRoleTemplate,
  xlsxOf,
} from '../fixtures/bulk.ts';
import { type TestCompany, companyWithSeals, getBytes, linkFor, ok } from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { appForFile, uniquePhone } from '../helper.ts';

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '10' });
let company: TestCompany;
let template: Template;

beforeAll(async () => {
  company = await companyWithSeals(t);
  template = await twoRoleTemplate(company);
}, 180_000);

const flowsOfTemplate = async (templateId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM flows WHERE template_id = ${templateId}`,
      )
    )[0].n,
  );

describe('the sheet made for a template', () => {
  test('has a column per party and field, headed in the reader’s language, with type hints', async () => {
    const op = company.operator.agent;
    for (const [lang, first, hint] of [
      ['zh', '甲方·企业名称', '必填：企业注册名称'],
      ['en', '甲方 · company', 'required: registered company name'],
    ] as const) {
      const got = await getBytes(op, `${BULK_SHEET_PATH}/${template.templateId}?lang=${lang}`);
      expect(got.status).toBe(200);
      expect(got.type).toContain('spreadsheetml');
      const wb = XLSX.read(got.bytes, { type: 'array' });
      const rows = XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
      expect(rows[0][0]).toBe(first);
      expect(rows[1][0]).toBe(hint);
      expect(rows[0]).toContain('合同金额');
      expect(rows[0]).toContain(lang === 'zh' ? '截止日期' : 'Deadline');
    }
    // another company's template is not found
    const other = await companyWithSeals(t, '钱管理');
    const theirs = await getBytes(other.admin.agent, `${BULK_SHEET_PATH}/${template.templateId}`);
    expect(JSON.parse(Buffer.from(theirs.bytes).toString()).code).toBe(Code.NotFound);
  }, 120_000);
});

describe('checking an uploaded sheet', () => {
  test('names each bad row by row and column, in Chinese and in English', async () => {
    const op = company.operator.agent;
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const rows = [
      SHEET_HEADERS,
      sheetRow(company, '张一', phones[0]),
      sheetRow(company, '张二', Number(phones[1])), // a phone typed as a number keeps its digits
      sheetRow(company, '张三', '1380013'), // row 4: malformed phone
      [...sheetRow(company, '张四', phones[2]).slice(0, 5), '', '2025-03-01', '否'], // row 5: amount missing
      sheetRow(company, '张一', phones[0]), // row 6: duplicate of row 2
      ['不存在的公司', company.operator.phone, ...sheetRow(company, '张五', uniquePhone()).slice(2)], // row 7
    ];
    const zh = ok(await checkSheet(op, template.templateId, xlsxOf(rows)), 'check zh');
    expect(zh.rows).toBe(6);
    expect(zh.good).toBe(2);
    expect(zh.quotaRemaining).toBe(10);
    const byRow = (r: number) => zh.problems.filter((p) => p.row === r);
    expect(byRow(4)).toEqual([{ row: 4, column: '乙方·手机号', message: '不是 11 位中国大陆手机号码' }]);
    expect(byRow(5).map((p) => p.column)).toEqual(['合同金额']);
    expect(byRow(5)[0].message).toContain('合同金额');
    expect(byRow(6)).toEqual([{ row: 6, column: null, message: '与第 2 行重复' }]);
    expect(byRow(7)).toEqual([
      { row: 7, column: '甲方·企业名称', message: '没有名为“不存在的公司”的已认证企业' },
    ]);
    expect(zh.problems.map((p) => p.row).sort()).toEqual([4, 5, 6, 7]);

    const en = ok(
      await checkSheet(op, template.templateId, xlsxOf(rows), 'contracts.xlsx', 'en'),
      'check en',
    );
    expect(en.problems.find((p) => p.row === 4)?.message).toBe('not an 11-digit mainland mobile number');
    expect(en.problems.find((p) => p.row === 6)?.message).toBe('the same as row 2');
    expect(en.problems.find((p) => p.row === 7)?.message).toContain('no verified company is named');

    // English headers and a CSV are read the same way
    const enHeaders = [
      '甲方 · company',
      '甲方 · handler phone',
      '乙方 · name',
      '乙方 · phone',
      ...SHEET_HEADERS.slice(4),
    ];
    const csv = ok(
      await checkSheet(op, template.templateId, csvOf([enHeaders, ...rows.slice(1)]), 'contracts.csv'),
      'csv',
    );
    // problems name the columns as the sheet headed them
    expect(csv.problems.map((p) => [p.row, p.message])).toEqual(zh.problems.map((p) => [p.row, p.message]));
    expect(csv.problems[0].column).toBe('乙方 · phone');
  }, 60_000);

  test('a sheet missing a needed column, a foreign file, an oversized or too long one are refused by name', async () => {
    const op = company.operator.agent;
    const missing = await checkSheet(op, template.templateId, xlsxOf([SHEET_HEADERS.slice(1), ['x']]));
    expect(missing.body.code).toBe(Code.Refused);
    expect(missing.body.msg).toContain('甲方·企业名称');
    const pdf = await checkSheet(
      op,
      template.templateId,
      new TextEncoder().encode('%PDF-1.7\n\u0000\u0001binary'),
      'a.pdf',
    );
    expect(pdf.body.code).toBe(Code.Refused);
    expect(pdf.body.msg).toContain('无法读取');
    const big = new Uint8Array(2 * 1024 * 1024 + 10).fill(0x41);
    const tooBig = await checkSheet(op, template.templateId, big, 'big.csv', 'en');
    expect(tooBig.body.code).not.toBe(0);
    expect(tooBig.body.msg).toContain('2 MB');
    const long = csvOf([
      SHEET_HEADERS,
      ...Array.from({ length: 1001 }, (_, i) => sheetRow(company, '张', `139${String(i).padStart(8, '0')}`)),
    ]);
    const tooLong = await checkSheet(op, template.templateId, long, 'long.csv', 'en');
    expect(tooLong.body.code).toBe(Code.Refused);
    expect(tooLong.body.msg).toContain('1000 data rows');
    const wide = await checkSheet(
      op,
      template.templateId,
      xlsxOf([[...SHEET_HEADERS, ...Array(60).fill('x')]]),
      'w.xlsx',
      'en',
    );
    expect(wide.body.code).toBe(Code.Refused);
    expect(wide.body.msg).toContain('50 columns');
  }, 60_000);

  test('prototype-pollution headers and cells pollute nothing and get a clean answer', async () => {
    const op = company.operator.agent;
    const evil = ['__proto__', 'constructor.prototype', 'constructor', 'prototype', '__proto__.polluted'];
    const line = (phone: string) => [
      ...sheetRow(company, '张六', phone),
      'polluted',
      'polluted',
      'x',
      'x',
      'yes',
    ];
    for (const [bytes, name] of [
      [xlsxOf([[...SHEET_HEADERS, ...evil], line(uniquePhone())]), 'evil.xlsx'],
      [csvOf([[...SHEET_HEADERS, ...evil], line(uniquePhone())]), 'evil.csv'],
      [csvOf([evil, ['polluted', 'polluted', 'x', 'x', 'yes']]), 'evil-only.csv'],
    ] as const) {
      // read here too: the server reads in a thread of its own, whose prototypes this realm cannot see
      const read = readSheet(bytes, name);
      expect(read[0]).toContain('__proto__');
      const r = await checkSheet(op, template.templateId, bytes, name);
      expect({} as Record<string, unknown>).not.toHaveProperty('polluted');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      if (name === 'evil-only.csv') expect(r.body.code).toBe(Code.Refused);
      else expect(ok(r, name)).toMatchObject({ rows: 1, good: 1, problems: [] });
    }
  });
});

describe('sending', () => {
  let summary: BulkSummary;
  const persons = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];

  test('a batch with problems is sent only with onlyGood; each good row becomes one flow whose parties are told', async () => {
    const op = company.operator.agent;
    const rows = [
      SHEET_HEADERS,
      sheetRow(company, '李一', persons[0]),
      sheetRow(company, '李二', persons[1]),
      sheetRow(company, '李三', 'bad'),
      sheetRow(company, '李四', persons[2]),
      sheetRow(company, '李五', persons[3]),
      sheetRow(company, '李一', persons[0]),
    ];
    const check = ok(await checkSheet(op, template.templateId, xlsxOf(rows)), 'check');
    expect([check.rows, check.good]).toEqual([6, 4]);
    const refused = await op.call(startBulkSend, { userType: 1, bulkId: check.bulkId });
    expect(refused.body.code).toBe(Code.Refused);
    summary = ok(
      await op.call<BulkSummary>(startBulkSend, { userType: 1, bulkId: check.bulkId, onlyGood: true }),
      'start',
    );
    expect(summary.status).toBe('sending');
    const before = await flowsOfTemplate(template.templateId);
    await t.runDueJobs();
    const state = await bulkState(op, check.bulkId);
    expect([state.status, state.sent, state.failed]).toEqual(['done', 4, 0]);
    expect(state.rows.list.map((r) => r.status)).toEqual([
      'sent',
      'sent',
      'skipped',
      'sent',
      'sent',
      'skipped',
    ]);
    expect(await flowsOfTemplate(template.templateId)).toBe(before + 4);
    const sent = state.rows.list.filter((r) => r.flowId);
    for (const [i, r] of sent.entries()) {
      const d = ok(await op.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: r.flowId }), 'detail');
      expect(d.status).toBe('signing');
      expect(d.title).toBe(`Bulk sale - ${company.name}`);
      expect(d.steps.flatMap((s) => s.parties)).toHaveLength(2);
      // the company's handler is asked first; the person is told when their step comes
      expect(d.steps[1].parties[0].name).toBe(['李一', '李二', '李四', '李五'][i]);
    }
    expect((await linkFor(t, company.operator.phone)).linkCode).toMatch(/^[\w-]{20,}$/);
    // the results download names every row
    const res = await getBytes(op, `${BULK_RESULTS_PATH}/${check.bulkId}?lang=en`);
    const wb = XLSX.read(res.bytes, { type: 'array' });
    const lines = XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
    expect(lines[0]).toEqual(['Row', 'Status', 'Title', 'Parties', 'Flow', 'Reason']);
    expect(lines.slice(1).map((l) => l[1])).toEqual([
      'sent',
      'sent',
      'not sent (problems)',
      'sent',
      'sent',
      'not sent (problems)',
    ]);
    // started once; listed; another company sees nothing
    expect(
      (await op.call(startBulkSend, { userType: 1, bulkId: check.bulkId, onlyGood: true })).body.code,
    ).toBe(Code.Refused);
    const listed = ok(await op.call<{ list: BulkSummary[] }>(listBulkSends, { userType: 1 }), 'list');
    expect(listed.list.map((b) => b.bulkId)).toContain(check.bulkId);
  }, 180_000);

  test('a server killed right after launching a row resumes the batch: every row is sent once', async () => {
    const op = company.operator.agent;
    const rows = [SHEET_HEADERS, ...[0, 1, 2].map((i) => sheetRow(company, `周${i}`, uniquePhone()))];
    const check = ok(await checkSheet(op, template.templateId, xlsxOf(rows)), 'check');
    const before = await flowsOfTemplate(template.templateId);
    let crashed = 0;
    t.deps.hooks.on(afterRowLaunch, ({ rowNo }) => {
      if (rowNo === 3 && crashed++ === 0) throw new Error('killed after the launch');
    });
    ok(await op.call(startBulkSend, { userType: 1, bulkId: check.bulkId }), 'start');
    await t.runDueJobs();
    let state = await bulkState(op, check.bulkId);
    expect(crashed).toBe(1);
    expect(state.status).toBe('sending');
    // the killed row's flow exists but the row does not know it yet; the minute's sweep went on with row 4
    expect(state.rows.list.map((r) => r.status)).toEqual(['sent', 'sending', 'sent']);
    expect(await flowsOfTemplate(template.templateId)).toBe(before + 3);
    // the row's lease and the job's retry wait pass: the row is found launched, not launched again
    t.clock.advance(3 * 60_000);
    await t.runDueJobs();
    state = await bulkState(op, check.bulkId);
    expect([state.status, state.sent, state.failed]).toEqual(['done', 3, 0]);
    expect(await flowsOfTemplate(template.templateId)).toBe(before + 3);
    expect(new Set(state.rows.list.map((r) => r.flowId)).size).toBe(3);
  }, 180_000);
});

describe('the integrator API', () => {
  test('POST /bulk-sends checks JSON rows, starts only when all are good or with onlyGood; GET follows it', async () => {
    const key = await makeKey(company.admin.agent, ['flows:read', 'flows:write'], 1);
    // an endpoint of the company told when a batch is done (delivery itself is the webhook tests' matter)
    ok(
      await company.admin.agent.call(createWebhookEndpoint, {
        userType: 1,
        url: 'http://127.0.0.1:9/bulk-hook',
        events: ['bulk_send.completed'],
      }),
      'endpoint',
    );
    const row = (name: string, phone: string) =>
      Object.fromEntries(SHEET_HEADERS.map((h, i) => [h, sheetRow(company, name, phone)[i]]));
    const rows = [row('郑一', uniquePhone()), row('郑二', '12345'), row('郑三', uniquePhone())];
    const body = { templateId: template.templateId, rows };
    const first = await open<{ bulkId: string; started: boolean; good: number; problems: unknown[] }>(
      t,
      'POST',
      '/bulk-sends',
      { key: key.secret, body, headers: { 'accept-language': 'en' } },
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      started: false,
      good: 2,
      problems: [{ row: 2, column: '乙方·手机号', message: 'not an 11-digit mainland mobile number' }],
    });
    const second = await open<{ bulkId: string; started: boolean }>(t, 'POST', '/bulk-sends', {
      key: key.secret,
      body: { ...body, onlyGood: true },
    });
    expect(second.body.data.started).toBe(true);
    await t.runDueJobs();
    const got = await open<{
      status: string;
      sent: number;
      rows: { list: { status: string; flowId: string | null }[] };
    }>(t, 'GET', `/bulk-sends/${second.body.data.bulkId}`, { key: key.secret });
    expect(got.body.data.status).toBe('done');
    expect(got.body.data.sent).toBe(2);
    expect(got.body.data.rows.list.map((r) => r.status)).toEqual(['sent', 'skipped', 'sent']);
    const told = await queryRows<{ body: unknown }>(
      t.db,
      sql`SELECT body FROM webhook_messages WHERE type = 'bulk_send.completed'`,
    );
    expect(told).toHaveLength(1);
    expect(String(told[0].body)).toContain(second.body.data.bulkId);
    expect(String(told[0].body)).toMatch(/"sent":\s*2/);
    // another account's batch is not found
    const other = await companyWithSeals(t, '冯管理');
    const theirKey = await makeKey(other.admin.agent, ['flows:read'], 1);
    const theirs = await open(t, 'GET', `/bulk-sends/${second.body.data.bulkId}`, { key: theirKey.secret });
    expect(theirs.body.code).toBe(Code.NotFound);
  }, 180_000);
});

describe('the quota', () => {
  test('two batches sent at once never spend more than the quota; the rest fail with the reason', async () => {
    const other = await companyWithSeals(t, '孙管理');
    const theirs = await twoRoleTemplate(other, 'Quota race');
    const op = other.operator.agent;
    const batch = async () => {
      const rows = [
        SHEET_HEADERS,
        ...Array.from({ length: 6 }, (_, i) => sheetRow(other, `吴${i}`, uniquePhone())),
      ];
      const c = ok(await checkSheet(op, theirs.templateId, xlsxOf(rows), 'q.xlsx', 'en'), 'check');
      ok(await op.call(startBulkSend, { userType: 1, bulkId: c.bulkId }), 'start');
      return c.bulkId;
    };
    const [a, b] = [await batch(), await batch()];
    await Promise.all([sendBatch(t.deps, a), sendBatch(t.deps, b)]);
    const states = [await bulkState(op, a), await bulkState(op, b)];
    expect(states.reduce((n, s) => n + s.sent, 0)).toBe(10);
    expect(states.reduce((n, s) => n + s.failed, 0)).toBe(2);
    expect(await flowsOfTemplate(theirs.templateId)).toBe(10);
    const failed = states.flatMap((s) => s.rows.list.filter((r) => r.status === 'failed'));
    expect(failed.every((r) => /no signings left/.test(r.message ?? ''))).toBe(true);
    expect(states.map((s) => s.status)).toEqual(['done', 'done']);
  }, 240_000);
});
