import { Code } from '#contract/codes.ts';
import { SmsPurpose } from '#contract/enums.ts';
import Button from 'antd/es/button';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import { userRegister } from '@/api/session.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useT } from '@/i18n/i18n-store.ts';
import { isPhoneDevice } from '@/lib/device.ts';
import { notify } from '@/lib/notify.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { AuthForm, TextField, useAuthForm } from './auth-form.tsx';
import { AuthFrame } from './auth-frame.tsx';
import { nextTarget } from './next-target.ts';
import { checkConfirm, checkNewPassword, checkPhone, checkSmsCode } from './rules.ts';
import { SmsCodeField } from './sms-code-field.tsx';
import { showApiError } from '@/api/http.ts';

/**
 * Person registration: phone, SMS code, password twice. The server logs the new user in, who lands on the
 * workspace (`/mobileHome` on a phone) or on the `next` route the guard stored.
 */
export default function RegisterPage() {
  const t = useT();
  const [password, setPassword] = useState('');
  const form = useAuthForm({
    phone: { check: checkPhone },
    smsCode: { check: checkSmsCode },
    password: { check: checkNewPassword },
    confirmPassword: { check: checkConfirm(password) },
  });
  const [isBusy, setIsBusy] = useState(false);
  /** The server's message when the proven phone already has an account (1203): shown with the way in. */
  const [takenMessage, setTakenMessage] = useState<string | null>(null);
  const navigate = useSafeNavigate();
  const location = useLocation();
  const setVerified = useSessionStore((s) => s.setVerified);
  const { register } = usePlatformStore((s) => s.entry.hyCenter);

  const submit = async () => {
    if (!form.validate()) return;
    setIsBusy(true);
    setTakenMessage(null);
    try {
      const { phone, smsCode } = form.values;
      const info = await userRegister({
        phone: phone.trim(),
        smsCode: smsCode.trim(),
        password: form.values.password,
      });
      setVerified(info);
      notify.success(t('auth.register.done'), 2000);
      // a phone's home is /mobileHome (issue 11 edge 7); a stored `next` still wins
      navigate(nextTarget(location.search, isPhoneDevice() ? paths.mobileHome : paths.manage), {
        replace: true,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === Code.PhoneTaken) setTakenMessage(error.message);
      else showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <AuthFrame title={t('auth.register.title')}>
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
        <SmsCodeField
          purpose={SmsPurpose.Register}
          value={form.values.smsCode}
          error={form.errors.smsCode}
          onChange={(v) => form.setValue('smsCode', v)}
          getValidPhone={() => (form.validate(['phone']) ? form.values.phone.trim() : null)}
        />
        <TextField
          name="password"
          type="password"
          label={t('field.password')}
          value={form.values.password}
          error={form.errors.password}
          onChange={(v) => {
            setPassword(v);
            form.setValue('password', v);
          }}
          autoComplete="new-password"
        />
        <TextField
          name="confirmPassword"
          type="password"
          label={t('field.confirmPassword')}
          value={form.values.confirmPassword}
          error={form.errors.confirmPassword}
          onChange={(v) => form.setValue('confirmPassword', v)}
          autoComplete="new-password"
        />
        {takenMessage && (
          <div role="alert" style={{ marginBottom: 12 }}>
            <p>{takenMessage}</p>
            <Link to={register.loginUrl ? `/${register.loginUrl}` : paths.loginPage}>
              {t('auth.register.toLogin')}
            </Link>{' '}
            · <Link to={paths.passwordPage}>{t('auth.login.forgot')}</Link>
          </div>
        )}
        <Button type="primary" htmlType="submit" block loading={isBusy}>
          {t('auth.register.submit')}
        </Button>
        {register.hasCreateCompanyBtn && (
          <Button block style={{ marginTop: 12 }} onClick={() => navigate(paths.foundCompany)}>
            {t('auth.register.createCompany')}
          </Button>
        )}
        {register.loginUrl && (
          <p style={{ marginTop: 16 }}>
            {t('auth.register.haveAccount')}{' '}
            <Link to={`/${register.loginUrl}`}>{t('auth.register.toLogin')}</Link>
          </p>
        )}
      </AuthForm>
    </AuthFrame>
  );
}
