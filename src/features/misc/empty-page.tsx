import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { miscTexts } from './texts.ts';

/** Only paths inside the app: '/x', never '//host' or 'https://…' (no open redirect). */
export const isInternalPath = (to: string | null): to is string =>
  typeof to === 'string' && to.startsWith('/') && !to.startsWith('//') && !to.includes('\\');

/**
 * /empty: a blank transition page. With `?to=/some/route` it replaces itself by that route at once (a
 * screen re-opens itself through here to start fresh); without, it says there is nothing to show.
 */
export default function EmptyPage() {
  const tt = useTexts(miscTexts);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const to = search.get('to');
  const isRedirect = isInternalPath(to);
  useEffect(() => {
    if (isRedirect) void navigate(to, { replace: true });
  }, [isRedirect, to, navigate]);
  if (isRedirect) return <main aria-busy="true" />;
  return (
    <main style={{ padding: 48, textAlign: 'center', color: '#999' }}>
      <p>{tt('emptyText')}</p>
      <Link to={paths.home}>{tt('backHome')}</Link>
    </main>
  );
}
