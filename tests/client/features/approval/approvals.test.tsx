import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SealPolicy } from '#contract/calls/approval.ts';
import type { Seal } from '#contract/calls/seal.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { approvalDetail } from '../../fixtures/data.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

// pdf.js cannot start its worker under jsdom: the contract stays "loading"; these tests are about the rest.
vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const ID = approvalDetail().approvalId;
const ZHANG = '00000000-0000-4000-8000-0000000000c2';
const LI = '00000000-0000-4000-8000-0000000000c3';

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, companyId: 'c1', userId: ZHANG }) });
beforeEach(() => {
  server.use(
    http.get('/v1/seal/image/:file', () => new HttpResponse(null, { status: 404 })),
    http.get(`${CSIGN}/approvalDocument/:id/:doc`, () => new HttpResponse(null, { status: 404 })),
  );
});

describe('approvals centre', () => {
  it('lists the requests to me and rejects one only with a comment, after confirming (en-US, PC)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let current = approvalDetail({ canDecide: true });
    const decided: unknown[] = [];
    const listed: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listApprovals`, async ({ request }) => {
        listed.push(await request.json());
        return ok({ list: [current], total: 1, pageNum: 1, pageSize: 10 });
      }),
      http.post(`${CSIGN}/getApproval`, () => ok(current)),
      http.post(`${CSIGN}/decideApproval`, async ({ request }) => {
        decided.push(await request.json());
        current = approvalDetail({
          status: 'rejected',
          approvers: [{ userId: ZHANG, name: 'Zhang San', state: 'rejected' }],
          decisions: [
            {
              userId: ZHANG,
              name: 'Zhang San',
              decision: 'reject',
              comment: 'Amount is wrong',
              at: current.createdAt,
            },
          ],
        });
        return ok(current);
      }),
    );
    const { router } = renderApp('/manage/approvals');
    const item = await screen.findByRole('button', { name: 'Lease 2027' }, { timeout: 10_000 });
    expect(within(item).getByText('Pending')).toBeTruthy();
    expect(within(item).getByText('Your decision')).toBeTruthy();
    expect(within(item).getByText(/Requested by Li Lei · Amount ¥120,000.00/)).toBeTruthy();
    expect(listed).toContainEqual({ scope: 'toMe', pageNum: 1, pageSize: 10, userType: 1 });
    await userEvent.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/manage/approvals/${ID}`));
    expect(await screen.findByRole('heading', { name: 'Lease 2027' })).toBeTruthy();
    expect(screen.getByText('Sent by')).toBeTruthy();
    expect(screen.getByText('¥120,000.00')).toBeTruthy();
    expect(screen.getByText('One of the approvers')).toBeTruthy();
    expect(screen.getByRole('img', { name: '合同专用章' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'The contract as it will be sealed' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Say why you reject it')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Comment'), 'Amount is wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Reject this request? The requester reads your comment.')).toBeTruthy();
    expect(decided).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(decided).toEqual([
        { approvalId: ID, decision: 'reject', comment: 'Amount is wrong', userType: 1 },
      ]),
    );
    expect(await screen.findByText('Zhang San rejected')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  }, 30_000);

  it('approves on the phone route (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    let current = approvalDetail({ canDecide: true });
    const decided: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getApproval`, () => ok(current)),
      http.post(`${CSIGN}/decideApproval`, async ({ request }) => {
        decided.push(await request.json());
        current = approvalDetail({
          status: 'approved',
          approvers: [{ userId: ZHANG, name: 'Zhang San', state: 'approved' }],
        });
        return ok(current);
      }),
    );
    renderApp(`/mobile/approvals/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('待审批')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '同意' }));
    const confirm = await screen.findByRole('dialog');
    await userEvent.click(within(confirm).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(decided).toEqual([{ approvalId: ID, decision: 'approve', userType: 1 }]));
    expect(await screen.findByText('已同意', { selector: '[data-testid="approval-status"]' })).toBeTruthy();
  }, 30_000);
});

