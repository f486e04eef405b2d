import type { ComponentType, ReactNode } from 'react';
import { Outlet, useMatches } from 'react-router-dom';
import { useT } from '@/i18n/i18n-store.ts';
import { PRIMARY_COLOR } from '@/lib/theme.ts';
import { isPlainUiOf, type RouteHandle } from './route-guard.ts';

let AntdProvider: ComponentType<{ children: ReactNode }> | null = null;

/** Loads antd's provider (its own chunk); the root loader awaits it before a screen that uses antd shows. */
export async function loadAntdProvider(): Promise<void> {
  AntdProvider ??= (await import('./antd-provider.tsx')).AntdProvider;
}

/** Every screen, inside antd's theme and locale unless its route says it renders without antd. */
export function RootLayout() {
  const isPlainUi = isPlainUiOf(useMatches().map((m) => m.handle as RouteHandle | undefined));
  if (isPlainUi || !AntdProvider) return <Outlet />;
  return (
    <AntdProvider>
      <Outlet />
    </AntdProvider>
  );
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
  // Plain markup, not antd Result or Button: this is in the entry, so it would weigh on every page's first load.
  return (
    <main role="alert" style={{ textAlign: 'center', padding: 48 }}>
      <h1 style={{ fontSize: 24 }}>{t('error.title')}</h1>
      <p>{t('error.text')}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        style={{
          padding: '4px 15px',
          fontSize: 14,
          lineHeight: 1.5715,
          color: '#fff',
          background: PRIMARY_COLOR,
          border: 0,
          borderRadius: 6,
          cursor: 'pointer',
        }}
      >
        {t('error.reload')}
      </button>
    </main>
  );
}
