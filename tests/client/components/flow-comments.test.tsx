// The comments panel (issue 29) against a mocked server: threads numbered as their pins, labelled launcher /
// party N and with their revision; "this revision" hides earlier ones; a reply and a resolve send the calls
// with the room token; an ended flow shows no form; Chinese texts.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommentThread } from '@/api/comments.ts';
import { CommentsPanel } from '@/components/flow-comments/comments-panel.tsx';
import { useFlowComments } from '@/components/flow-comments/use-flow-comments.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, ok, server } from '../fixtures/msw.ts';

afterEach(() => cleanup());

const DOC = { documentId: '11111111-1111-4111-8111-111111111111', name: 'contract.pdf' };
const at = '2026-11-30T06:00:00.000Z';
const comment = (id: string, body: string, revision: number, party: number | null) => ({
  commentId: id,
  author: party
    ? { role: 'party' as const, partyNumber: party, name: `P${party}` }
    : { role: 'launcher' as const, partyNumber: null, name: 'Laura' },
  body,
  revision,
  createdAt: at,
});
const thread = (id: string, body: string, revision: number, party: number | null): CommentThread => ({
  ...comment(id, body, revision, party),
  threadId: id,
  anchor: party ? { documentId: DOC.documentId, page: 2, x: 10, y: 20 } : null,
  replies: [],
  resolvedAt: null,
  resolvedBy: null,
});

function Panel({ roomToken }: { roomToken?: string }) {
  const c = useFlowComments('f1', roomToken);
  return <CommentsPanel comments={c} docs={[DOC]} />;
}

function serve(threads: CommentThread[], canWrite = true) {
  const sent: { name: string; body: Record<string, unknown> }[] = [];
  server.use(
    http.post(`${CSIGN}/listFlowComments`, () => ok({ revision: 2, canWrite, threads })),
    http.post(`${CSIGN}/addFlowComment`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ name: 'add', body });
      threads[0].replies.push(comment('r1', String(body.body), 2, 2));
      return ok(threads[0]);
    }),
    http.post(`${CSIGN}/setCommentThreadResolved`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ name: 'resolve', body });
      threads[0].resolvedAt = at;
      threads[0].resolvedBy = 'P2';
      return ok(threads[0]);
    }),
  );
  return sent;
}

describe('comments panel', () => {
  it('lists, filters by revision, replies and resolves with the room token', async () => {
    useI18nStore.getState().setLocale('en-US');
    const sent = serve([thread('t1', 'Clause 2 is vague', 1, 1), thread('t2', 'Read page 3', 2, null)]);
    render(<Panel roomToken="room-token-0123456789" />);
    const threads = await screen.findAllByTestId('comment-thread');
    expect(threads).toHaveLength(2);
    expect(threads[0].textContent).toContain('Party 1 · P1');
    expect(threads[0].textContent).toContain('contract.pdf, page 2');
    expect(within(threads[0]).getByTestId('comment-revision').textContent).toBe('Rev. 1');
    expect(threads[1].textContent).toContain('Launcher · Laura');
    expect(threads[1].textContent).toContain('Whole contract');

    await userEvent.click(screen.getByRole('button', { name: 'This revision' }));
    expect(screen.getAllByTestId('comment-thread')).toHaveLength(1);
    expect(screen.getByTestId('comment-thread').textContent).toContain('Read page 3');
    await userEvent.click(screen.getByRole('button', { name: 'All revisions' }));

    const first = screen.getAllByTestId('comment-thread')[0];
    await userEvent.click(within(first).getByRole('button', { name: 'Reply' }));
    await userEvent.type(within(first).getByLabelText('Reply…'), 'Agreed');
    await userEvent.click(within(first).getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(screen.getAllByTestId('comment-reply')).toHaveLength(1));
    await userEvent.click(
      within(screen.getAllByTestId('comment-thread')[0]).getByRole('button', { name: 'Resolve' }),
    );
    await waitFor(() => expect(screen.getByTestId('comment-resolved').textContent).toBe('Resolved by P2'));
    expect(sent).toEqual([
      {
        name: 'add',
        body: expect.objectContaining({
          flowId: 'f1',
          threadId: 't1',
          body: 'Agreed',
          roomToken: 'room-token-0123456789',
        }),
      },
      {
        name: 'resolve',
        body: expect.objectContaining({
          flowId: 'f1',
          threadId: 't1',
          resolved: true,
          roomToken: 'room-token-0123456789',
        }),
      },
    ]);
  });

  it('an ended flow shows the threads without a form (Chinese)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    serve([thread('t1', '第二条不清楚', 1, 1)], false);
    render(<Panel />);
    expect((await screen.findByTestId('comment-thread')).textContent).toContain('签署方 1');
    expect(screen.getByText('合同已结束：评论仍可查看，但不能再发表。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '回复' })).toBeNull();
    expect(screen.queryByLabelText('发表评论')).toBeNull();
  });
});
