// Bulk sending (issue 28) on the embedded database: a 1,000-row sheet for a one-person template uploaded and
// checked (checkBulkSend through HTTP: xlsx parse, every row checked, the batch stored), then sent by the job's
// own loop (sendBatch: per row a template draft with its filled PDF, then the launch with footer, quota,
// notices). `npm run bench -- bulk`; BENCH_BULK_ROWS for a quicker look (the goals are stated for 1,000).
import '../scripts/require-node24.ts';
import { loadavg } from 'node:os';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import * as XLSX from 'xlsx';
import { type BulkCheck, checkBulkSend, startBulkSend } from '#contract/calls/bulk.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import { type Template, saveTemplate } from '#contract/calls/template.ts';
import { callPath } from '#contract/envelope.ts';
import { KEY_SUFFIX_HEADER, TOKEN_COOKIE, XSRF_HEADER, keySuffixOf } from '#contract/transport.ts';
import { batchCounts, sendBatch } from '#server/modules/bulk/index.ts';
import type { Figure } from './foundation.ts';
import { inProcessApp } from './in-process.ts';
import { person } from './signers.ts';

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595.28, 841.89]).drawText('Employment contract', { x: 72, y: 760, size: 20, font });
  return doc.save({ useObjectStreams: false });
}

export async function run(): Promise<Figure[]> {
  const { app, deps, kit, close } = await inProcessApp('esign-bench-bulk-');
  try {
    const launcher = (await person(kit, '13600000000')).b;
    const up = await launcher.call<{ documentId: string }>(
      uploadDocument,
      { userType: 0 },
      await onePagePdf(),
    );
    const role = {
      key: 'staff',
      name: '员工',
      kind: 'person',
      stepIndex: 0,
      applies: { legalPersonSeal: false, personSignature: true, date: false, crossPageSeal: false },
    };
    const t = await launcher.call<Template>(saveTemplate, {
      userType: 0,
      documentId: up.documentId,
      name: 'Bench bulk',
      roles: [role],
      fields: [
        {
          key: 'salary',
          label: '月薪',
          type: 'number',
          isRequired: true,
          page: 1,
          rect: [72, 600, 300, 620],
        },
        {
          key: 'start',
          label: '入职日期',
          type: 'date',
          isRequired: true,
          page: 1,
          rect: [72, 570, 300, 590],
        },
      ],
      positions: [{ roleKey: 'staff', page: 1, rect: [330, 100, 450, 160] }],
    });
    const rows = [
      ['员工·姓名', '员工·手机号', '月薪', '入职日期'],
      ...Array.from({ length: ROWS }, (_, i) => [
        `员工${i}`,
        `137${String(i + 1).padStart(8, '0')}`,
        8000 + i,
        '2026-12-01',
      ]),
    ];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
    const sheet = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;

    // The upload, as the screen sends it.
    const token = launcher.cookies.get(TOKEN_COOKIE) ?? '';
    const b = '----benchbulk';
    const payload = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="userType"\r\n\r\n0\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="templateId"\r\n\r\n${t.templateId}\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="staff.xlsx"\r\n\r\n`),
      sheet,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    const checkStarted = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: callPath(checkBulkSend),
      headers: {
        'content-type': `multipart/form-data; boundary=${b}`,
        [XSRF_HEADER]: token,
        [KEY_SUFFIX_HEADER]: keySuffixOf(token),
      },
      cookies: Object.fromEntries(launcher.cookies),
      payload,
    });
    const checkMs = performance.now() - checkStarted;
    const check = (JSON.parse(res.body) as { code: number; msg: string; data: BulkCheck }).data;
    if (!check || check.good !== ROWS) throw new Error(`check: ${res.body.slice(0, 300)}`);

    await launcher.call(startBulkSend, { userType: 0, bulkId: check.bulkId });
    const sendStarted = performance.now();
    while (await sendBatch(deps, check.bulkId, 10 * 60_000)) {
      // rows held by a lease: none in this bench
    }
    const sendMs = performance.now() - sendStarted;
    const done = await batchCounts(deps, check.bulkId);
    if (done?.sent !== ROWS) throw new Error(`sent ${done?.sent} of ${ROWS} (failed ${done?.failed})`);
    return [
      { name: 'load average (1 min) while measuring', value: loadavg()[0], unit: '' },
      {
        name: `${ROWS} rows uploaded and checked (checkBulkSend, xlsx ${sheet.length} bytes)`,
        value: checkMs,
        unit: 'ms',
        budget: 5000,
      },
      {
        name: `${ROWS} rows sent, one flow each (draft, filled PDF, launch)`,
        value: sendMs,
        unit: 'ms',
        budget: 120_000,
      },
      { name: 'rows sent per second', value: ROWS / (sendMs / 1000), unit: '/s', lowerIsBetter: false },
    ];
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('bulk', await run());
}
