// The comments of the room's flow (issue 29): on PC a panel in the side column, on a phone a "Comments (n)"
// button opening a bottom sheet. Pins show on the room's pages (CommentPins in the room's overlay); picking a
// place closes the sheet while the signer taps the page, and opens it again once picked.
import { useEffect, useState } from 'react';
import { CommentsPanel } from '@/components/flow-comments/comments-panel.tsx';
import { commentTexts } from '@/components/flow-comments/texts.ts';
import type { CommentsState } from '@/components/flow-comments/use-flow-comments.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';

export function RoomComments({
  comments: c,
  docs,
  isPhone,
}: {
  comments: CommentsState;
  docs: { documentId: string; name: string }[];
  isPhone: boolean;
}) {
  const tt = useTexts(commentTexts);
  const [isOpen, setIsOpen] = useState(false);
  // a place picked on the page (or a marker tapped) brings the sheet back
  useEffect(() => {
    if (isPhone && (c.anchor || c.focused)) setIsOpen(true);
  }, [isPhone, c.anchor, c.focused]);
  if (!isPhone)
    return (
      <CommentsPanel
        comments={c}
        docs={docs}
        style={{ background: '#fff', borderRadius: 8, padding: 12, maxHeight: '70vh', overflowY: 'auto' }}
      />
    );
  const count = c.threads.length;
  return (
    <>
      <PlainButton data-testid="comments-open" isBlock onClick={() => setIsOpen(true)}>
        {tt('open', { n: count })}
      </PlainButton>
      {isOpen ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-label={tt('title')}
          style={{
            position: 'fixed',
            left: 0,
            right: 0,
            bottom: 0,
            maxHeight: '75vh',
            overflowY: 'auto',
            background: '#fff',
            borderRadius: '12px 12px 0 0',
            boxShadow: '0 -4px 16px rgba(0,0,0,.2)',
            padding: 12,
            zIndex: 1000,
            boxSizing: 'border-box',
          }}
        >
          <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <PlainButton size="small" kind="text" onClick={() => setIsOpen(false)}>
              {tt('close')}
            </PlainButton>
          </div>
          <CommentsPanel
            comments={{
              ...c,
              // tapping the page needs the sheet out of the way
              setIsPinning: (on: boolean) => {
                c.setIsPinning(on);
                if (on) setIsOpen(false);
              },
              setFocused: c.setFocused,
            }}
            docs={docs}
          />
        </div>
      ) : null}
    </>
  );
}
