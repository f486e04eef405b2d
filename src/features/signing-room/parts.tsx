import { type ReactNode, useId, useState } from 'react';
import { PlainButton } from '@/components/plain-button.tsx';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { inputStyle } from './light-ui.tsx';
import { texts } from './texts.ts';
import { useSmsCodeSender } from '@/hooks/use-sms-code-sender.ts';

export const MESSAGE_MS = 2000;
export const PHONE_RE = /^1\d{10}$/;
export const SMS_CODE_RE = /^\d{6}$/;

/** A labelled field (Playwright and Testing Library find the input by its label). */
export function Field({
  label,
  error,
  note,
  children,
}: {
  label: string;
  error?: string | null;
  /** A quiet line under the field (e.g. the code was sent). */
  note?: string | null;
  children: (a11y: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error ? `${id}-error` : undefined,
      })}
      {error ? (
        <div id={`${id}-error`} role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
          {error}
        </div>
      ) : note ? (
        <div role="status" style={{ color: '#52c41a', marginTop: 4 }}>
          {note}
        </div>
      ) : null}
    </div>
  );
}

/** The SMS code input with its 'Get code' button; `send` returns how long to wait before another send. */
export function SmsCodeInput({
  value,
  onChange,
  send,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  /** Sends a code, or returns null when it did not (e.g. the phone is not valid yet). */
  send: () => Promise<{ resendAfterSeconds: number } | null>;
  error?: string | null;
}) {
  const tt = useTexts(texts);
  const { seconds, isSending, sendCode } = useSmsCodeSender(send);
  // Said inline, not with antd's message: the room's JS budget has no room for it on the happy path.
  const [isSent, setIsSent] = useState(false);
  const onSend = async () => {
    if (await sendCode()) setIsSent(true);
  };
  return (
    <Field label={tt('smsCode')} error={error} note={isSent && !error ? tt('codeSent') : null}>
      {(a11y) => (
        <div style={{ display: 'flex', gap: 8 }}>
          <input
            {...a11y}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            style={inputStyle}
          />
          <PlainButton
            onClick={onSend}
            disabled={seconds > 0}
            isBusy={isSending}
            style={{ minWidth: 120, height: 'auto' }}
          >
            {seconds > 0 ? tt('resend', { seconds }) : tt('getCode')}
          </PlainButton>
        </div>
      )}
    </Field>
  );
}

/** The platform the room belongs to (its logo where the platform shows one, and its name), and the language. */
export function RoomBrandBar() {
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        alignItems: 'center',
        gap: 8,
        marginBottom: 8,
      }}
    >
      <span
        data-testid="platform-brand"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0, color: '#333' }}
      >
        {entry.oxqWorkspace.ptLogoUrl ? (
          <img src={entry.oxqWorkspace.ptLogoUrl} alt="" width={24} height={24} data-testid="platform-logo" />
        ) : null}
        <strong style={{ overflowWrap: 'anywhere' }}>{pick(locale, entry.fromPtName)}</strong>
      </span>
      <LanguageSwitch />
    </div>
  );
}

/** A reason to give (decline, hand over): up to 200 characters. */
export function ReasonField({
  label,
  error,
  value,
  onChange,
}: {
  label: string;
  error?: string | null;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} error={error}>
      {(a11y) => (
        <textarea
          {...a11y}
          rows={3}
          maxLength={200}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          style={inputStyle}
        />
      )}
    </Field>
  );
}
