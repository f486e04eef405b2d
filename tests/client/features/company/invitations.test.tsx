// Issue 6: on the operator page the administrator invites (not adds) an operator and follows the
// invitations (waiting, expired, withdrawn) and the audit trail; the invitee accepts on the invitation's screen.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompanyEvent, CompanyInvitation } from '#contract/calls/company.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const COMPANY_ID = '00000000-0000-4000-8000-00000000000c';
const invitation = (over: Partial<CompanyInvitation> = {}): CompanyInvitation => ({
  invitationId: '00000000-0000-4000-8000-0000000000a1',
  companyId: COMPANY_ID,
  companyName: '云签科技有限公司',
  phone: '138****0001',
  role: 'operator',
  status: 'pending',
  isRegistered: true,
  invitedByName: '王管理',
  sentCount: 1,
  expiresAt: '2026-12-06T10:00:00.000Z',
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  ...over,
});
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 10 });

const { successes } = freshClientEachTest({ token: 't1' });

describe('operator page: invitations', () => {
  it('invites by phone, shows the invitation waiting, withdraws a waiting one and sends an expired one again', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(
      loginInfo({ userType: 1, companyId: COMPANY_ID, companyName: '云签科技有限公司', isAdmin: true }),
    );
    const admin = {
      memberId: 'm0',
      userId: 'u0',
      name: '王管理',
      phone: '139****0000',
      role: 'admin' as const,
      status: 'active' as const,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    let invitations: CompanyInvitation[] = [
      invitation({
        invitationId: '00000000-0000-4000-8000-0000000000e1',
        phone: '137****0009',
        status: 'expired',
      }),
    ];
    const events: CompanyEvent[] = [];
    const sent: unknown[] = [];
    const withdrawn: unknown[] = [];
    const resent: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getCompanyMemberList`, () => ok(page([admin]))),
      http.post(`${CSIGN}/getCompanyInvitationList`, () => ok(page(invitations))),
      http.post(`${CSIGN}/getCompanyAuditTrail`, () => ok(page(events))),
      http.post(`${CSIGN}/addCompanyOperator`, async ({ request }) => {
        sent.push(await request.json());
        const made = invitation();
        invitations = [made, ...invitations];
        events.unshift({
          id: '1',
          kind: 'invitation_sent',
          actorName: '王管理',
          phone: made.phone,
          invitationId: made.invitationId,
          subjectName: null,
          detail: null,
          createdAt: '2026-11-29T10:00:00.000Z',
        });
        return ok(made);
      }),
      http.post(`${CSIGN}/withdrawCompanyInvitation`, async ({ request }) => {
        withdrawn.push(await request.json());
        invitations = invitations.map((i) =>
          i.invitationId === invitation().invitationId ? { ...i, status: 'withdrawn' } : i,
        );
        return ok(invitations[0]);
      }),
      http.post(`${CSIGN}/resendCompanyInvitation`, async ({ request }) => {
        resent.push(await request.json());
        invitations = invitations.map((i) =>
          i.status === 'expired' ? { ...i, status: 'pending', sentCount: 2 } : i,
        );
        return ok(invitations[1]);
      }),
    );
    renderApp('/manage/account/operator');
    const user = userEvent.setup();
    const invitationsTable = await screen.findByRole('table', { name: 'Invitations' }, { timeout: 40_000 });
    expect(await within(invitationsTable).findByText('Expired')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Invite operator' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/becomes an operator only after accepting \(within 7 days\)/),
    ).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Phone'), '13800000001');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent).toEqual([{ userType: 1, phone: '13800000001' }]));
    await waitFor(() => expect(successes).toContain('Invitation sent to 138****0001'));
    // The invitee is not listed as a member: the invitation waits for an answer, and the trail has the step.
    const table = await screen.findByRole('table', { name: 'Invitations' });
    expect(await within(table).findByText('Waiting for answer')).toBeTruthy();
    expect(await screen.findByText(/王管理 invited 138\*\*\*\*0001/)).toBeTruthy();

    const waitingRow = within(table).getByText('138****0001').closest('tr')!;
    await user.click(within(waitingRow).getByRole('button', { name: 'Withdraw' }));
    // The confirmation's OK (the invite dialog's may still be closing): the last one opened.
    await user.click((await screen.findAllByRole('button', { name: 'OK' })).at(-1)!);
    await waitFor(() =>
      expect(withdrawn).toEqual([{ userType: 1, invitationId: invitation().invitationId }]),
    );
    expect(await within(table).findByText('Withdrawn')).toBeTruthy();

    const expiredRow = within(table).getByText('137****0009').closest('tr')!;
    await user.click(within(expiredRow).getByRole('button', { name: 'Send again' }));
    await waitFor(() =>
      expect(resent).toEqual([{ userType: 1, invitationId: '00000000-0000-4000-8000-0000000000e1' }]),
    );
    await waitFor(() => expect(within(table).queryByText('Expired')).toBeNull());
  }, 90_000);
});

describe('the invitation screen', () => {
  it('the invitee accepts in Chinese and may then act for the company', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    loginInfoHandler(loginInfo({ userType: 0 }));
    let current = invitation();
    const answers: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getCompanyInvitation`, () => ok(current)),
      http.post(`${CSIGN}/answerCompanyInvitation`, async ({ request }) => {
        answers.push(await request.json());
        current = invitation({ status: 'accepted' });
        return ok(current);
      }),
    );
    renderApp(`/companyInvitation/${invitation().invitationId}`);
    const user = userEvent.setup();
    expect(
      await screen.findByText('云签科技有限公司 邀请您成为企业经办人（经办人）。', {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByText('邀请人：王管理')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /接\s*受/ }));
    await waitFor(() =>
      expect(answers).toEqual([{ userType: 0, invitationId: invitation().invitationId, isAccepted: true }]),
    );
    expect(await screen.findByText('您已成为 云签科技有限公司 的经办人。')).toBeTruthy();
    expect(screen.getByRole('button', { name: '以该企业身份办理' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /拒\s*绝/ })).toBeNull();
  }, 30_000);
});

