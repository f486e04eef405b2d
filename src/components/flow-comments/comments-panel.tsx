// The comment threads of a flow (issue 29): filter "this revision / all", each thread numbered as its marker on
// the page, with author (launcher / party N), revision, place, replies, resolve and reopen; and the form of a new
// comment with "pin to page". No antd: the signing room (PC side panel, phone bottom sheet) and the flow detail
// both use it.
import { type CSSProperties, useEffect, useId, useRef, useState } from 'react';
import type { CommentThread, FlowComment } from '@/api/comments.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { COMMENT_LIMITS } from '#contract/rules/comments.ts';
import { commentTexts } from './texts.ts';
import type { CommentsState } from './use-flow-comments.ts';

const textArea: CSSProperties = {
  width: '100%',
  minWidth: 0,
  boxSizing: 'border-box',
  padding: '6px 10px',
  fontSize: 16,
  fontFamily: 'inherit',
  border: '1px solid #d9d9d9',
  borderRadius: 6,
  resize: 'vertical',
};
const small: CSSProperties = { color: '#888', fontSize: 12 };

type Doc = { documentId: string; name: string };
type Tt = (key: keyof (typeof commentTexts)['en-US'], params?: Record<string, string | number>) => string;

function authorOf(tt: Tt, c: FlowComment) {
  const role =
    c.author.role === 'launcher' ? tt('launcher') : tt('party', { n: c.author.partyNumber ?? '?' });
  return `${role} · ${c.author.name}`;
}

function Comment({ c, current, tt }: { c: FlowComment; current: number; tt: Tt }) {
  const locale = useI18nStore((s) => s.locale);
  return (
    <div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '2px 8px', alignItems: 'baseline' }}>
        <strong style={{ fontSize: 13, overflowWrap: 'anywhere' }}>{authorOf(tt, c)}</strong>
        <span
          data-testid="comment-revision"
          style={{ ...small, color: c.revision === current ? '#888' : '#d46b08' }}
          title={c.revision === current ? undefined : tt('earlierRevision', { n: c.revision })}
        >
          {tt('revision', { n: c.revision })}
        </span>
        <span style={small}>{formatTime(c.createdAt, locale)}</span>
      </div>
      <div
        data-testid="comment-body"
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 14, margin: '2px 0' }}
      >
        {c.body}
      </div>
    </div>
  );
}

