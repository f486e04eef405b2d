import Button from 'antd/es/button';
import { Outlet } from 'react-router-dom';
import { useT } from '@/i18n/i18n-store.ts';

export function RootLayout() {
  return <Outlet />;
}

/** Shown while the first route's guard and screen load. */
export function RouteLoading() {
  const t = useT();
  return (
    <div
      role="status"
      aria-live="polite"
      style={{ display: 'flex', justifyContent: 'center', padding: 64, color: '#999' }}
    >
      {t('app.loading')}
    </div>
  );
}

/** A screen failed to load or render (often a chunk from an older deploy): offer a reload. */
export function RouteError() {
  const t = useT();
  // Plain markup, not antd Result: its illustrations would weigh on every page's first load.
  return (
    <main role="alert" style={{ textAlign: 'center', padding: 48 }}>
      <h1 style={{ fontSize: 24 }}>{t('error.title')}</h1>
      <p>{t('error.text')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </Button>
    </main>
  );
}
