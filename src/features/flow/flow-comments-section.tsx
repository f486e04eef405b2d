// The flow detail's comments (issue 29): the chosen document's pages with the threads' numbered markers, and
// the threads (reply, resolve, reopen, filter "this revision / all"); "pin to page" picks a place by a click on
// the shown page. The launcher's account and the parties read it by their session.
import { lazy, Suspense, useState } from 'react';
import { documentUrl } from '@/api/document.ts';
import type { FlowDetail } from '@/api/flow.ts';
import { CommentPins } from '@/components/flow-comments/comment-pins.tsx';
import { CommentsPanel } from '@/components/flow-comments/comments-panel.tsx';
import { commentTexts } from '@/components/flow-comments/texts.ts';
import { useFlowComments } from '@/components/flow-comments/use-flow-comments.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';

const PdfViewer = lazy(() => import('@/components/pdf-viewer.tsx').then((m) => ({ default: m.PdfViewer })));

export function FlowCommentsSection({ flow }: { flow: FlowDetail }) {
  const tt = useTexts(commentTexts);
  const comments = useFlowComments(flow.flowId);
  const [docIndex, setDocIndex] = useState(0);
  const doc = flow.documents[docIndex] ?? flow.documents[0];
  return (
    <section aria-label={tt('title')} data-testid="flow-comments" style={{ margin: '12px 0', minWidth: 0 }}>
      {flow.documents.length > 1 ? (
        <div style={{ display: 'flex', gap: 4, flexWrap: 'wrap', marginBottom: 6 }}>
          {flow.documents.map((d, i) => (
            <PlainButton
              key={d.documentId}
              size="small"
              kind={i === docIndex ? 'primary' : 'default'}
              aria-pressed={i === docIndex}
              onClick={() => setDocIndex(i)}
            >
              {d.name}
            </PlainButton>
          ))}
        </div>
      ) : null}
      {doc ? (
        <Suspense fallback={<div style={{ height: 420 }} />}>
          <PdfViewer
            key={doc.documentId}
            url={documentUrl(doc.documentId)}
            pageSizes={doc.pageSizes}
            label={doc.name}
            height={420}
            renderOverlay={(g) => (
              <CommentPins comments={comments} documentId={doc.documentId} geometry={g} />
            )}
          />
        </Suspense>
      ) : null}
      <CommentsPanel comments={comments} docs={flow.documents} style={{ marginTop: 8 }} />
    </section>
  );
}
