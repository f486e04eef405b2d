// The contract centre page (issue 29) against msw: the search box sends the keyword in the filter; a tag made
// in the page appears in the filter; selecting a row shows the toolbar, tagging sends the selection; a zip of
// many polls its progress until the download link shows.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CentreTag, ContractItem, ContractsZip } from '#contract/calls/centre.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 0 }) });

const F1 = '00000000-0000-4000-8000-0000000000f1';
const F2 = '00000000-0000-4000-8000-0000000000f2';
const item = (flowId: string, title: string, party: string): ContractItem => ({
  flowId,
  title,
  status: 'signing',
  createdAt: '2026-11-29T10:00:00.000Z',
  completedAt: null,
  deadline: '2026-12-29T10:00:00.000Z',
  initiatorUserId: 'u1',
  initiatorName: '陈发起',
  initiatorCompanyName: null,
  templateId: null,
  isSent: true,
  isReceived: false,
  isCopied: false,
  documentNames: ['contract.pdf'],
  parties: [{ kind: 'person', name: party, companyName: null, phone: '139****0001', status: 'pending' }],
  tags: [],
  folder: null,
});

describe('contracts page', () => {
  it('searches, makes a tag, tags the selection, zips with progress', async () => {
    useI18nStore.getState().setLocale('en-US');
    const searches: { filter: Record<string, unknown> }[] = [];
    const tagged: unknown[] = [];
    let tags: CentreTag[] = [];
    let zipPolls = 0;
    const zip = (over: Partial<ContractsZip>): ContractsZip => ({
      zipId: '00000000-0000-4000-8000-0000000000e1',
      status: 'building',
      total: 2,
      done: 0,
      size: null,
      downloadUrl: null,
      createdAt: '2026-11-29T10:00:00.000Z',
      ...over,
    });
    server.use(
      http.post(`${CSIGN}/getCentreLabels`, () =>
        ok({ tags, folders: [], views: [], senders: [], templates: [] }),
      ),
      http.post(`${CSIGN}/searchContracts`, async ({ request }) => {
        const body = (await request.json()) as { filter: Record<string, unknown> };
        searches.push(body);
        const list = body.filter.keyword
          ? [item(F1, 'Alpha lease', 'Qian')]
          : [item(F1, 'Alpha lease', 'Qian'), item(F2, 'Beta supply', 'Sun')];
        return ok({ list, total: list.length, pageNum: 1, pageSize: 20 });
      }),
      http.post(`${CSIGN}/saveCentreTag`, async ({ request }) => {
        const body = (await request.json()) as { name: string; colour: string };
        tags = [{ tagId: '00000000-0000-4000-8000-0000000000a1', name: body.name, colour: body.colour }];
        return ok(tags[0]);
      }),
      http.post(`${CSIGN}/tagContracts`, async ({ request }) => {
        tagged.push(await request.json());
        return ok({ changed: 1 });
      }),
      http.post(`${CSIGN}/startContractsZip`, () => ok(zip({}))),
      http.post(`${CSIGN}/getContractsZip`, () => {
        zipPolls += 1;
        return ok(zip({ status: 'ready', done: 2, downloadUrl: '/x' }));
      }),
      http.get(/.*/, () => HttpResponse.json({})),
    );
    renderApp('/manage/contracts');
    expect(await screen.findByRole('heading', { name: 'Contracts' }, { timeout: 10_000 })).toBeTruthy();
    await screen.findByText('Beta supply');

    await userEvent.type(screen.getByPlaceholderText('Title, party, full phone or value'), 'Qian{Enter}');
    await waitFor(() => expect(screen.queryByText('Beta supply')).toBeNull());
    expect(searches.at(-1)?.filter).toMatchObject({ keyword: 'Qian' });

    await userEvent.click(screen.getByTestId('new-tag'));
    await userEvent.type(await screen.findByTestId('new-tag-name'), 'Urgent');
    await userEvent.click(screen.getByTestId('new-tag-save'));
    await waitFor(() => expect(tags).toHaveLength(1));

    // A table row on a wide screen, a card on a narrow one (jsdom's media queries decide).
    const title = screen.getByText('Alpha lease');
    const row = (title.closest('tr') ?? title.closest('[data-testid="centre-row"]')) as HTMLElement;
    await userEvent.click(within(row).getByRole('checkbox'));
    expect(await screen.findByText('1 contract selected')).toBeTruthy();
    await userEvent.click(within(screen.getByTestId('tag-selected')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Urgent'));
    await waitFor(() =>
      expect(tagged).toEqual([{ userType: 0, flowIds: [F1], tagId: tags[0].tagId, isOn: true }]),
    );

    await userEvent.click(screen.getByTestId('zip-selected'));
    expect(await screen.findByTestId('zip-progress')).toBeTruthy();
    expect(await screen.findByTestId('zip-download', {}, { timeout: 5_000 })).toBeTruthy();
    expect(zipPolls).toBe(1);
  });
});