function Thread({
  t,
  n,
  c,
  docs,
  tt,
}: {
  t: CommentThread;
  n: number;
  c: CommentsState;
  docs: Doc[];
  tt: Tt;
}) {
  const [isReplying, setIsReplying] = useState(false);
  const [reply, setReply] = useState('');
  const ref = useRef<HTMLElement>(null);
  const isFocused = c.focused === t.threadId;
  useEffect(() => {
    if (isFocused) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [isFocused]);
  const name = docs.find((d) => d.documentId === t.anchor?.documentId)?.name ?? '';
  const where = !t.anchor
    ? tt('wholeFlow')
    : t.anchor.page === null
      ? tt('wholeDocument', { name })
      : tt('onPage', { name, page: t.anchor.page });
  const send = async () => {
    if (reply.trim() && (await c.reply(t.threadId, reply.trim()))) {
      setReply('');
      setIsReplying(false);
    }
  };
  return (
    <article
      ref={ref}
      data-testid="comment-thread"
      data-resolved={t.resolvedAt ? 'true' : 'false'}
      aria-label={tt('marker', { n })}
      style={{
        border: `1px solid ${isFocused ? '#1677ff' : '#f0f0f0'}`,
        borderRadius: 8,
        padding: 8,
        background: t.resolvedAt ? '#fafafa' : '#fff',
        opacity: t.resolvedAt ? 0.85 : 1,
      }}
    >
      <div style={{ ...small, display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 2 }}>
        <span
          style={{
            background: t.anchor?.x != null ? '#ec1c23' : '#999',
            color: '#fff',
            borderRadius: 9,
            padding: '0 6px',
            fontWeight: 600,
          }}
        >
          {n}
        </span>
        <span data-testid="comment-place" style={{ overflowWrap: 'anywhere' }}>
          {where}
        </span>
      </div>
      <Comment c={t} current={c.revision} tt={tt} />
      {t.replies.length > 0 ? (
        <div
          style={{ borderLeft: '3px solid #f0f0f0', paddingLeft: 8, marginTop: 4, display: 'grid', gap: 6 }}
        >
          {t.replies.map((r) => (
            <div key={r.commentId} data-testid="comment-reply">
              <Comment c={r} current={c.revision} tt={tt} />
            </div>
          ))}
        </div>
      ) : null}
      {t.resolvedAt ? (
        <div data-testid="comment-resolved" style={{ ...small, color: '#389e0d', marginTop: 4 }}>
          {tt('resolved', { who: t.resolvedBy ?? '' })}
        </div>
      ) : null}
      {c.canWrite ? (
        <div style={{ display: 'flex', gap: 4, flexWrap: 'wrap', marginTop: 4 }}>
          <PlainButton size="small" kind="link" onClick={() => setIsReplying((v) => !v)}>
            {tt('reply')}
          </PlainButton>
          <PlainButton
            size="small"
            kind="link"
            isBusy={c.isBusy}
            onClick={() => void c.setResolved(t.threadId, !t.resolvedAt)}
          >
            {t.resolvedAt ? tt('reopen') : tt('resolve')}
          </PlainButton>
        </div>
      ) : null}
      {isReplying && c.canWrite ? (
        <div style={{ display: 'grid', gap: 4, marginTop: 4 }}>
          <textarea
            aria-label={tt('replyPlaceholder')}
            placeholder={tt('replyPlaceholder')}
            rows={2}
            maxLength={COMMENT_LIMITS.body}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            style={textArea}
          />
          <PlainButton
            size="small"
            kind="primary"
            isBusy={c.isBusy}
            disabled={!reply.trim()}
            onClick={() => void send()}
          >
            {tt('sendReply')}
          </PlainButton>
        </div>
      ) : null}
    </article>
  );
}

/** The threads and the new-comment form. `docs` name the places; `onPin` is offered when a page is shown. */
export function CommentsPanel({
  comments: c,
  docs,
  canPin = true,
  style,
}: {
  comments: CommentsState;
  docs: Doc[];
  canPin?: boolean;
  style?: CSSProperties;
}) {
  const tt = useTexts(commentTexts);
  const [isAll, setIsAll] = useState(true);
  const [body, setBody] = useState('');
  const formId = useId();
  const numbered = c.threads.map((t, i) => ({ t, n: i + 1 }));
  const shown = isAll ? numbered : numbered.filter(({ t }) => t.revision === c.revision);
  const pinnedName = docs.find((d) => d.documentId === c.anchor?.documentId)?.name ?? '';
  const send = async () => {
    if (body.trim() && (await c.add(body.trim()))) setBody('');
  };
  return (
    <section
      className="flow-comments"
      aria-label={tt('title')}
      data-testid="comments-panel"
      style={{ display: 'grid', gap: 8, minWidth: 0, ...style }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <h3 style={{ fontSize: 15, margin: 0, marginRight: 'auto' }}>{tt('title')}</h3>
        <fieldset style={{ border: 0, padding: 0, margin: 0, display: 'flex', gap: 4 }}>
          {[false, true].map((all) => (
            <PlainButton
              key={String(all)}
              size="small"
              kind={isAll === all ? 'primary' : 'default'}
              aria-pressed={isAll === all}
              onClick={() => setIsAll(all)}
            >
              {all ? tt('filterAll') : tt('filterCurrent')}
            </PlainButton>
          ))}
        </fieldset>
      </div>
      {!c.canWrite && c.threads.length > 0 ? <div style={small}>{tt('ended')}</div> : null}
      {shown.length === 0 ? <div style={small}>{tt('empty')}</div> : null}
      {shown.map(({ t, n }) => (
        <Thread key={t.threadId} t={t} n={n} c={c} docs={docs} tt={tt} />
      ))}
      {c.canWrite ? (
        <div style={{ display: 'grid', gap: 6, borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
          <label htmlFor={formId} style={{ fontSize: 13, fontWeight: 600 }}>
            {tt('newComment')}
          </label>
          <textarea
            id={formId}
            rows={3}
            maxLength={COMMENT_LIMITS.body}
            placeholder={tt('placeholder', { max: COMMENT_LIMITS.body })}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            style={textArea}
          />
          {c.anchor ? (
            <div
              data-testid="comment-pinned"
              style={{ ...small, display: 'flex', gap: 6, alignItems: 'center' }}
            >
              <span style={{ overflowWrap: 'anywhere' }}>
                {tt('pinnedAt', { where: tt('onPage', { name: pinnedName, page: c.anchor.page ?? 1 }) })}
              </span>
              <PlainButton size="small" kind="link" onClick={() => c.pinAt(null)}>
                {tt('unpin')}
              </PlainButton>
            </div>
          ) : c.isPinning ? (
            <div role="status" style={{ ...small, color: '#d46b08' }}>
              {tt('pinning')}
            </div>
          ) : null}
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
            {canPin ? (
              <PlainButton size="small" onClick={() => c.setIsPinning(!c.isPinning)}>
                {c.isPinning ? tt('pinCancel') : tt('pin')}
              </PlainButton>
            ) : null}
            <PlainButton
              size="small"
              kind="primary"
              isBusy={c.isBusy}
              disabled={!body.trim()}
              onClick={() => void send()}
            >
              {tt('send')}
            </PlainButton>
          </div>
        </div>
      ) : null}
    </section>
  );
}
