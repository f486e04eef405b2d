import type { ReactNode } from 'react';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { pick, useI18nStore } from '@/i18n/i18n-store.ts';
import { PRIMARY_COLOR } from '@/lib/theme.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';

/** The frame of the login, register and password pages: platform name, language switch, one card. */
export function AuthFrame({
  title,
  children,
  compact = false,
}: {
  title: string;
  children: ReactNode;
  compact?: boolean;
}) {
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  return (
    <main
      className="auth-frame"
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        background: '#f5f5f5',
      }}
    >
      {/* Links in the brand colour, as antd's theme draws them on the other pages. */}
      <style href="auth-frame" precedence="default">
        {`.auth-frame a{color:${PRIMARY_COLOR};text-decoration:none}.auth-frame a:hover{opacity:.8}`}
      </style>
      <header
        style={{
          width: '100%',
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '8px 16px',
          boxSizing: 'border-box',
        }}
      >
        <strong data-testid="platform-brand" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {entry.hyCenter.ptName ? pick(locale, entry.hyCenter.ptName) : ''}
        </strong>
        <LanguageSwitch />
      </header>
      {/* A plain panel rather than antd Card: Card pulls in Tabs, Dropdown and Menu, a third of the login page's JS. */}
      <section
        style={{
          width: compact ? '100%' : 420,
          maxWidth: '100%',
          boxSizing: 'border-box',
          marginTop: compact ? 0 : 48,
          padding: 24,
          background: '#fff',
          borderRadius: 8,
          boxShadow: '0 1px 4px rgba(0, 0, 0, 0.08)',
        }}
      >
        <h1 style={{ fontSize: 22, marginTop: 0 }}>{title}</h1>
        {children}
      </section>
    </main>
  );
}
