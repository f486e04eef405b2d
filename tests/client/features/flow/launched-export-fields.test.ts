// The launched list's export carries what the signers filled (issue 28): a "Fields / 填写内容" column of
// "label: value" pairs; the pending list's export has no such column.
import { describe, expect, test } from 'vitest';
import type { LaunchedItem } from '@/api/flow.ts';
import { sheetColumns } from '@/features/flow/list-model.ts';
import { texts } from '@/features/flow/texts.ts';

const item: LaunchedItem = {
  flowId: 'f1',
  title: '合同',
  status: 'completed',
  isQuick: false,
  initiatorName: '王',
  initiatorCompanyName: null,
  createdAt: '2026-11-30T02:00:00.000Z',
  deadline: '2026-12-30T02:00:00.000Z',
  completedAt: null,
  currentStep: 1,
  partyCount: 1,
  signedCount: 1,
  documentNames: ['a.pdf'],
  awaitingApproval: false,
  fieldValues: [
    { label: '姓名', value: '张三' },
    { label: '同意', value: '✓' },
  ],
};

describe('the launched list export', () => {
  for (const locale of ['en-US', 'zh-CN'] as const) {
    const tt = (k: string) => (texts[locale] as Record<string, string>)[k] ?? k;
    test(`${locale}: a Fields column with the filled values`, () => {
      const cols = sheetColumns(tt, locale, 'launched');
      const last = cols[cols.length - 1];
      expect(last.title).toBe(locale === 'zh-CN' ? '填写内容' : 'Fields');
      expect(last.value(item)).toBe('姓名: 张三; 同意: ✓');
      const pending = sheetColumns(tt, 'en-US', 'pending');
      expect(pending.map((c) => c.title)).not.toContain(last.title);
    });
  }
});
