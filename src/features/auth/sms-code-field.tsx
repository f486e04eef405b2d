import type { SmsPurpose } from '#contract/enums.ts';
import Button from 'antd/es/button';
import { useState } from 'react';
import { sendSmsCode } from '@/api/session.ts';
import type { MessageKey } from '@/i18n/en-US.ts';
import { useT } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { PlainInput } from '@/components/plain-input.tsx';
import { Field } from './auth-form.tsx';
import { devOutboxAvailable, devOutboxUrl } from './dev-outbox.ts';
import { useSmsCodeSender } from '@/hooks/use-sms-code-sender.ts';

type Props = {
  purpose: SmsPurpose;
  value: string;
  error?: MessageKey;
  onChange: (value: string) => void;
  /** Checks the phone field (showing its error) and returns the phone when it is valid. */
  getValidPhone: () => string | null;
};

/** The SMS code input with its 'Get code' button; the button waits 60 s between sends. */
export function SmsCodeField({ purpose, value, error, onChange, getValidPhone }: Props) {
  const t = useT();
  // Development on this machine only: a link to where the code went (the development outbox).
  const [outboxPhone, setOutboxPhone] = useState<string | null>(null);
  const { seconds, isSending, sendCode } = useSmsCodeSender(async (phone: string) => {
    const answer = await sendSmsCode({ phone, purpose });
    notify.success(t('auth.sms.sent'), 2000);
    if (await devOutboxAvailable()) setOutboxPhone(phone);
    return answer;
  });
  // The phone is checked first (its error shown), so a wrong one never makes the button busy.
  const send = () => {
    const phone = getValidPhone();
    if (phone) void sendCode(phone);
  };

  return (
    <Field id="smsCode" label={t('field.smsCode')} error={error}>
      {(a11y) => (
        <>
          <div style={{ display: 'flex', gap: 8 }}>
            <PlainInput
              {...a11y}
              name="smsCode"
              value={value}
              onChange={(e) => onChange(e.target.value)}
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
            />
            <Button onClick={send} disabled={seconds > 0} loading={isSending} style={{ minWidth: 128 }}>
              {seconds > 0 ? t('auth.sms.resend', { seconds }) : t('auth.sms.get')}
            </Button>
          </div>
          {outboxPhone ? (
            <div data-testid="dev-outbox-hint" style={{ marginTop: 4, fontSize: 12, color: '#8c8c8c' }}>
              {t('auth.sms.devOutbox')}:{' '}
              <a href={devOutboxUrl(outboxPhone)} target="_blank" rel="noopener noreferrer">
                {devOutboxUrl(outboxPhone)}
              </a>
            </div>
          ) : null}
        </>
      )}
    </Field>
  );
}