describe('an invitee without an account', () => {
  it('opening the invitation link goes to log in, and the way to register keeps the invitation as the next step', async () => {
    useI18nStore.getState().setLocale('en-US');
    Cookies.remove('token', { path: '/' });
    const wanted = `/companyInvitation/${invitation().invitationId}`;
    const { router } = renderApp(wanted);
    const user = userEvent.setup();
    await waitFor(() => expect(router.state.location.pathname).toBe('/loginPage'), { timeout: 15_000 });
    await user.click(await screen.findByRole('link', { name: 'Register' }, { timeout: 15_000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/registerPage'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(wanted);
  }, 30_000);
});

describe('my companies on a phone', () => {
  it('lists an invitation waiting for an answer, which opens its screen', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(loginInfo({ userType: 0 }));
    server.use(
      http.post(`${CSIGN}/getMyCompanyList`, () => ok([])),
      http.post(`${CSIGN}/getMyCompanyInvitations`, () =>
        ok([
          invitation(),
          invitation({ invitationId: '00000000-0000-4000-8000-0000000000b2', status: 'declined' }),
        ]),
      ),
      http.post(`${CSIGN}/getCompanyInvitation`, () => ok(invitation())),
    );
    const { router } = renderApp('/mobile/companyList');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'My invitations' }, { timeout: 15_000 });
    expect(
      within(section).getAllByText('云签科技有限公司 invites you to become its operator (Operator).'),
    ).toHaveLength(1);
    await user.click(within(section).getByRole('button', { name: 'Waiting for answer' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/companyInvitation/${invitation().invitationId}`),
    );
    expect(await screen.findByRole('button', { name: 'Accept' })).toBeTruthy();
  }, 30_000);
});
