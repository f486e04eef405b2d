import { useT } from '@/i18n/i18n-store.ts';
import { AuthFrame } from './auth-frame.tsx';
import { LoginForm } from './login-form.tsx';

export default function LoginPage() {
  const t = useT();
  return (
    <AuthFrame title={t('auth.login.title')}>
      <LoginForm />
    </AuthFrame>
  );
}
