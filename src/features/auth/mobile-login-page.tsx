import { useT } from '@/i18n/i18n-store.ts';
import { AuthFrame } from './auth-frame.tsx';
import { LoginForm } from './login-form.tsx';

/** The phone-sized login of the mobile scope; the mobile layout around it sets the rem width. */
export default function MobileLoginPage() {
  const t = useT();
  return (
    <AuthFrame title={t('auth.mobileLogin.title')} compact>
      <LoginForm />
    </AuthFrame>
  );
}
