import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentInfo } from '#contract/calls/document.ts';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { emptyDraft, type LaunchDraft, newParty, useLaunchDraft } from '@/features/document/launch-draft.ts';
import { PositionEditor } from '@/features/document/position-editor.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { documentInfo } from '../../fixtures/data.ts';

const DOC_ID = '00000000-0000-4000-8000-0000000000d1';
const doc: DocumentInfo = documentInfo({
  documentId: DOC_ID,
  name: 'contract.pdf',
  size: 2048,
  downloadUrl: `/v1/account/api/csign/downloadDocument/${DOC_ID}`,
});

function draftWith(names: string[]): LaunchDraft {
  const base = emptyDraft('regular');
  const parties = names.map((name, i) => ({ ...newParty('person'), name, phone: `1390000000${i}` }));
  return { ...base, title: 'Lease', documents: [doc], steps: [{ key: 's1', parties }] };
}

/** A drag whose dataTransfer records what the chip sets (jsdom has no DataTransfer). */
function dataTransfer() {
  const data: Record<string, string> = {};
  return {
    types: [] as string[],
    effectAllowed: 'none',
    dropEffect: 'none',
    setData(type: string, value: string) {
      data[type] = value;
      this.types.push(type);
    },
    getData: (type: string) => data[type] ?? '',
  };
}

freshClientEachTest();
beforeEach(() => {
  // the viewer asks for the PDF; these tests are about the chips, not the pages
  server.use(
    http.get(`/v1/account/api/csign/downloadDocument/${DOC_ID}`, () => new Response('', { status: 404 })),
  );
});

describe('placement feedback (issue 11 edge 6)', () => {
  it.each([
    ['en-US', 'Drop Li Lei onto a page of the document: the box was not placed.'],
    ['zh-CN', '请把“Li Lei”拖放到文件页面上：签署位置未放置。'],
  ] as const)('a signer dropped outside every page is told so, by name (%s)', async (locale, note) => {
    useI18nStore.getState().setLocale(locale);
    let placements: LaunchDraft['placements'] = {};
    render(
      <AntdProvider>
        <PositionEditor draft={draftWith(['Wang Fang', 'Li Lei'])} onChange={(p) => (placements = p)} />
      </AntdProvider>,
    );
    const chip = screen.getByRole('button', { name: /Li Lei/ });
    const dt = dataTransfer();
    fireEvent.dragStart(chip, { dataTransfer: dt });
    fireEvent.dragEnd(chip, { dataTransfer: dt });
    expect((await screen.findByTestId('drop-note')).textContent).toContain(note);
    expect(placements).toEqual({});
  });

  it('the positions step names the signer still without a box', async () => {
    useI18nStore.getState().setLocale('en-US');
    setToken('t1');
    loginInfoHandler(loginInfo({ hasCaCert: true, hasSeal: true }));
    server.use(http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })));
    useLaunchDraft.getState().begin('regular');
    const draft = draftWith(['Wang Fang', 'Li Lei']);
    const [first] = draft.steps[0]!.parties;
    useLaunchDraft.getState().update(() => ({
      ...draft,
      placements: { [first!.key]: { [DOC_ID]: { page: 1, rect: [100, 100, 200, 150] } } },
    }));
    renderApp('/manage/home/fileUpload');
    const next = await screen.findByRole('button', { name: 'Next' }, { timeout: 10_000 });
    await userEvent.click(next);
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByText(/Drag a signer onto the page/);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Place Li Lei on at least one document')).toBeTruthy();
    expect(screen.queryByText(/Place this signer/)).toBeNull();
    expect(screen.queryByText(/Place Wang Fang/)).toBeNull();
  }, 30_000);
});
