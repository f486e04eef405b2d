// Copy recipients (抄送, issue 29) in the client: the launch draft sends them, the form rule names the row, and the
// public /ccView/:ccToken page shows the flow read only with the recipient's download links.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CcView } from '#contract/calls/cc.ts';
import { ccDocumentUrl, ccReportUrl } from '@/api/cc.ts';
import { ccDraftProblem } from '@/components/cc/cc-texts.ts';
import { emptyDraft, newParty, toLaunchRequest } from '@/features/document/launch-draft.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { documentInfo, flowSummary } from '../../fixtures/data.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest();

const D1 = '00000000-0000-4000-8000-000000000001';
const row = (over: Partial<{ name: string; phone: string; notifyProgress: boolean }> = {}) => ({
  key: 'c1',
  name: ' 周抄送 ',
  phone: '13900000009',
  notifyProgress: true,
  ...over,
});

describe('copy recipients at launch', () => {
  it('sends the typed recipients without their keys, trimmed; none: no cc at all', () => {
    const person = { ...newParty('person'), name: '李雷', phone: '13900000001' };
    const draft = {
      ...emptyDraft('quick'),
      title: 'Contract',
      documents: [documentInfo({ documentId: D1 })],
      steps: [{ key: 's1', parties: [person] }],
      placements: {
        [person.key]: { [D1]: { page: 1, rect: [1, 1, 50, 50] as [number, number, number, number] } },
      },
    };
    expect(toLaunchRequest(draft).cc).toBeUndefined();
    expect(toLaunchRequest({ ...draft, cc: [row()] }).cc).toEqual([
      { name: '周抄送', phone: '13900000009', notifyProgress: true },
    ]);
  });

  it('names the first row with a problem', () => {
    expect(ccDraftProblem([row()])).toBeNull();
    expect(ccDraftProblem([row(), { ...row({ name: '' }), key: 'c2' }])).toEqual({
      key: 'nameMissing',
      n: 2,
    });
    expect(ccDraftProblem([row({ phone: '123' })])).toEqual({ key: 'phoneInvalid', n: 1 });
    expect(ccDraftProblem([row(), { ...row(), key: 'c2' }])).toEqual({ key: 'phoneTwice', n: 2 });
  });
});

/** A download URL without its random `ts`. */
const stable = (href: string | null) => (href ?? '').replace(/[?&]ts=[^&]*/, '');

describe('/ccView/:ccToken', () => {
  const view = (over: Partial<CcView> = {}): CcView => ({
    flowId: 'f1',
    title: '采购合同',
    status: 'completed',
    isQuick: true,
    initiatorName: '王芳',
    initiatorCompanyName: null,
    createdAt: '2026-11-20T02:00:00.000Z',
    deadline: '2026-11-27T02:00:00.000Z',
    completedAt: '2026-11-21T02:00:00.000Z',
    currentStep: 0,
    partyCount: 1,
    signedCount: 1,
    documentNames: ['contract.pdf'],
    awaitingApproval: false,
    recipientName: '周抄送',
    parties: [{ step: 1, kind: 'person', name: '李雷', companyName: null, status: 'signed', signedAt: null }],
    documents: [{ documentId: D1, name: 'contract.pdf', pages: 2 }],
    mayDownload: true,
    hasAuditReport: true,
    ...over,
  });

  it('shows the completed flow read only with the signed PDF and the report, by the link token', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const asked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getCcView`, async ({ request }) => {
        asked.push(await request.json());
        return ok(view());
      }),
    );
    renderApp('/ccView/tok123');
    expect(await screen.findByText('采购合同', { exact: false })).toBeTruthy();
    expect(asked[0]).toMatchObject({ ccToken: 'tok123' });
    expect(screen.getByText('周抄送，这份合同抄送给您，您可以在此查看，无需签署。')).toBeTruthy();
    expect(stable(screen.getByRole('link', { name: '下载已签署的 contract.pdf' }).getAttribute('href'))).toBe(
      stable(ccDocumentUrl('tok123', D1)),
    );
    expect(stable(screen.getByRole('link', { name: '下载审计报告' }).getAttribute('href'))).toBe(
      stable(ccReportUrl('tok123')),
    );
    expect(screen.queryByRole('button', { name: /签署/ })).toBeNull();
  });

  it('offers no document of a cancelled flow', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(
      http.post(`${CSIGN}/getCcView`, () =>
        ok(view({ status: 'cancelled', mayDownload: false, hasAuditReport: false })),
      ),
    );
    renderApp('/ccView/tok123');
    expect(
      await screen.findByText('The contract was not completed: its documents are not available.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });
});

describe('the "Copied to me" tab of /signList', () => {
  it('lists the flows copied to the person and opens one through a new read-only link', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo());
    const opened: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listCopiedToMe`, () =>
        ok({
          list: [{ ...flowSummary({ title: '抄送的合同' }), ccId: 'cc-1' }],
          total: 1,
          pageNum: 1,
          pageSize: 10,
        }),
      ),
      http.post(`${CSIGN}/openCopiedFlow`, async ({ request }) => {
        opened.push(await request.json());
        return ok({ link: '/ccView/fresh-token' });
      }),
      http.post(`${CSIGN}/getCcView`, () =>
        ok({
          ...flowSummary({ title: '抄送的合同' }),
          recipientName: '周抄送',
          parties: [],
          documents: [],
          mayDownload: true,
          hasAuditReport: false,
        }),
      ),
    );
    renderApp('/signList?tab=copied');
    const item = await screen.findByRole('article', { name: '抄送的合同' }, { timeout: 5000 });
    await userEvent.click(within(item).getByRole('button', { name: '查看' }));
    expect(await screen.findByText('周抄送，这份合同抄送给您，您可以在此查看，无需签署。')).toBeTruthy();
    expect(opened[0]).toMatchObject({ ccId: 'cc-1' });
  });
});
