import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FlowDetail } from '#contract/calls/flow.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../fixtures/msw.ts';
import { renderApp } from '../fixtures/render-app.tsx';
import { freshClientEachTest } from '../fixtures/state.ts';
import { flowSummary } from '../fixtures/data.ts';

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const applies = { legalPersonSeal: false, personSignature: true, date: false, crossPageSeal: false };
const party = (id: string, name: string, status: 'signed' | 'pending') => ({
  partyId: id,
  stepIndex: 0,
  kind: 'person' as const,
  linkType: 1,
  name,
  phoneMasked: '138****5678',
  companyId: null,
  companyName: null,
  applies,
  positions: [],
  status,
  signedAt: status === 'signed' ? '2026-11-21T08:00:00.000Z' : null,
  declinedAt: null,
  declineReason: null,
  signedByName: null,
  lastRemindedAt: null,
});
const detail = {
  ...flowSummary({ flowId: FLOW, signedCount: 1 }),
  message: null,
  endReason: null,
  endedAt: null,
  documents: [{ documentId: 'd1', name: 'lease.pdf' }],
  steps: [{ index: 0, parties: [party('p1', 'Wang Fang', 'signed'), party('p2', 'Li Lei', 'pending')] }],
  fields: [],
  mine: { isInitiator: false, myPendingPartyIds: [], canCancel: false, canRemind: false },
} as unknown as FlowDetail;

freshClientEachTest({ locale: 'en-US' });

describe('app chrome on workspace screens outside /manage (issue 11 edge 2)', () => {
  it('/signList has the header, the footer and a way back to the workspace', async () => {
    setToken('t1');
    loginInfoHandler(loginInfo());
    server.use(
      http.post(`${CSIGN}/listPendingSignatures`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
    );
    const { router } = renderApp('/signList');
    expect(await screen.findByRole('banner', {}, { timeout: 30_000 })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(await screen.findByText('No document is waiting for your signature.')).toBeTruthy();
    await userEvent.click(screen.getByTestId('way-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/startup'));
  }, 60_000);

  it('/foundCompany has the header and a way back to the previous screen', async () => {
    setToken('t1');
    loginInfoHandler(loginInfo());
    server.use(http.post(`${CSIGN}/getCompanyApply`, () => ok(null)));
    const { router } = renderApp('/pc/guide');
    await router.navigate('/foundCompany');
    expect(await screen.findByRole('banner', {}, { timeout: 30_000 })).toBeTruthy();
    expect(await screen.findByLabelText('Company name')).toBeTruthy();
    await userEvent.click(screen.getByTestId('way-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pc/guide'));
  }, 60_000);
});

describe('signing result page (issue 11 edge 2)', () => {
  it('shows the result on a card: each party on its own row with a coloured status, touch-sized links', async () => {
    setToken('t1');
    loginInfoHandler(loginInfo());
    server.use(http.post(`${CSIGN}/getFlowDetail`, () => ok(detail)));
    renderApp(`/sign_confirm?flowId=${FLOW}&partyId=p2&result=signed`);
    const card = await screen.findByTestId('sign-result-card', {}, { timeout: 5000 });
    const rows = await within(card).findAllByTestId('result-party');
    expect(rows).toHaveLength(2);
    const signedTag = within(rows[0] as HTMLElement).getByText('Signed');
    expect(signedTag.className).toMatch(/ant-tag-green|ant-tag-color-green/);
    expect(within(rows[1] as HTMLElement).getByText('To sign').className).toMatch(/blue/);
    const back = within(card).getByRole('link', { name: 'Back to the signing room' });
    expect(back.className).toContain('result-link');
    expect(within(card).getByText('Waiting for the other parties (1 of 2 signed).')).toBeTruthy();
  }, 60_000);
});
