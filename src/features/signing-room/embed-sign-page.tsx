import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { roomQuery, saveRoomLogin, signingRoomLoginByEmbed } from '@/api/flow.ts';
import { Code } from '#contract/codes.ts';
import { ApiError, showApiError } from '@/api/http.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { Notice } from './light-ui.tsx';
import { NoRoomNotice } from './no-room-notice.tsx';
import { texts } from './texts.ts';

/**
 * /embed/sign?code=…: the integrator API's embedded-signing URL (issue 13), usually inside the partner's
 * iframe. The one-time code opens the room of one party (bound to its phone, no login), kept like a link
 * login for this page (and, where the browser allows, this tab); then the transition picks the PC or phone room.
 * The code works once: a reload finds the room kept for the tab, or, in a frame whose browser keeps nothing,
 * says to open signing again on the partner's site and tells that site (NoRoomNotice).
 */
export default function EmbedSignPage() {
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  // A partner that loads a new URL into the same frame changes only the hash: a new code is a new page.
  return <EmbedSign key={code} code={code} />;
}

function EmbedSign({ code }: { code: string }) {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(
    code.length < 16 || code.length > 100 ? tt('badLink') : null,
  );
  // The code was already used or has expired, seen inside a partner's frame.
  const [isSpentInFrame, setIsSpentInFrame] = useState(false);
  // React's strict mode runs effects twice in development: spend the one-time code once.
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current || problem) return;
    asked.current = true;
    signingRoomLoginByEmbed({ embedCode: code })
      .then((login) => {
        saveRoomLogin(login);
        navigate(`${paths.signingRoomTransition}${roomQuery(login)}`, { replace: true });
      })
      .catch((err) => {
        if (err instanceof ApiError && err.code === Code.LinkInvalid && browser.isFramed())
          setIsSpentInFrame(true);
        else setProblem(showApiError(err));
      });
  }, [code, navigate, problem]);

  const box = { maxWidth: 420, margin: '0 auto', padding: '32px 16px' };
  if (isSpentInFrame) return <NoRoomNotice style={box} ids={{ flowId: null, partyId: null }} />;
  return (
    <main style={box}>
      {problem ? (
        <Notice type="error" title={problem} />
      ) : (
        <p style={{ color: '#666' }}>{tt('embedOpening')}</p>
      )}
    </main>
  );
}
