// The flow detail's hand-over section (issue 29): the history every reader sees; the launcher's Reassign (checked
// before asking: reason, name, phone), Copy link (the link shown once in a dialog) and Change deadline; a party the
// launcher forbade shows "hand-over not allowed".
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { FlowDetail, PartyView } from '#contract/calls/flow.ts';
import { ReassignPanel } from '@/features/flow/reassign-panel.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { PERSON_SIGNS, flowSummary } from '../../fixtures/data.ts';
import { CSIGN, ok, server } from '../../fixtures/msw.ts';
import { renderRoutes } from '../../fixtures/render-screen.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';

const party = (over: Partial<PartyView>): PartyView => ({
  partyId: P1,
  stepIndex: 0,
  kind: 'person',
  linkType: 1,
  name: 'Bob',
  phoneMasked: '139****0001',
  companyId: null,
  companyName: null,
  applies: PERSON_SIGNS,
  intent: 'sms',
  positions: [],
  status: 'pending',
  signedAt: null,
  declinedAt: null,
  declineReason: null,
  signedByName: null,
  lastRemindedAt: null,
  sentAt: null,
  openedAt: null,
  onboardingAt: null,
  onboardingProblem: null,
  progress: 'sent',
  ...over,
});

const flow: FlowDetail = {
  ...flowSummary({ flowId: FLOW, status: 'signing' }),
  message: null,
  endReason: null,
  endedAt: null,
  remindEveryDays: null,
  nextRemindAt: null,
  documents: [],
  steps: [
    { index: 0, parties: [party({}), party({ partyId: P2, name: 'Dan', phoneMasked: '139****0002' })] },
  ],
  fields: [],
  mine: { isInitiator: true, myPendingPartyIds: [], canCancel: true, canRemind: true },
} as FlowDetail;

freshClientEachTest();

describe('the flow detail hand-over section', () => {
  it('shows the history, reassigns after checking the form, copies a link once, forbids where the launcher said so', async () => {
    useI18nStore.getState().setLocale('en-US');
    const asked: Record<string, unknown[]> = {
      reassignParty: [],
      copySigningLink: [],
      changeFlowDeadline: [],
    };
    server.use(
      http.post(`${CSIGN}/listReassignments`, () =>
        ok({
          items: [
            {
              id: 'r1',
              partyId: P1,
              fromName: 'Amy',
              fromPhoneMasked: '138****0009',
              toName: 'Bob',
              toPhoneMasked: '139****0001',
              reason: 'on leave',
              byRole: 'party',
              byName: 'Amy',
              at: '2026-11-30T01:00:00.000Z',
            },
          ],
          parties: [
            { partyId: P1, allowReassign: true },
            { partyId: P2, allowReassign: false },
          ],
        }),
      ),
      http.post(`${CSIGN}/reassignParty`, async ({ request }) => {
        asked.reassignParty.push(await request.json());
        return ok({ reassignmentId: 'r2', partyStatus: 'pending' });
      }),
      http.post(`${CSIGN}/copySigningLink`, async ({ request }) => {
        asked.copySigningLink.push(await request.json());
        return ok({ link: '/singingRoom/1/abc', url: 'http://x.test/#/singingRoom/1/abc' });
      }),
    );
    renderRoutes('/', <Route path="/" element={<ReassignPanel flow={flow} onChanged={() => {}} />} />);
    const item = await screen.findByTestId('reassignment');
    expect(item.textContent).toContain('Amy 138****0009 → Bob 139****0001 · by the signer Amy');
    expect(item.textContent).toContain('Reason: on leave');
    const rows = await screen.findAllByTestId('party-actions');
    await waitFor(() => expect(within(rows[1]).getByText('hand-over not allowed')).toBeTruthy());
    expect(within(rows[1]).queryByRole('button', { name: 'Reassign' })).toBeNull();

    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Reassign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reassign Bob' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reassign' }));
    expect(within(dialog).getByText('Give the reason (at least 2 characters)')).toBeTruthy();
    expect(within(dialog).getByText('Enter the new signer name')).toBeTruthy();
    expect(within(dialog).getByText('Enter an 11-digit mobile number')).toBeTruthy();
    expect(asked.reassignParty).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('New signer name'), 'Carol');
    await userEvent.type(within(dialog).getByLabelText('New signer mobile number'), '13900000003');
    await userEvent.type(within(dialog).getByLabelText('Reason (required)'), 'wrong person');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reassign' }));
    await waitFor(() => expect(asked.reassignParty).toHaveLength(1));
    expect(asked.reassignParty[0]).toMatchObject({
      flowId: FLOW,
      partyId: P1,
      to: { name: 'Carol', phone: '13900000003' },
      reason: 'wrong person',
    });

    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Copy link' }));
    const linkDialog = await screen.findByRole('dialog', { name: 'Signing link of Bob' });
    expect(within(linkDialog).getByText(/shown only once/)).toBeTruthy();
    expect((within(linkDialog).getByLabelText('Signing link') as HTMLTextAreaElement).value).toBe(
      'http://x.test/#/singingRoom/1/abc',
    );
    expect(asked.copySigningLink).toEqual([expect.objectContaining({ flowId: FLOW, partyId: P1 })]);
  });

  it('a reader who is not the launcher sees the history only', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(http.post(`${CSIGN}/listReassignments`, () => ok({ items: [], parties: [] })));
    const reader = { ...flow, mine: { ...flow.mine, isInitiator: false } };
    renderRoutes('/', <Route path="/" element={<ReassignPanel flow={reader} onChanged={() => {}} />} />);
    expect(await screen.findByText('暂无转交记录。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '修改截止时间' })).toBeNull();
    expect(screen.queryByTestId('party-actions')).toBeNull();
  });
});
