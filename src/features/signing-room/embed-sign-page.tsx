import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { roomQuery, saveRoomLogin, signingRoomLoginByEmbed } from '@/api/flow.ts';
import { showApiError } from '@/api/http.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { Notice } from './light-ui.tsx';
import { texts } from './texts.ts';

/**
 * /embed/sign?code=…: the integrator API's embedded-signing URL (issue 13), usually inside the partner's
 * iframe. The one-time code opens the room of one party (bound to its phone, no login), kept like a link
 * login for this tab; then the transition picks the PC or phone room. The code works once: a reload finds
 * the room already kept for the tab.
 */
export default function EmbedSignPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  const [problem, setProblem] = useState<string | null>(
    code.length < 16 || code.length > 100 ? tt('badLink') : null,
  );
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
      .catch((err) => setProblem(showApiError(err)));
  }, [code, navigate, problem]);

  return (
    <main style={{ maxWidth: 420, margin: '0 auto', padding: '32px 16px' }}>
      {problem ? (
        <Notice type="error" title={problem} />
      ) : (
        <p style={{ color: '#666' }}>{tt('embedOpening')}</p>
      )}
    </main>
  );
}
