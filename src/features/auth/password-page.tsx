import { Code } from '#contract/codes.ts';
import { SmsPurpose } from '#contract/enums.ts';
import Button from 'antd/es/button';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import { resetPassword } from '@/api/session.ts';
import { paths } from '@/config/paths.ts';
import { useT } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { AuthForm, TextField, useAuthForm } from './auth-form.tsx';
import { AuthFrame } from './auth-frame.tsx';
import { checkNewPassword, checkPhone, checkSmsCode } from './rules.ts';
import { SmsCodeField } from './sms-code-field.tsx';
import { showApiError } from '@/api/http.ts';

/** Forgot password: a new password set with an SMS code; the server ends every session of the user. */
export default function PasswordPage() {
  const t = useT();
  const form = useAuthForm({
    phone: { check: checkPhone },
    smsCode: { check: checkSmsCode },
    newPassword: { check: checkNewPassword },
  });
  const [isBusy, setIsBusy] = useState(false);
  const [isDone, setIsDone] = useState(false);
  /** The server's message when the proven phone has no account (1101): shown with a link to register. */
  const [noAccountMessage, setNoAccountMessage] = useState<string | null>(null);
  const loginUrl = usePlatformStore((s) => s.entry.hyCenter.resetPwd.loginUrl);
  const toLogin = loginUrl ? <Link to={`/${loginUrl}`}>{t('auth.password.toLogin')}</Link> : null;

  const submit = async () => {
    if (!form.validate()) return;
    setIsBusy(true);
    setNoAccountMessage(null);
    try {
      const { phone, smsCode, newPassword } = form.values;
      await resetPassword({ phone: phone.trim(), smsCode: smsCode.trim(), newPassword });
      setIsDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === Code.NotFound) setNoAccountMessage(error.message);
      else showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <AuthFrame title={t('auth.password.title')}>
      {isDone ? (
        <div role="status">
          <p>{t('auth.password.done')}</p>
          {toLogin}
        </div>
      ) : (
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
            purpose={SmsPurpose.ResetPassword}
            value={form.values.smsCode}
            error={form.errors.smsCode}
            onChange={(v) => form.setValue('smsCode', v)}
            getValidPhone={() => (form.validate(['phone']) ? form.values.phone.trim() : null)}
          />
          <TextField
            name="newPassword"
            type="password"
            label={t('field.newPassword')}
            value={form.values.newPassword}
            error={form.errors.newPassword}
            onChange={(v) => form.setValue('newPassword', v)}
            autoComplete="new-password"
          />
          {noAccountMessage && (
            <div role="alert" style={{ marginBottom: 12 }}>
              <p>{noAccountMessage}</p>
              <Link to={paths.registerPage}>{t('auth.login.toRegister')}</Link>
            </div>
          )}
          <Button type="primary" htmlType="submit" block loading={isBusy}>
            {t('auth.password.submit')}
          </Button>
          {toLogin && <p style={{ marginTop: 16 }}>{toLogin}</p>}
        </AuthForm>
      )}
    </AuthFrame>
  );
}
