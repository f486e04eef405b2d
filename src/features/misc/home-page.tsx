import Button from 'antd/es/button';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { miscTexts } from './texts.ts';

const FEATURES = [
  ['featCertTitle', 'featCertText'],
  ['featFlowTitle', 'featFlowText'],
  ['featVerifyTitle', 'featVerifyText'],
  ['featMobileTitle', 'featMobileText'],
] as const;

/**
 * `/`: the default platform's home page — what the product does, log in / register (or enter the workspace
 * when logged in), verify a document, the demo and the guides. Light on purpose: it is the first page many
 * visitors load.
 */
export default function HomePage() {
  const tt = useTexts(miscTexts);
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  return (
    <div style={{ minHeight: '100vh', background: '#fafafa' }}>
      <header
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '12px 24px',
          background: '#fff',
        }}
      >
        <strong style={{ fontSize: 18 }}>{pick(locale, entry.fromPtName)}</strong>
        <span style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <LanguageSwitch />
          {!isLoggedIn && (
            <Link to={paths.loginPage}>
              <Button>{tt('logIn')}</Button>
            </Link>
          )}
        </span>
      </header>
      <main style={{ maxWidth: 1000, margin: '0 auto', padding: '48px 16px' }}>
        <section style={{ textAlign: 'center', marginBottom: 48 }}>
          <h1 style={{ fontSize: 32, marginBottom: 16 }}>{tt('heroTitle')}</h1>
          <p style={{ fontSize: 16, color: '#555', maxWidth: 720, margin: '0 auto 24px' }}>
            {tt('heroText')}
          </p>
          <div style={{ display: 'flex', gap: 12, justifyContent: 'center', flexWrap: 'wrap' }}>
            {isLoggedIn ? (
              <Link to={paths.manageHome}>
                <Button type="primary" size="large">
                  {tt('workspace')}
                </Button>
              </Link>
            ) : (
              <>
                <Link to={paths.registerPage}>
                  <Button type="primary" size="large">
                    {tt('register')}
                  </Button>
                </Link>
                <Link to={paths.loginPage}>
                  <Button size="large">{tt('logIn')}</Button>
                </Link>
              </>
            )}
            <Link to={paths.fileVerification}>
              <Button size="large">{tt('verify')}</Button>
            </Link>
          </div>
        </section>
        <section
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: 16 }}
        >
          {FEATURES.map(([title, text]) => (
            <article key={title} style={{ background: '#fff', borderRadius: 8, padding: 20 }}>
              <h2 style={{ fontSize: 16 }}>{tt(title)}</h2>
              <p style={{ color: '#666', margin: 0 }}>{tt(text)}</p>
            </article>
          ))}
        </section>
        <p style={{ textAlign: 'center', marginTop: 32, display: 'flex', gap: 16, justifyContent: 'center' }}>
          <Link to={paths.pagesIndex}>{tt('tryDemo')}</Link>
          <Link to={paths.pcGuide}>{tt('guides')}</Link>
        </p>
      </main>
    </div>
  );
}
