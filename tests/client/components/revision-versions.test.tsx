import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FlowRevision } from '#contract/calls/revisions.ts';
import { RevisedNotice, RevisionVersions, sideBySide } from '@/components/revisions/revision-versions.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, server } from '../fixtures/msw.ts';

// A flow's versions (issue 29): listed with their downloads, two compared side by side (older left, newer
// right, changed lines marked), a page without text said so; the signing room's "revised" notice.

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const DOC = '00000000-0000-4000-8000-0000000000d1';
const item = (revision: number, note: string | null): FlowRevision => ({
  revision,
  documentId: DOC,
  documentName: 'contract.pdf',
  sha256: 'a'.repeat(64),
  size: 1000,
  pages: 2,
  createdByName: '王发起',
  note,
  createdAt: '2026-11-30T06:00:00.000Z',
  downloadUrl: `${CSIGN}/downloadFlowRevision/${FLOW}/${revision}/${DOC}`,
});

const list = () =>
  http.post(`${CSIGN}/listFlowRevisions`, () =>
    HttpResponse.json({
      code: 0,
      msg: 'ok',
      data: { currentRevision: 2, items: [item(2, 'delivery term added'), item(1, null)] },
    }),
  );

describe('versions of a flow', () => {
  it('pairs removed and added runs next to each other, kept lines on both sides', () => {
    expect(
      sideBySide([
        { op: 'same', text: 'a' },
        { op: 'removed', text: 'b' },
        { op: 'added', text: 'B' },
        { op: 'added', text: 'C' },
      ]),
    ).toEqual([
      { left: { op: 'same', text: 'a' }, right: { op: 'same', text: 'a' } },
      { left: { op: 'removed', text: 'b' }, right: { op: 'added', text: 'B' } },
      { left: null, right: { op: 'added', text: 'C' } },
    ]);
  });

  it('lists the revisions with downloads and compares two side by side', async () => {
    useI18nStore.getState().setLocale('en-US');
    let asked: unknown = null;
    server.use(
      list(),
      http.post(`${CSIGN}/compareFlowRevisions`, async ({ request }) => {
        asked = await request.json();
        return HttpResponse.json({
          code: 0,
          msg: 'ok',
          data: {
            older: item(1, null),
            newer: item(2, 'delivery term added'),
            pages: [
              {
                page: 1,
                olderText: 'text',
                newerText: 'text',
                lines: [
                  { op: 'same', text: 'Clause 1' },
                  { op: 'removed', text: 'Delivery in 30 days' },
                  { op: 'added', text: 'Delivery in 20 days' },
                ],
              },
              { page: 2, olderText: 'none', newerText: 'none', lines: [] },
            ],
          },
        });
      }),
    );
    render(<RevisionVersions flowId={FLOW} />);
    const items = await screen.findAllByTestId('revision-item');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('Revision 2');
    expect(items[0].textContent).toContain('What changed: delivery term added');
    const link = within(items[1]).getByRole('link', { name: 'Download' });
    expect(link.getAttribute('href')).toContain(`/downloadFlowRevision/${FLOW}/1/${DOC}`);
    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const view = await screen.findByTestId('revision-compare');
    expect(asked).toMatchObject({ flowId: FLOW, documentId: DOC, older: 1, newer: 2 });
    expect(within(view).getByTestId('diff-removed').textContent).toBe('Delivery in 30 days');
    expect(within(view).getByTestId('diff-added').textContent).toBe('Delivery in 20 days');
    expect(within(view).getByText(/No text to compare on this page/)).toBeTruthy();
  });

  it('tells a signer in the room that the document was revised', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(list());
    render(<RevisedNotice flowId={FLOW} roomToken="room-token-0123456789abcdef" />);
    expect((await screen.findByTestId('revised-notice')).textContent).toContain('第 2 版');
    await userEvent.click(screen.getByRole('button', { name: '查看版本' }));
    const link = (await screen.findAllByRole('link', { name: '下载' }))[0];
    expect(link.getAttribute('href')).toContain('roomToken=room-token-0123456789abcdef');
  });
});
