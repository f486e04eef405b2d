import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { userLogin } from '@/api/session.ts';
import { paths } from '@/config/paths.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useT } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { AuthForm, TextField, useAuthForm } from './auth-form.tsx';
import { nextTarget } from './next-target.ts';
import { checkLoginPassword, checkPhone } from './rules.ts';
import { showApiError } from '@/api/http.ts';

/** Phone + password login; used by /loginPage and /mobileLogin. */
export function LoginForm() {
  const t = useT();
  const form = useAuthForm({ phone: { check: checkPhone }, password: { check: checkLoginPassword } });
  const [isBusy, setIsBusy] = useState(false);
  const location = useLocation();
  const navigate = useSafeNavigate();
  const setVerified = useSessionStore((s) => s.setVerified);

  const submit = async () => {
    if (!form.validate()) return;
    setIsBusy(true);
    try {
      const info = await userLogin({ phone: form.values.phone.trim(), password: form.values.password });
      setVerified(info);
      navigate(nextTarget(location.search), { replace: true });
    } catch (error) {
      showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <AuthForm onSubmit={submit}>
      <TextField
        name="phone"
        label={t('field.phone')}
        value={form.values.phone}
        error={form.errors.phone}
        onChange={(v) => form.setValue('phone', v)}
        inputMode="tel"
        autoComplete="username"
        maxLength={11}
      />
      <TextField
        name="password"
        type="password"
        label={t('field.password')}
        value={form.values.password}
        error={form.errors.password}
        onChange={(v) => form.setValue('password', v)}
        autoComplete="current-password"
      />
      <PlainButton kind="primary" htmlType="submit" isBlock isBusy={isBusy}>
        {t('auth.login.submit')}
      </PlainButton>
      <p style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <span>
          {t('auth.login.noAccount')}{' '}
          <Link to={{ pathname: paths.registerPage, search: location.search }}>
            {t('auth.login.toRegister')}
          </Link>
        </span>
        <Link to={paths.passwordPage}>{t('auth.login.forgot')}</Link>
      </p>
    </AuthForm>
  );
}
