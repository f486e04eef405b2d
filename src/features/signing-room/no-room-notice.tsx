import { type CSSProperties, useEffect } from 'react';
import { useTexts } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { EmbedEvent, notifyParent } from '@/lib/embedding.ts';
import { Notice } from './light-ui.tsx';
import { texts } from './texts.ts';

/**
 * What a window without the room's credential shows. On its own page: open the link from the message again.
 * Inside a partner's frame the signer has no message: the one-time URL is spent (a reload where the browser
 * keeps nothing, or the same URL loaded twice), so the room says to open signing again on the site around it,
 * and tells that site ('signingRoomLost') so it can load a new signing URL in the frame by itself.
 */
export function NoRoomNotice({
  style,
  ids,
  text,
}: {
  style: CSSProperties;
  ids: { flowId: string | null; partyId: string | null };
  /** A refusal's own text (a spent embedded-signing URL), shown instead of the generic one. */
  text?: string;
}) {
  const tt = useTexts(texts);
  const isFramed = browser.isFramed();
  const { flowId, partyId } = ids;
  useEffect(() => {
    if (isFramed) void notifyParent(EmbedEvent.SigningRoomLost, { flowId, partyId });
  }, [isFramed, flowId, partyId]);
  return (
    <main style={style}>
      <Notice type="warning" title={text ?? tt(isFramed ? 'noRoomFramed' : 'noRoom')} />
    </main>
  );
}
