// Batch signing's screen (issue 28): choose (select all), review with the seal chosen once, one SMS code, a
// confirmation, then the progress polled from the address's batch id, and each result with its reason.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { BatchSignable, SignBatch } from '#contract/calls/batch.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, companyId: 'c1' }) });

const BATCH = '00000000-0000-4000-8000-0000000000b1';
const row = (n: number): BatchSignable => ({
  flowId: `00000000-0000-4000-8000-00000000000${n}`,
  partyId: `00000000-0000-4000-8000-00000000010${n}`,
  title: `Lease ${n}`,
  initiatorName: 'Li Lei',
  initiatorCompanyName: null,
  templateId: null,
  templateName: null,
  createdAt: '2026-11-01T08:00:00.000Z',
  deadline: '2026-12-01T08:00:00.000Z',
  documentNames: ['lease.pdf'],
  partyKind: 'company',
  companyName: 'ACME',
  intent: 'sms',
  applies: {
    companySealType: 102,
    legalPersonSeal: false,
    personSignature: false,
    date: false,
    crossPageSeal: false,
  },
});
const seal = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: '合同专用章',
  sealType: 102,
  isUsable: true,
};

describe('batch signing screen', () => {
  it('signs the selection with one code and shows each result with its reason (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const prepared: unknown[] = [];
    const started: unknown[] = [];
    const batch = (status: SignBatch['status']): SignBatch => ({
      batchId: BATCH,
      status,
      intent: 'sms',
      total: 2,
      signed: status === 'done' ? 1 : 0,
      failed: status === 'done' ? 1 : 0,
      createdAt: '2026-11-02T08:00:00.000Z',
      finishedAt: null,
      items: [
        {
          flowId: row(1).flowId,
          partyId: row(1).partyId,
          title: 'Lease 1',
          status: status === 'done' ? 'signed' : 'pending',
          error: null,
        },
        {
          flowId: row(2).flowId,
          partyId: row(2).partyId,
          title: 'Lease 2',
          status: status === 'done' ? 'failed' : 'pending',
          error:
            status === 'done' ? { code: 1330, msg: 'this seal needs an approval before it is used' } : null,
        },
      ],
    });
    server.use(
      http.post(`${CSIGN}/listBatchSignable`, () =>
        ok({ list: [row(1), row(2)], total: 2, pageNum: 1, pageSize: 500 }),
      ),
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ cert: null, seals: [seal], role: 'operator' })),
      http.post(`${CSIGN}/prepareSignBatch`, async ({ request }) => {
        prepared.push(await request.json());
        return ok({ batchId: BATCH, total: 2, intent: 'sms', code: null });
      }),
      http.post(`${CSIGN}/sendSignBatchCode`, () =>
        ok({ phoneMasked: '138****0000', expiresInSeconds: 300, resendAfterSeconds: 60 }),
      ),
      http.post(`${CSIGN}/startSignBatch`, async ({ request }) => {
        started.push(await request.json());
        return ok(batch('running'));
      }),
      http.post(`${CSIGN}/getSignBatch`, () => ok(batch('done'))),
    );
    const { router } = renderApp('/batchSign');
    await screen.findByRole('article', { name: 'Lease 1' }, { timeout: 30_000 });
    await userEvent.click(screen.getByRole('checkbox', { name: /^Select all \(2 flows/ }));
    expect(screen.getByText('2 flows selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('2 flows will be signed, each at its own positions.')).toBeTruthy();
    await userEvent.click(await screen.findByRole('combobox', { name: 'Company seal' }));
    await userEvent.click(await screen.findByTitle('合同专用章'));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(prepared).toHaveLength(1));
    expect(prepared[0]).toMatchObject({
      partyIds: [row(1).partyId, row(2).partyId],
      sealChoice: { companySealId: seal.id },
      sendCode: false,
    });
    expect(await screen.findByText('One check confirms the whole batch: SMS code.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByText('Code sent to 138****0000')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('SMS code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign 2 flows' }));
    const pop = await screen.findByRole('tooltip');
    await userEvent.click(within(pop).getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(started).toEqual([{ userType: 1, batchId: BATCH, smsCode: '123456' }]));
    await waitFor(() => expect(router.state.location.search).toBe(`?batch=${BATCH}`));
    expect(await screen.findByText('Finished: 1 signed, 1 not signed.')).toBeTruthy();
    const failed = screen.getByRole('article', { name: 'Lease 2' });
    expect(within(failed).getByText('Not signed')).toBeTruthy();
    expect(within(failed).getByText('this seal needs an approval before it is used')).toBeTruthy();
  });

  it('says when nothing waits, in Chinese', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(
      http.post(`${CSIGN}/listBatchSignable`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 500 })),
    );
    renderApp('/mobile/batchSign');
    expect(await screen.findByText('暂无待您签署的文件。', {}, { timeout: 30_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '下一步' })).toHaveProperty('disabled', true);
  });

  it('filters by a template of the flows listed, and back to all', async () => {
    useI18nStore.getState().setLocale('en-US');
    const LEASE_T = '00000000-0000-4000-8000-0000000000c1';
    const HIRE_T = '00000000-0000-4000-8000-0000000000c2';
    const lease = { ...row(1), templateId: LEASE_T, templateName: 'Flat lease' };
    const hire = { ...row(2), title: 'Offer 2', templateId: HIRE_T, templateName: 'Offer letter' };
    const asked: (string | undefined)[] = [];
    server.use(
      http.post(`${CSIGN}/listBatchSignable`, async ({ request }) => {
        const body = (await request.json()) as { templateId?: string };
        asked.push(body.templateId);
        const list = [lease, hire, row(3)].filter(
          (r) => !body.templateId || r.templateId === body.templateId,
        );
        return ok({ list, total: list.length, pageNum: 1, pageSize: 500 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/batchSign');
    expect(await screen.findByText('Offer 2', {}, { timeout: 30_000 })).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByTitle('Flat lease'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByText('Offer 2')).toBeNull());
    expect(screen.getByText('Lease 1')).toBeTruthy();
    expect(asked.at(-1)).toBe(LEASE_T);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Offer 2')).toBeTruthy();
    expect(asked.at(-1)).toBeUndefined();
  });

  it('confirms a batch by a face check: off to the provider, back to sign them all (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const assigned: string[] = [];
    vi.spyOn(browser, 'assign').mockImplementation((url) => void assigned.push(url));
    const faceRow = (n: number) => ({ ...row(n), intent: 'face' as const });
    const bodies: Record<string, unknown[]> = { face: [], start: [] };
    const batch = (status: SignBatch['status']): SignBatch => ({
      batchId: BATCH,
      status,
      intent: 'face',
      total: 2,
      signed: 0,
      failed: 0,
      createdAt: '2026-11-02T08:00:00.000Z',
      finishedAt: null,
      items: [1, 2].map((n) => ({
        flowId: row(n).flowId,
        partyId: row(n).partyId,
        title: row(n).title,
        status: 'pending' as const,
        error: null,
      })),
    });
    let started = false;
    server.use(
      http.post(`${CSIGN}/listBatchSignable`, () =>
        ok({ list: [faceRow(1), faceRow(2)], total: 2, pageNum: 1, pageSize: 500 }),
      ),
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ seals: [seal] })),
      http.post(`${CSIGN}/prepareSignBatch`, () =>
        ok({ batchId: BATCH, total: 2, intent: 'face', code: null }),
      ),
      http.post(`${CSIGN}/startSignBatchFace`, async ({ request }) => {
        bodies.face.push(await request.json());
        return ok({ url: 'https://idp.example/face/abc', expiresInSeconds: 300 });
      }),
      http.post(`${CSIGN}/getSignBatch`, () => ok(batch(started ? 'running' : 'prepared'))),
      http.post(`${CSIGN}/startSignBatch`, async ({ request }) => {
        bodies.start.push(await request.json());
        started = true;
        return ok(batch('running'));
      }),
    );
    const user = userEvent.setup();
    const view = renderApp('/batchSign');
    await user.click(await screen.findByRole('checkbox', { name: /全选/ }, { timeout: 30_000 }));
    await user.click(screen.getByRole('button', { name: '下一步' }));
    await user.click(await screen.findByRole('combobox', { name: '企业印章' }));
    await user.click(await screen.findByTitle('合同专用章'));
    await user.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByText(/本批次通过人脸识别确认意愿/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '开始人脸识别' }));
    await waitFor(() => expect(assigned).toEqual(['https://idp.example/face/abc']));
    expect(bodies.face[0]).toMatchObject({ batchId: BATCH, signUrl: `/batchSign?faceBatch=${BATCH}` });
    view.unmount();

    // Back from the provider: the prepared batch is signed with the check passed.
    renderApp(`/batchSign?faceBatch=${BATCH}`);
    expect(await screen.findByText(/人脸识别确认 2 份文件/, {}, { timeout: 30_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /签署 2 份/ }));
    await user.click(await screen.findByRole('button', { name: '签署' }));
    await waitFor(() => expect(bodies.start).toHaveLength(1));
    expect(bodies.start[0]).toMatchObject({ batchId: BATCH });
    expect(await screen.findByText(/正在后台签署/)).toBeTruthy();
  });
});
