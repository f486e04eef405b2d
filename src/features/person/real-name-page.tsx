import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginRedirect, paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { RealNameForm, useOpenStatus } from './parts.tsx';
import { texts } from './texts.ts';

/**
 * The real-name form on its own: /realName (then /realName/result), /h5/v1/nameAuthentication and
 * /pc/v1/nameAuthentication (public routes: a visitor is asked to log in first).
 */
export default function RealNamePage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const location = useLocation();
  const { status, setStatus, isLoading } = useOpenStatus();
  const isMobile = !location.pathname.startsWith('/pc/');
  const loginPath = isMobile ? paths.mobileLogin : paths.loginPage;
  const body = () => {
    if (isLoading) return <p>{tt('checking')}</p>;
    if (!status)
      return (
        <Button type="primary" block onClick={() => navigate(loginRedirect(loginPath, location.pathname))}>
          {tt('loginToAccept')}
        </Button>
      );
    if (status.isRealNameDone)
      return (
        <Result
          status="success"
          title={tt('realNameDone')}
          extra={
            <Button
              type="primary"
              onClick={() => navigate(isMobile ? paths.mobileOpenAccountVerify : paths.managePersonalEsign)}
            >
              {tt('next')}
            </Button>
          }
        />
      );
    return (
      <RealNameForm
        isDevelopment={status.identityProvider.isDevelopment}
        onDone={(next) => {
          if (location.pathname === paths.realName) navigate(paths.realNameResult);
          else setStatus(next);
        }}
      />
    );
  };
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }}>
      <h1 style={{ fontSize: 22 }}>{tt('realNameTitle')}</h1>
      {body()}
    </main>
  );
}
