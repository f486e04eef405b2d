import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import { useCallback, useEffect, useId, useState } from 'react';
import { SmsPurpose } from '#contract/enums.ts';
import { getSigningPassword, setSigningPassword } from '@/api/flow.ts';
import { showApiError } from '@/api/http.ts';
import { sendSmsCode } from '@/api/session.ts';
import { useSmsCodeSender } from '@/hooks/use-sms-code-sender.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { maskPhone } from '@/lib/masks.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { texts } from './signing-password-texts.ts';

type Status = { isSet: boolean; updatedAt: string | null; lockedUntil: string | null };
type Problem = 'codeInvalid' | 'passwordInvalid' | 'mismatch';

/**
 * The person's signing password (intent check 'password'): whether it is set and when, a lock after wrong
 * attempts, and a form to set or change it, proven by an SMS code to the account's own phone. Shown on
 * /personalDetails; the signing room offers the same for a signer who has none yet.
 */
export function SigningPasswordCard() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const phone = useSessionStore((s) => s.userInfo?.phone ?? '');
  const ids = { code: useId(), password: useId(), confirm: useId() };
  const [status, setStatus] = useState<Status | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const { seconds, isSending, sendCode } = useSmsCodeSender(async () => {
    const sent = await sendSmsCode({ phone, purpose: SmsPurpose.SigningPassword });
    notify.success(tt('codeSent', { phone: maskPhone(phone) }), 2000);
    return sent;
  });

  const load = useCallback(() => getSigningPassword({}).then(setStatus, () => {}), []);
  useEffect(() => {
    void load();
  }, [load]);

  const close = () => {
    setIsOpen(false);
    setCode('');
    setPassword('');
    setConfirm('');
    setProblem(null);
  };
  const save = async () => {
    const found: Problem | null = !/^\d{6}$/.test(code)
      ? 'codeInvalid'
      : password.length < 6 || password.length > 32
        ? 'passwordInvalid'
        : password !== confirm
          ? 'mismatch'
          : null;
    setProblem(found);
    if (found) return;
    setIsSaving(true);
    try {
      await setSigningPassword({ smsCode: code, password });
      notify.success(tt('saved'), 2000);
      close();
      await load();
    } catch (e) {
      showApiError(e);
    } finally {
      setIsSaving(false);
    }
  };

  if (!status) return null;
  return (
    <Card title={tt('title')} style={{ marginTop: 16 }} data-testid="signing-password">
      <p>{tt('intro')}</p>
      <p role="status">
        {status.isSet ? tt('setAt', { time: formatTime(status.updatedAt, locale) }) : tt('notSet')}
      </p>
      {status.lockedUntil ? (
        <Alert
          type="warning"
          title={tt('lockedUntil', { time: formatTime(status.lockedUntil, locale) })}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {isOpen ? (
        <div style={{ display: 'grid', gap: 12, maxWidth: 420 }}>
          <div>
            <label htmlFor={ids.code}>{tt('smsCode')}</label>
            <div style={{ display: 'flex', gap: 8 }}>
              <Input
                id={ids.code}
                value={code}
                inputMode="numeric"
                maxLength={6}
                autoComplete="one-time-code"
                status={problem === 'codeInvalid' ? 'error' : undefined}
                onChange={(e) => setCode(e.target.value.trim())}
              />
              <Button onClick={sendCode} disabled={seconds > 0} loading={isSending} style={{ minWidth: 116 }}>
                {seconds > 0 ? tt('resend', { seconds }) : tt('getCode')}
              </Button>
            </div>
            <div style={{ color: '#888', fontSize: 13 }}>{tt('smsHint', { phone: maskPhone(phone) })}</div>
          </div>
          <PasswordField
            id={ids.password}
            label={tt('newPassword')}
            hint={tt('passwordRule')}
            value={password}
            isWrong={problem === 'passwordInvalid'}
            onChange={setPassword}
          />
          <PasswordField
            id={ids.confirm}
            label={tt('confirmPassword')}
            value={confirm}
            isWrong={problem === 'mismatch'}
            onChange={setConfirm}
          />
          {problem ? (
            <div role="alert" style={{ color: '#ff4d4f' }}>
              {tt(problem)}
            </div>
          ) : null}
          <div style={{ display: 'flex', gap: 8 }}>
            <Button type="primary" loading={isSaving} onClick={save}>
              {tt('save')}
            </Button>
            <Button onClick={close}>{tt('cancel')}</Button>
          </div>
        </div>
      ) : (
        <Button onClick={() => setIsOpen(true)}>{status.isSet ? tt('change') : tt('set')}</Button>
      )}
    </Card>
  );
}

function PasswordField(props: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  isWrong: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <Input.Password
        id={props.id}
        value={props.value}
        maxLength={32}
        autoComplete="new-password"
        status={props.isWrong ? 'error' : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint ? <div style={{ color: '#888', fontSize: 13 }}>{props.hint}</div> : null}
    </div>
  );
}
