// The comments' places on a shown page (issue 29): a numbered marker per pinned thread, the place just picked,
// and, in "pin to page" mode, a layer over the page whose click picks the place (in PDF points). Drawn in the
// PDF viewer's page overlay; no antd, so the signing room can use it.
import type { PageGeometry } from '@/components/pdf-viewer.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { PRIMARY_COLOR } from '@/lib/theme.ts';
import { commentTexts } from './texts.ts';
import type { CommentsState } from './use-flow-comments.ts';

const DOT = 22;

function Dot({
  left,
  top,
  label,
  children,
  onClick,
  isNew = false,
}: {
  left: number;
  top: number;
  label: string;
  children: string;
  onClick?: () => void;
  isNew?: boolean;
}) {
  return (
    <button
      type="button"
      data-testid={isNew ? 'comment-pin-new' : 'comment-pin'}
      aria-label={label}
      onClick={(e) => {
        e.stopPropagation();
        onClick?.();
      }}
      style={{
        position: 'absolute',
        // the marker's pointed corner (bottom-left) on the place
        left,
        top: top - DOT,
        width: DOT,
        height: DOT,
        padding: 0,
        borderRadius: '50% 50% 50% 0',
        border: '2px solid #fff',
        background: isNew ? '#faad14' : PRIMARY_COLOR,
        color: '#fff',
        fontSize: 11,
        fontWeight: 600,
        lineHeight: `${DOT - 4}px`,
        boxShadow: '0 1px 3px rgba(0,0,0,.35)',
        cursor: 'pointer',
        zIndex: 3,
      }}
    >
      {children}
    </button>
  );
}

/** The overlay of one page: markers of the threads pinned on it (numbered as the panel lists them). */
export function CommentPins({
  comments: c,
  documentId,
  geometry: g,
}: {
  comments: CommentsState;
  documentId: string;
  geometry: PageGeometry;
}) {
  const tt = useTexts(commentTexts);
  const at = (x: number, y: number) => {
    const box = g.toScreen([x, y, x, y]);
    return { left: box.left, top: box.top };
  };
  const here = (a: { documentId: string; page: number | null } | null) =>
    a !== null && a.documentId === documentId && a.page === g.pageNumber;
  return (
    <>
      {c.threads.map((t, i) =>
        here(t.anchor) && t.anchor?.x != null && t.anchor.y != null ? (
          <Dot
            key={t.threadId}
            {...at(t.anchor.x, t.anchor.y)}
            label={tt('marker', { n: i + 1 })}
            onClick={() => c.setFocused(t.threadId)}
          >
            {String(i + 1)}
          </Dot>
        ) : null,
      )}
      {here(c.anchor) && c.anchor?.x != null && c.anchor.y != null ? (
        <Dot {...at(c.anchor.x, c.anchor.y)} label={tt('newComment')} isNew>
          +
        </Dot>
      ) : null}
      {c.isPinning ? (
        <div
          data-testid="comment-pin-layer"
          title={tt('pinning')}
          onClick={(e) => {
            const r = g.toPdf({
              left: e.nativeEvent.offsetX,
              top: e.nativeEvent.offsetY,
              width: 0,
              height: 0,
            });
            c.pinAt({
              documentId,
              page: g.pageNumber,
              x: Math.round(r[0] * 10) / 10,
              y: Math.round(r[1] * 10) / 10,
            });
          }}
          style={{
            position: 'absolute',
            inset: 0,
            zIndex: 4,
            cursor: 'crosshair',
            background: 'rgba(250, 173, 20, 0.08)',
            outline: '2px dashed #faad14',
          }}
        />
      ) : null}
    </>
  );
}
