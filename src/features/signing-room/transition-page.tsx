import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTexts } from '@/i18n/i18n-store.ts';
import { isPhoneDevice, transitionTarget } from './device.ts';
import { texts } from './texts.ts';

/** /signingRoomTransition: phones to the h5 room, desktops to the PC room, with the room named in the query. */
export default function TransitionPage() {
  const tt = useTexts(texts);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(transitionTarget(search, isPhoneDevice()), { replace: true });
  }, [navigate, search]);
  return (
    <main style={{ padding: 48, textAlign: 'center', color: '#666' }} aria-busy="true">
      {tt('transition')}
    </main>
  );
}
