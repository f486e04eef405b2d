// "Hand over to someone else" in the signing room (issue 29): shown only where the launcher allows it; a company
// party picks another administrator or handler of its company, with a reason; the room's token goes with it; the
// dialog then says the room is closed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { SigningRoom } from '#contract/calls/flow.ts';
import { HandOverButton } from '@/features/signing-room/hand-over.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, ok, server } from '../../fixtures/msw.ts';
import { renderRoutes } from '../../fixtures/render-screen.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const PARTY = '00000000-0000-4000-8000-0000000000a1';
const HANDLER = '00000000-0000-4000-8000-0000000000b2';
const room = {
  flow: { flowId: FLOW, status: 'signing' },
  party: { partyId: PARTY, kind: 'company', status: 'pending', companyName: '杭州云签科技有限公司' },
} as unknown as SigningRoom;

freshClientEachTest();

describe('hand over from the signing room', () => {
  it('a company party hands over to a handler of its company (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const asked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listReassignments`, () =>
        ok({ items: [], parties: [{ partyId: PARTY, allowReassign: true }] }),
      ),
      http.post(`${CSIGN}/listReassignCandidates`, () =>
        ok({
          candidates: [{ userId: HANDLER, name: '孙经办', phoneMasked: '139****0002', role: 'handler' }],
        }),
      ),
      http.post(`${CSIGN}/reassignParty`, async ({ request }) => {
        asked.push(await request.json());
        return ok({ reassignmentId: 'r1', partyStatus: 'pending' });
      }),
    );
    const onClosed = vi.fn();
    renderRoutes(
      '/',
      <Route
        path="/"
        element={<HandOverButton room={room} roomToken="room-token-123456" onClosed={onClosed} />}
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: '转交他人' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/杭州云签科技有限公司的其他管理员或合同经办人/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转交' }));
    expect(within(dialog).getByText('请选择新经办人')).toBeTruthy();
    expect(within(dialog).getByText('请填写转交原因（至少 2 个字）')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByRole('option', { name: /孙经办/ })).toBeTruthy());
    await userEvent.selectOptions(within(dialog).getByLabelText('新经办人'), HANDLER);
    await userEvent.type(within(dialog).getByLabelText('转交原因（必填）'), '出差');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转交' }));
    expect(await within(dialog).findByText('已转交给孙经办 139****0002，本签署页面已关闭。')).toBeTruthy();
    expect(asked).toEqual([
      expect.objectContaining({
        flowId: FLOW,
        partyId: PARTY,
        roomToken: 'room-token-123456',
        to: { userId: HANDLER },
        reason: '出差',
      }),
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: '知道了' }));
    expect(onClosed).toHaveBeenCalled();
  });

  it('is not offered where the launcher forbade it', async () => {
    useI18nStore.getState().setLocale('en-US');
    let asked = false;
    server.use(
      http.post(`${CSIGN}/listReassignments`, () => {
        asked = true;
        return ok({ items: [], parties: [{ partyId: PARTY, allowReassign: false }] });
      }),
    );
    renderRoutes(
      '/',
      <Route
        path="/"
        element={<HandOverButton room={room} roomToken="room-token-123456" onClosed={() => {}} />}
      />,
    );
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('button', { name: 'Hand over to someone else' })).toBeNull();
  });
});