describe("a company seal's approval rule", () => {
  const SEAL = '00000000-0000-4000-8000-0000000000e1';
  const seal: Seal = {
    id: SEAL,
    sealType: 102,
    name: '合同专用章',
    kind: 'generated',
    status: 'enabled',
    imageUrl: `/v1/seal/image/${SEAL}.svg`,
    pngUrl: `/v1/seal/image/${SEAL}.png`,
    widthMm: 40,
    heightMm: 40,
    antiCounterfeitNo: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    isUsable: true,
    authorisations: [],
  };
  const candidates = [
    { userId: ZHANG, name: 'Zhang San', phoneMasked: '139****0002' },
    { userId: LI, name: 'Li Si', phoneMasked: '139****0003' },
  ];
  const policyOf = (over: Partial<SealPolicy> = {}): SealPolicy => ({
    sealId: SEAL,
    mode: 'none',
    approvers: [],
    minAmount: null,
    templateIds: null,
    allowSelfApproval: false,
    validHours: 72,
    candidates,
    updatedAt: null,
    updatedBy: null,
    ...over,
  });

  it('the administrator requires all approvers in order, after the warning, and the card says who (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let policy = policyOf();
    const saved: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ cert: null, seals: [seal], role: 'admin' })),
      http.post(`${CSIGN}/getSealPolicy`, () => ok(policy)),
      http.post(`${CSIGN}/listTemplates`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 100 })),
      http.post(`${CSIGN}/saveSealPolicy`, async ({ request }) => {
        saved.push(await request.json());
        policy = policyOf({
          mode: 'all_in_order',
          approvers: [LI, ZHANG].map((id) => {
            const c = candidates.find((x) => x.userId === id) ?? candidates[0];
            return { ...c, isApprover: true };
          }),
          minAmount: 10000,
        });
        return ok(policy);
      }),
    );
    renderApp('/manage/account/stamp');
    const card = await screen.findByRole('article', { name: 'Contract seal' }, { timeout: 10_000 });
    expect(await within(card).findByText('Approval: not needed')).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Approval rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approval rule: Contract seal' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'All, in order' }));
    await userEvent.click(within(dialog).getByLabelText('Approvers'));
    await userEvent.click(await screen.findByTitle('Zhang San'));
    await userEvent.click(await screen.findByTitle('Li Si'));
    // Li Si is asked first.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move Li Si up' }));
    await userEvent.type(within(dialog).getByLabelText('Only from amount (¥)'), '10000');
    expect(within(dialog).getByText(/Saving voids the requests pending or approved/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save the rule? Pending requests become void.')).toBeTruthy();
    expect(saved).toEqual([]);
    const confirm = screen.getAllByRole('button', { name: 'Save' }).at(-1);
    if (!confirm) throw new Error('no confirm button');
    await userEvent.click(confirm);
    await waitFor(() =>
      expect(saved).toEqual([
        {
          sealId: SEAL,
          mode: 'all_in_order',
          approverIds: [LI, ZHANG],
          minAmount: 10000,
          templateIds: null,
          allowSelfApproval: false,
          validHours: 72,
          userType: 1,
        },
      ]),
    );
    expect(await within(card).findByText(/Approval: Li Si then Zhang San/)).toBeTruthy();
  }, 30_000);
});

describe('launch approval (发起审批)', () => {
  it('lists a launch request with its kind and shows the parties, not a seal (zh-CN, phone)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const launch = approvalDetail({
      kind: 'launch',
      sealId: null,
      sealName: '',
      sealImageUrl: '',
      partyStep: 0,
      canDecide: true,
      parties: [
        { step: 1, kind: 'company', name: null, companyName: '测试有限公司' },
        { step: 2, kind: 'person', name: '李四', companyName: null },
      ],
    });
    server.use(
      http.post(`${CSIGN}/listApprovals`, () =>
        ok({ list: [launch, approvalDetail({ approvalId: LI, flowTitle: 'Seal use' })], total: 2 }),
      ),
      http.post(`${CSIGN}/getApproval`, () => ok(launch)),
    );
    renderApp('/mobile/approvals');
    const item = await screen.findByRole('button', { name: 'Lease 2027' }, { timeout: 10_000 });
    expect(within(item).getByText('发起')).toBeTruthy();
    expect(within(item).queryByRole('img')).toBeNull();
    const other = screen.getByRole('button', { name: 'Seal use' });
    expect(within(other).getByText('用印')).toBeTruthy();
    await userEvent.click(item);
    expect(await screen.findByRole('heading', { name: '发起审批申请' })).toBeTruthy();
    const parties = screen.getByTestId('approval-parties');
    expect(within(parties).getByText('测试有限公司（第 1 步）')).toBeTruthy();
    expect(within(parties).getByText('李四（第 2 步）')).toBeTruthy();
    expect(screen.queryByText('印章')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '同意' }));
    expect(await screen.findByText('确定同意发起此合同？合同将立即发送给签署方。')).toBeTruthy();
  }, 30_000);

  it('the administrator sets the launch rule from the approvals centre (en-US, PC)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const admin = loginInfo({ userType: 1, companyId: 'c1', userId: ZHANG, isAdmin: true });
    loginInfoHandler(admin);
    useSessionStore.setState({ userInfo: admin });
    const saved: unknown[] = [];
    const rule = {
      mode: 'none' as const,
      approvers: [],
      minAmount: null,
      templateIds: null,
      allowSelfApproval: false,
      validHours: 72,
      candidates: [{ userId: ZHANG, name: 'Zhang San', phoneMasked: '139****0002' }],
      updatedAt: null,
      updatedBy: null,
    };
    server.use(
      http.post(`${CSIGN}/listApprovals`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
      http.post(`${CSIGN}/getLaunchPolicy`, () => ok(rule)),
      http.post(`${CSIGN}/listTemplates`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 100 })),
      http.post(`${CSIGN}/saveLaunchPolicy`, async ({ request }) => {
        saved.push(await request.json());
        return ok(rule);
      }),
    );
    renderApp('/manage/approvals');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Launch approval rule' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Launch approval rule' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'One of the approvers' }));
    await userEvent.click(within(dialog).getByLabelText('Approvers'));
    await userEvent.click(await screen.findByTitle('Zhang San'));
    expect(within(dialog).queryByLabelText('An approval stays usable (hours)')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save the launch approval rule?')).toBeTruthy();
    const confirm = screen.getAllByRole('button', { name: 'Save' }).at(-1);
    if (!confirm) throw new Error('no confirm button');
    await userEvent.click(confirm);
    await waitFor(() =>
      expect(saved).toEqual([
        {
          mode: 'one',
          approverIds: [ZHANG],
          minAmount: null,
          templateIds: null,
          allowSelfApproval: false,
          validHours: 72,
          userType: 1,
        },
      ]),
    );
  }, 30_000);
});
