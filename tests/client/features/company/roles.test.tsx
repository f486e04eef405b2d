// Issue 27: on the operator page each member's roles and the legal representative show as tags; the
// administrator edits a member's roles (with the seals a keeper keeps), is asked again before taking the handler
// role from a member with open work, hands a member's work over, and reads the trail's entries in words.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompanyEvent, HandoverCounts, Member } from '#contract/calls/company.ts';
import type { Seal } from '#contract/calls/seal.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const COMPANY_ID = '00000000-0000-4000-8000-00000000000c';
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 10 });
const member = (over: Partial<Member>): Member => ({
  memberId: 'm0',
  userId: 'u0',
  name: '王管理',
  phone: '139****0000',
  role: 'operator',
  status: 'active',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  roles: [],
  isLegalRep: false,
  ...over,
});
const admin = member({ role: 'admin', roles: ['admin'], isLegalRep: true });
const handler = member({
  memberId: 'm1',
  userId: 'u1',
  name: '赵经办',
  phone: '138****0001',
  roles: ['handler'],
});
const other = member({
  memberId: 'm2',
  userId: 'u2',
  name: '孙接收',
  phone: '137****0002',
  roles: ['handler'],
});
const seal = (id: string, name: string, keeperUserIds: string[] = []): Seal => ({
  id,
  sealType: 102,
  name,
  kind: 'generated',
  status: 'enabled',
  imageUrl: `/v1/seal/image/${id}.svg`,
  pngUrl: `/v1/seal/image/${id}.png`,
  widthMm: 40,
  heightMm: 40,
  antiCounterfeitNo: null,
  createdAt: '2026-11-01T08:00:00.000Z',
  isUsable: true,
  authorisations: [],
  canManage: true,
  keeperUserIds,
});
const counts = (over: Partial<HandoverCounts> = {}): HandoverCounts => ({
  flows: 0,
  parties: 0,
  templates: 0,
  sealAuthorisations: 0,
  sealKeepings: 0,
  other: {},
  ...over,
});

const { successes } = freshClientEachTest({ token: 't1' });

function serve(opts: { work: HandoverCounts; events?: CompanyEvent[] }) {
  const calls: Record<string, unknown[]> = { roles: [], keepers: [], handover: [] };
  server.use(
    http.post(`${CSIGN}/getCompanyMemberList`, () => ok(page([admin, handler, other]))),
    http.post(`${CSIGN}/getCompanyStaffList`, () => ok([admin, handler, other])),
    http.post(`${CSIGN}/getCompanyInvitationList`, () => ok(page([]))),
    http.post(`${CSIGN}/getCompanyAuditTrail`, () => ok(page(opts.events ?? []))),
    http.post(`${CSIGN}/getUserCertSealList`, () =>
      ok({ cert: null, seals: [seal('s1', '合同专用章'), seal('s2', '财务专用章')], role: 'admin' }),
    ),
    http.post(`${CSIGN}/previewHandover`, () => ok(opts.work)),
    http.post(`${CSIGN}/setCompanyMemberRoles`, async ({ request }) => {
      calls.roles.push(await request.json());
      return ok({ userId: 'u1', roles: [] });
    }),
    http.post(`${CSIGN}/setSealKeepers`, async ({ request }) => {
      calls.keepers.push(await request.json());
      return ok(seal('s1', '合同专用章', ['u1']));
    }),
    http.post(`${CSIGN}/handOverMember`, async ({ request }) => {
      calls.handover.push(await request.json());
      return ok(opts.work);
    }),
  );
  return calls;
}

async function openPage(locale: 'en-US' | 'zh-CN') {
  useI18nStore.getState().setLocale(locale);
  loginInfoHandler(loginInfo({ userType: 1, companyId: COMPANY_ID, isAdmin: true, roles: ['admin'] }));
  renderApp('/manage/account/operator');
  return screen.findByText('赵经办', {}, { timeout: 40_000 });
}

describe('operator page: roles', () => {
  it('shows the roles and the legal representative as tags (English)', async () => {
    serve({ work: counts() });
    await openPage('en-US');
    const adminRow = screen.getByText('王管理').closest('tr')!;
    expect(within(adminRow).getByText('Administrator')).toBeTruthy();
    expect(within(adminRow).getByText('Legal representative')).toBeTruthy();
    const row = screen.getByText('赵经办').closest('tr')!;
    expect(within(row).getByText('Contract handler')).toBeTruthy();
  });

  it('makes a member seal keeper of a chosen seal (Chinese)', async () => {
    const calls = serve({ work: counts() });
    await openPage('zh-CN');
    const user = userEvent.setup();
    const row = screen.getByText('赵经办').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: '设置角色' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: '印章保管人' }));
    await user.click(await within(dialog).findByLabelText('保管的印章'));
    await user.click(await screen.findByTitle('合同专用章'));
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(calls.roles).toEqual([{ userType: 1, userId: 'u1', roles: ['handler', 'seal_keeper'] }]),
    );
    await waitFor(() => expect(calls.keepers).toEqual([{ userType: 1, sealId: 's1', userIds: ['u1'] }]));
    await waitFor(() => expect(successes).toContain('角色已保存'));
  });

  it('asks again before taking the handler role from a member with open work', async () => {
    const calls = serve({ work: counts({ flows: 2, parties: 1 }) });
    await openPage('en-US');
    const user = userEvent.setup();
    const row = screen.getByText('赵经办').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Roles' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Contract handler' }));
    await user.click(within(dialog).getByRole('button', { name: /Save/ }));
    expect(
      await within(dialog).findByText(/has open work \(2 open contracts launched, 1 signature waiting\)/),
    ).toBeTruthy();
    expect(calls.roles).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(calls.roles).toEqual([{ userType: 1, userId: 'u1', roles: [] }]));
  });

  it('hands a member’s work over to a handler, saying what moves', async () => {
    const calls = serve({ work: counts({ flows: 1, templates: 2 }) });
    await openPage('en-US');
    const user = userEvent.setup();
    const row = screen.getByText('赵经办').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Hand over work' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('What moves: 1 open contract launched, 2 templates')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Receiver (a contract handler)'));
    await user.click(await screen.findByTitle('孙接收 (137****0002)'));
    await user.click(within(dialog).getByRole('button', { name: 'Hand over' }));
    await waitFor(() => expect(calls.handover).toEqual([{ userType: 1, fromUserId: 'u1', toUserId: 'u2' }]));
  });

  it('reads role, keeper and hand-over entries of the audit trail in words', async () => {
    const at = '2026-11-29T10:00:00.000Z';
    const base = {
      actorName: '王管理',
      subjectName: '赵经办',
      phone: null,
      invitationId: null,
      createdAt: at,
    };
    serve({
      work: counts(),
      events: [
        { ...base, id: 'e1', kind: 'role_granted', detail: { role: 'seal_keeper' } },
        { ...base, id: 'e2', kind: 'seal_keeper_granted', detail: { sealId: 's1', sealName: '合同专用章' } },
        {
          ...base,
          id: 'e3',
          kind: 'handover',
          detail: { toUserId: 'u2', toName: '孙接收', ...counts({ flows: 2 }) },
        },
      ],
    });
    await openPage('en-US');
    expect(await screen.findByText(/王管理 gave 赵经办 the role Seal keeper/)).toBeTruthy();
    expect(screen.getByText(/王管理 made 赵经办 keeper of the seal 合同专用章/)).toBeTruthy();
    expect(
      screen.getByText(/王管理 handed the work of 赵经办 over: to 孙接收 · 2 open contracts launched/),
    ).toBeTruthy();
  });
});
