// Void by agreement (issue 29) on the client: the launched list tags a voided contract; its detail shows the
// banner linking the agreement and no action; a completed contract offers "Void by agreement", which sends only
// with a reason and the confirmation ticked.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { RescissionState } from '@/api/rescission.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { flowDetail, flowSummary } from '../../fixtures/data.ts';

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const RESCISSION = '00000000-0000-4000-8000-0000000000f2';
const VOIDED_AT = '2026-11-25T02:00:00.000Z';

const state = (over: Partial<RescissionState> = {}): RescissionState => ({
  rescinds: null,
  voidedAt: null,
  voidedBy: null,
  open: null,
  history: [],
  canStart: false,
  ...over,
});

function serve(
  summary: ReturnType<typeof flowSummary>,
  rescission: RescissionState,
  started: unknown[] = [],
) {
  const detail = flowDetail(summary, {
    mine: { isInitiator: true, myPendingPartyIds: [], canCancel: false, canRemind: false },
  });

  server.use(
    http.post(`${CSIGN}/listPendingSignatures`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
    http.post(`${CSIGN}/listLaunchedFlows`, () =>
      ok({ list: [{ ...summary, fieldValues: [] }], total: 1, pageNum: 1, pageSize: 10 }),
    ),
    http.post(`${CSIGN}/getFlowDetail`, () => ok(detail)),
    http.post(`${CSIGN}/getAuditTrail`, () => ok({ entries: [], chains: [] })),
    http.post(`${CSIGN}/getRescission`, () => ok(rescission)),
    http.post(`${CSIGN}/startRescission`, async ({ request }) => {
      started.push(await request.json());
      return ok({ flowId: RESCISSION, verificationCodes: [] });
    }),
  );
}

freshClientEachTest();

describe('void by agreement', () => {
  it('tags a voided contract in the launched list and links its agreement from the detail (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    setToken('t1');
    loginInfoHandler(loginInfo());
    serve(
      flowSummary({ flowId: FLOW, status: 'completed', voidedAt: VOIDED_AT, voidedByFlowId: RESCISSION }),
      state({
        voidedAt: VOIDED_AT,
        voidedBy: {
          flowId: RESCISSION,
          title: '解除协议 · Lease 2027',
          status: 'completed',
          createdAt: VOIDED_AT,
          completedAt: VOIDED_AT,
        },
      }),
    );
    renderApp('/signList?tab=launched');
    const row = await screen.findByRole('article', { name: 'Lease 2027' }, { timeout: 5000 });
    expect(within(row).getByTestId('voided-tag').textContent).toMatch(/^Voided by agreement on /);
    await userEvent.click(within(row).getByRole('button', { name: 'Detail' }));
    const banner = await screen.findByTestId('voided-banner');
    expect(banner.textContent).toContain('This contract was voided by agreement on');
    expect(within(banner).getByRole('button', { name: 'Open the rescission agreement' })).toBeTruthy();
    expect(screen.queryByTestId('void-by-agreement')).toBeNull();
  }, 20_000);

  it('sends the rescission only with a reason and the confirmation (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo());
    const started: unknown[] = [];
    serve(flowSummary({ flowId: FLOW, status: 'completed' }), state({ canStart: true }), started);
    renderApp('/signList?tab=launched');
    const row = await screen.findByRole('article', { name: 'Lease 2027' }, { timeout: 5000 });
    expect(within(row).queryByTestId('voided-tag')).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: '详情' }));
    await userEvent.click(await screen.findByTestId('void-by-agreement'));
    await screen.findByText('协议作废本合同');
    const dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    const send = within(dialog).getByRole('button', { name: '发送解除协议' });
    expect(send).toHaveProperty('disabled', true);
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: '我已了解：解除协议需全部签署方签署' }),
    );
    await userEvent.click(send);
    expect(await within(dialog).findByText('请输入作废原因（至少 2 个字）')).toBeTruthy();
    expect(started).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('作废原因'), '项目取消');
    await userEvent.click(send);
    await waitFor(() => expect(started).toEqual([{ flowId: FLOW, reason: '项目取消', userType: 0 }]));
  }, 30_000);
});
