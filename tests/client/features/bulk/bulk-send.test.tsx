import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { BulkCheck, BulkRow, BulkSummary } from '#contract/calls/bulk.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const T = '00000000-0000-4000-8000-0000000000d1';
const BULK = '00000000-0000-4000-8000-0000000000d2';

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, companyId: 'c1' }) });

const summary = (over: Partial<BulkSummary> = {}): BulkSummary => ({
  bulkId: BULK,
  templateId: T,
  templateName: 'Offer',
  fileName: 'staff.xlsx',
  status: 'checked',
  total: 6,
  good: 4,
  sent: 0,
  failed: 0,
  createdAt: '2026-11-29T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...over,
});
const row = (n: number, status: BulkRow['status'], flowId: string | null = null): BulkRow => ({
  row: n,
  status,
  title: `Offer - Wang ${n}`,
  parties: [`Wang ${n} 1390000000${n}`],
  flowId,
  message: status === 'skipped' ? 'Party B · phone: not an 11-digit mainland mobile number' : null,
});

describe('bulk send page', () => {
  it('uploads a sheet, shows the problems by row and column, sends the good rows after confirming, shows the end', async () => {
    useI18nStore.getState().setLocale('en-US');
    let state = summary();
    const started: unknown[] = [];
    const check: BulkCheck = {
      bulkId: BULK,
      rows: 6,
      good: 4,
      quotaRemaining: 20,
      problems: [
        { row: 4, column: 'Party B · phone', message: 'not an 11-digit mainland mobile number' },
        { row: 6, column: null, message: 'the same as row 2' },
      ],
    };
    server.use(
      http.post(`${CSIGN}/getTemplate`, () => ok({ templateId: T, name: 'Offer' })),
      http.post(`${CSIGN}/checkBulkSend`, () => ok(check)),
      http.post(`${CSIGN}/startBulkSend`, async ({ request }) => {
        started.push(await request.json());
        state = summary({ status: 'done', sent: 4, startedAt: state.createdAt, finishedAt: state.createdAt });
        return ok(state);
      }),
      http.post(`${CSIGN}/getBulkSend`, () =>
        ok({
          ...state,
          rows: {
            list: [1, 2, 3, 4, 5, 6].map((n) =>
              state.status === 'done'
                ? row(n, n === 4 || n === 6 ? 'skipped' : 'sent', n === 4 || n === 6 ? null : `f${n}`)
                : row(n, n === 4 || n === 6 ? 'skipped' : 'pending'),
            ),
            total: 6,
            pageNum: 1,
            pageSize: 20,
          },
        }),
      ),
      http.get(`${CSIGN}/downloadBulkSheet/:id`, () => new HttpResponse(null, { status: 404 })),
    );
    const { router } = renderApp(`/manage/bulkSend?templateId=${T}`);
    expect(
      await screen.findByRole('heading', { name: 'Bulk send: Offer' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Download the spreadsheet (.xlsx)' }).getAttribute('href'),
    ).toContain(`/downloadBulkSheet/${T}?lang=en`);
    const file = new File(['x'], 'staff.xlsx');
    await userEvent.upload(screen.getByLabelText('Upload and check'), file);
    expect(await screen.findByText('6 rows read, 4 are good.')).toBeTruthy();
    expect(screen.getByText('Your quota allows 20 more signings.')).toBeTruthy();
    const problems = screen.getByRole('region', { name: 'Problems' });
    const bad = within(problems).getByText('not an 11-digit mainland mobile number').closest('tr')!;
    expect(within(bad).getByText('4')).toBeTruthy();
    expect(within(bad).getByText('Party B · phone')).toBeTruthy();
    expect(within(problems).getByText('(whole row)')).toBeTruthy();
    // the batch is in the address: a reload shows it again
    await waitFor(() => expect(router.state.location.search).toContain(`bulkId=${BULK}`));

    await userEvent.click(await screen.findByRole('button', { name: 'Send the 4 good rows' }));
    expect(started).toEqual([]);
    await userEvent.click(await screen.findByRole('button', { name: /^Send$/ }));
    await waitFor(() => expect(started).toEqual([{ bulkId: BULK, onlyGood: true, userType: 1 }]));
    expect(await screen.findByRole('heading', { name: 'Finished' })).toBeTruthy();
    expect(screen.getByText('4 sent · 0 failed · 6 rows')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Open' })).toHaveLength(4);
  });
});
