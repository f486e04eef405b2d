import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FlowDetail } from '#contract/calls/flow.ts';
import { listRequest } from '@/features/flow/list-model.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { flowDetail, flowSummary } from '../../fixtures/data.ts';

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const summary = flowSummary({ flowId: FLOW, signedCount: 1 });
const detail = (over: Partial<FlowDetail> = {}): FlowDetail => flowDetail(summary, over);

freshClientEachTest();

describe('list filters', () => {
  it('sends the day range as [start of the first day, start of the day after the last) in local time', () => {
    const req = listRequest(
      { keyword: '  lease ', status: '', dateFrom: '2026-11-01', dateTo: '2026-11-05' },
      2,
      10,
    );
    expect(req).toEqual({
      pageNum: 2,
      pageSize: 10,
      keyword: 'lease',
      dateFrom: new Date('2026-11-01T00:00:00').toISOString(),
      dateTo: new Date('2026-11-06T00:00:00').toISOString(),
    });
    expect(listRequest({ keyword: ' ', status: 'signed', dateFrom: '', dateTo: '' }, 1, 10)).toEqual({
      pageNum: 1,
      pageSize: 10,
    });
  });
});

describe('signature lists', () => {
  it('asks a visitor to log in', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp('/pcSignList');
    expect(
      await screen.findByText('Log in to see the documents waiting for you.', {}, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('lists launched flows with the pager and cancels one only after confirming with a reason (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    setToken('t1');
    loginInfoHandler(loginInfo());
    const requests: unknown[] = [];
    const cancelled: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listPendingSignatures`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
      http.post(`${CSIGN}/listLaunchedFlows`, async ({ request }) => {
        requests.push(await request.json());
        return ok({ list: [summary], total: 11, pageNum: 1, pageSize: 10 });
      }),
      http.post(`${CSIGN}/getFlowDetail`, () =>
        ok(detail({ remindEveryDays: 2, nextRemindAt: '2026-11-23T00:00:00.000Z' })),
      ),
      http.post(`${CSIGN}/getAuditTrail`, () => ok({ entries: [], chains: [] })),
      http.post(`${CSIGN}/listFlowCc`, () => ok({ list: [] })),
      http.post(`${CSIGN}/cancelFlow`, async ({ request }) => {
        cancelled.push(await request.json());
        return ok(null);
      }),
      // Issue 29: the contract term in the list and the detail.
      http.post(`${CSIGN}/listFlowTerms`, () =>
        ok({ items: [{ flowId: FLOW, endsOn: '2027-12-31', daysLeft: 12, state: 'inForce' }] }),
      ),
      http.post(`${CSIGN}/getFlowTerm`, () =>
        ok({
          term: {
            startsOn: '2027-01-01',
            endsOn: '2027-12-31',
            remindDays: [30, 7, 1],
            remindPeople: [],
            daysLeft: 12,
            state: 'inForce',
            sentDays: [30],
          },
          renews: null,
          renewedBy: [],
          isLauncher: true,
        }),
      ),
    );
    renderApp('/signList?tab=launched');
    const row = await screen.findByRole('article', { name: 'Lease 2027' }, { timeout: 5000 });
    expect(within(row).getByText('1/2 signed')).toBeTruthy();
    expect(await within(row).findByText('Expires in 12 days')).toBeTruthy();
    expect(screen.getByText('11 items in total')).toBeTruthy();
    expect(requests[0]).toEqual({ pageNum: 1, pageSize: 10, userType: 0 });

    await userEvent.click(within(row).getByRole('button', { name: 'Detail' }));
    // The next automatic reminder, with its interval.
    expect(await screen.findByText(/Next reminder .* \(every 2 days\)/)).toBeTruthy();
    const term = await screen.findByRole('region', { name: 'Contract term' });
    expect(within(term).getByText(/2027-01-01 to 2027-12-31/)).toBeTruthy();
    expect(within(term).getByText(/sent: 30/)).toBeTruthy();
    expect(within(term).getByRole('button', { name: 'Edit term' })).toBeTruthy();
    // No field for the signers to fill (issue 28): the section says so.
    expect(
      within(screen.getByRole('region', { name: 'Filled fields' })).getByText(
        'No field for the signers to fill',
      ),
    ).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the flow' }));
    await screen.findByText('Cancel this flow? Every party is told and it cannot be signed any more.');
    const dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the flow' }));
    expect(await within(dialog).findByText('Give a reason')).toBeTruthy();
    expect(cancelled).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'wrong file');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the flow' }));
    await waitFor(() => expect(cancelled).toEqual([{ flowId: FLOW, reason: 'wrong file', userType: 0 }]));
  }, 20_000);

  it('shows the empty state of the pending list and filters by keyword (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo());
    const requests: Record<string, unknown>[] = [];
    server.use(
      http.post(`${CSIGN}/listPendingSignatures`, async ({ request }) => {
        requests.push((await request.json()) as Record<string, unknown>);
        return ok({ list: [], total: 0, pageNum: 1, pageSize: 10 });
      }),
    );
    renderApp('/mobile/signList');
    expect(await screen.findByText('没有等待您签署的文件。', {}, { timeout: 5000 })).toBeTruthy();
    expect(requests[0]).toEqual({ pageNum: 1, pageSize: 10, status: 'pending', userType: 0 });
    await userEvent.type(screen.getByLabelText('标题或文件名'), '租赁');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(requests.at(-1)).toEqual({
        pageNum: 1,
        pageSize: 10,
        keyword: '租赁',
        status: 'pending',
        userType: 0,
      }),
    );
  }, 20_000);

  it("the flow's detail lists the fields the signers filled: party, label, value, the attachment's link, when signed (zh-CN)", async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo());
    const PARTY = '00000000-0000-4000-8000-0000000000a2';
    const field = (n: number, over: Partial<FlowDetail['fields'][number]>): FlowDetail['fields'][number] => ({
      fieldId: `00000000-0000-4000-8000-00000000010${n}`,
      partyId: PARTY,
      documentId: '00000000-0000-4000-8000-0000000000d1',
      key: `f${n}`,
      label: `字段${n}`,
      kind: 'text',
      isRequired: true,
      options: null,
      page: 1,
      rect: [100, 100, 200, 120],
      value: null,
      attachment: null,
      signedAt: null,
      ...over,
    });
    server.use(
      http.post(`${CSIGN}/listPendingSignatures`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
      http.post(`${CSIGN}/listLaunchedFlows`, () =>
        ok({ list: [summary], total: 1, pageNum: 1, pageSize: 10 }),
      ),
      http.post(`${CSIGN}/getAuditTrail`, () => ok({ entries: [], chains: [] })),
      http.post(`${CSIGN}/listFlowCc`, () => ok({ list: [] })),
      http.post(`${CSIGN}/listFlowTerms`, () => ok({ items: [] })),
      http.post(`${CSIGN}/getFlowTerm`, () =>
        ok({ term: null, renews: null, renewedBy: [], isLauncher: true }),
      ),
      http.post(`${CSIGN}/getFlowDetail`, () =>
        ok(
          detail({
            steps: [
              {
                index: 0,
                parties: [
                  {
                    partyId: PARTY,
                    stepIndex: 0,
                    kind: 'person',
                    linkType: 1,
                    name: '李雷',
                    phoneMasked: '139****0001',
                    intent: 'sms',
                    companyId: null,
                    companyName: null,
                    applies: {
                      companySealType: null,
                      legalPersonSeal: false,
                      personSignature: true,
                      date: false,
                      crossPageSeal: false,
                    },
                    positions: [],
                    status: 'signed',
                    signedAt: '2026-11-21T08:00:00.000Z',
                    declinedAt: null,
                    declineReason: null,
                    signedByName: null,
                    lastRemindedAt: null,
                    sentAt: '2026-11-21T00:00:00.000Z',
                    openedAt: null,
                    onboardingAt: null,
                    onboardingProblem: null,
                    progress: 'signed',
                  },
                ],
              },
            ],
            fields: [
              field(1, { label: '住址', value: '上海市长宁路 1 号', signedAt: '2026-11-21T08:00:00.000Z' }),
              field(2, {
                label: '我已阅读',
                kind: 'checkbox',
                value: true,
                signedAt: '2026-11-21T08:00:00.000Z',
              }),
              field(3, {
                label: '身份证复印件',
                kind: 'attachment',
                value: 'id.png',
                attachment: {
                  name: 'id.png',
                  mediaType: 'image/png',
                  size: 2048,
                  sha256: 'ab'.repeat(32),
                  downloadUrl:
                    '/v1/account/api/csign/downloadFieldAttachment/00000000-0000-4000-8000-000000000103',
                },
                signedAt: '2026-11-21T08:00:00.000Z',
              }),
              field(4, { label: '备注', isRequired: false }),
            ],
          }),
        ),
      ),
    );
    renderApp(`/signList?tab=launched&flowId=${FLOW}`);
    const section = await screen.findByRole('region', { name: '填写内容' }, { timeout: 5000 });
    const rows = within(section).getAllByTestId('filled-field');
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((c) => c.textContent))).toEqual([
      ['李雷', '住址', '上海市长宁路 1 号'],
      ['李雷', '我已阅读', '已勾选'],
      ['李雷', '身份证复印件', 'id.png'],
      ['李雷', '备注', '尚未填写'],
    ]);
    expect(within(rows[2]).getByRole('link', { name: 'id.png' }).getAttribute('href')).toContain(
      '/downloadFieldAttachment/00000000-0000-4000-8000-000000000103?',
    );
    expect(rows[0].querySelectorAll('td')[3].textContent).toMatch(/2026/);
    expect(rows[3].querySelectorAll('td')[3].textContent).toBe('');
  }, 20_000);
});
