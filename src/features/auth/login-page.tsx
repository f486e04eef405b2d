import { useT } from '@/i18n/i18n-store.ts';
import { AuthFrame } from './auth-frame.tsx';
import { LoginForm } from './login-form.tsx';
import { useCentralLogin } from './use-central-login.ts';

export default function LoginPage() {
  const t = useT();
  useCentralLogin();
  return (
    <AuthFrame title={t('auth.login.title')}>
      <LoginForm />
    </AuthFrame>
  );
}
