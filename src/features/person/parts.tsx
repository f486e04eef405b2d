import type { SmsPurpose } from '#contract/enums.ts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import {
  acceptUserAgreement,
  authIdNamePhone,
  checkCurrentLoginUserOpenSign,
  getUserAgreement,
  type OpenSignStatus,
  type PersonCert,
  type UserAgreement,
} from '@/api/person.ts';
import { sendSmsCode } from '@/api/session.ts';
import { DnText } from '@/components/dn-text.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { getToken, useSessionStore } from '@/session/session-store.ts';
import { type Check, checkIdNumberField, checkName, checkPhone, checkSmsCode } from '@/lib/person-fields.ts';
import { type PersonTextKey, texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';
import { useFormatTime } from '@/lib/format-time.ts';

/** The open-sign status of the logged-in account (null while loading, or when nobody is logged in). */
export function useOpenStatus() {
  const [status, setStatus] = useState<OpenSignStatus | null>(null);
  const [isLoading, setIsLoading] = useState(true);
  const reload = useCallback(async () => {
    if (!getToken()) {
      setIsLoading(false);
      return null;
    }
    try {
      const next = await checkCurrentLoginUserOpenSign();
      setStatus(next);
      return next;
    } catch (error) {
      showApiError(error);
      return null;
    } finally {
      setIsLoading(false);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { status, setStatus, isLoading, reload };
}

/** The visible notice of the development identity provider on every real-name screen. */
export function DevProviderNotice({ isDevelopment }: { isDevelopment: boolean | undefined }) {
  const tt = useTexts(texts);
  if (!isDevelopment) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="dev-identity-provider"
      title={tt('devProvider')}
      description={tt('devProviderHint')}
      style={{ marginBottom: 16 }}
    />
  );
}

type A11y = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string; status?: 'error' };

/** A labelled field with its localized error under it; inputs are found by their label. */
function Field(props: {
  id: string;
  label: string;
  error?: PersonTextKey | null;
  children: (a: A11y) => ReactNode;
}) {
  const tt = useTexts(texts);
  const { id, label, error, children } = props;
  const errorId = `${id}-error`;
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error ? errorId : undefined,
        status: error ? 'error' : undefined,
      })}
      {error && (
        <div id={errorId} role="alert" style={{ color: '#ff4d4f', fontSize: 13, marginTop: 4 }}>
          {tt(error)}
        </div>
      )}
    </div>
  );
}

/** Form values with per-field checks; validate() shows every message and says whether all passed. */
export function useFields<K extends string>(
  checks: Record<K, Check>,
  initial: Partial<Record<K, string>> = {},
) {
  const keys = Object.keys(checks) as K[];
  const [values, setValues] = useState(
    () => Object.fromEntries(keys.map((k) => [k, initial[k] ?? ''])) as Record<K, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<K, PersonTextKey | null>>>({});
  const setValue = (key: K, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: checks[key](value) }));
  };
  const validate = (only?: K[]) => {
    const found = { ...errors };
    for (const key of only ?? keys) found[key] = checks[key](values[key]);
    setErrors(found);
    return (only ?? keys).every((key) => !found[key]);
  };
  return { values, errors, setValue, validate };
}

export function TextInput(props: {
  name: string;
  label: string;
  value: string;
  error?: PersonTextKey | null;
  onChange: (v: string) => void;
  inputMode?: 'tel' | 'numeric' | 'text';
  maxLength?: number;
  autoComplete?: string;
}) {
  const { name, label, value, error, onChange, inputMode, maxLength, autoComplete } = props;
  return (
    <Field id={name} label={label} error={error}>
      {(a11y) => (
        <Input
          {...a11y}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          inputMode={inputMode}
          maxLength={maxLength}
          autoComplete={autoComplete}
        />
      )}
    </Field>
  );
}

/** SMS code input with its 'Get code' button (60 s between sends). */
export function SmsField(props: {
  purpose: SmsPurpose;
  value: string;
  error?: PersonTextKey | null;
  onChange: (v: string) => void;
  getValidPhone: () => string | null;
}) {
  const tt = useTexts(texts);
  const [seconds, setSeconds] = useState(0);
  const [isSending, setIsSending] = useState(false);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  const send = async () => {
    const phone = props.getValidPhone();
    if (!phone) return;
    setIsSending(true);
    try {
      const answer = await sendSmsCode({ phone, purpose: props.purpose });
      setSeconds(answer.resendAfterSeconds || 60);
      notify.success(tt('codeSent'), 2000);
    } catch (error) {
      showApiError(error);
    } finally {
      setIsSending(false);
    }
  };
  return (
    <Field id="smsCode" label={tt('smsCode')} error={props.error}>
      {(a11y) => (
        <div style={{ display: 'flex', gap: 8 }}>
          <Input
            {...a11y}
            name="smsCode"
            value={props.value}
            onChange={(e) => props.onChange(e.target.value)}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
          />
          <Button onClick={send} disabled={seconds > 0} loading={isSending} style={{ minWidth: 116 }}>
            {seconds > 0 ? tt('resend', { seconds }) : tt('getCode')}
          </Button>
        </div>
      )}
    </Field>
  );
}

export function PlainForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** Real-name check: name, ID number, phone, SMS code (purpose realName). */
export function RealNameForm(props: {
  isDevelopment: boolean | undefined;
  onDone: (s: OpenSignStatus) => void;
}) {
  const tt = useTexts(texts);
  // the account's phone is known: prefilled (the person may still give another number of their own)
  const knownPhone = useSessionStore((s) => s.userInfo?.phone) ?? '';
  const form = useFields(
    {
      name: checkName,
      idNumber: (v) => checkIdNumberField(v),
      phone: checkPhone,
      smsCode: checkSmsCode,
    },
    { phone: /^1\d{10}$/.test(knownPhone) ? knownPhone : '' },
  );
  const [isBusy, setIsBusy] = useState(false);
  const submit = async () => {
    if (!form.validate()) return;
    setIsBusy(true);
    try {
      const { name, idNumber, phone, smsCode } = form.values;
      const status = await authIdNamePhone({
        name: name.trim(),
        idNumber: idNumber.trim().toUpperCase(),
        phone: phone.trim(),
        smsCode: smsCode.trim(),
      });
      notify.success(tt('realNameDone'), 2000);
      await refreshLoginInfo();
      props.onDone(status);
    } catch (error) {
      showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <PlainForm onSubmit={submit}>
      <DevProviderNotice isDevelopment={props.isDevelopment} />
      <TextInput
        name="name"
        label={tt('name')}
        value={form.values.name}
        error={form.errors.name}
        onChange={(v) => form.setValue('name', v)}
        autoComplete="name"
        maxLength={30}
      />
      <TextInput
        name="idNumber"
        label={tt('idNumber')}
        value={form.values.idNumber}
        error={form.errors.idNumber}
        onChange={(v) => form.setValue('idNumber', v)}
        maxLength={18}
        autoComplete="off"
      />
      <TextInput
        name="phone"
        label={tt('phone')}
        value={form.values.phone}
        error={form.errors.phone}
        onChange={(v) => form.setValue('phone', v)}
        inputMode="tel"
        maxLength={11}
        autoComplete="tel"
      />
      <SmsField
        purpose="realName"
        value={form.values.smsCode}
        error={form.errors.smsCode}
        onChange={(v) => form.setValue('smsCode', v)}
        getValidPhone={() => (form.validate(['phone']) ? form.values.phone.trim() : null)}
      />
      <Button type="primary" htmlType="submit" block loading={isBusy}>
        {tt('realNameSubmit')}
      </Button>
    </PlainForm>
  );
}

/** The agreement text in the chosen language, with the accept button when someone is logged in. */
export function AgreementView(props: { onAccepted?: () => void; acceptLabel?: string }) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const formatTime = useFormatTime();
  const [agreement, setAgreement] = useState<UserAgreement | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isLoggedIn = Boolean(getToken());
  useEffect(() => {
    getUserAgreement().then(setAgreement, showApiError);
  }, []);
  if (!agreement) return <p>{tt('checking')}</p>;
  const lang = locale === 'zh-CN' ? 'zh' : 'en';
  const accept = async () => {
    setIsBusy(true);
    try {
      const accepted = await acceptUserAgreement({ version: agreement.version });
      setAgreement({ ...agreement, acceptedAt: accepted.acceptedAt });
      props.onAccepted?.();
    } catch (error) {
      showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <section aria-labelledby="agreement-title">
      <h2 id="agreement-title" style={{ fontSize: 20 }}>
        {agreement.title[lang]}
      </h2>
      <p style={{ color: '#888' }}>{tt('agreementVersion', { version: agreement.version })}</p>
      <div
        style={{
          whiteSpace: 'pre-wrap',
          maxHeight: 360,
          overflowY: 'auto',
          border: '1px solid #eee',
          padding: 12,
          borderRadius: 6,
          lineHeight: 1.7,
        }}
      >
        {agreement.text[lang]}
      </div>
      <div style={{ marginTop: 16 }}>
        {agreement.acceptedAt && <p>{tt('acceptedAt', { time: formatTime(agreement.acceptedAt) })}</p>}
        {isLoggedIn && (!agreement.acceptedAt || props.onAccepted) && (
          <Button type="primary" block loading={isBusy} onClick={accept}>
            {props.acceptLabel ?? tt('accept')}
          </Button>
        )}
        {!isLoggedIn && <p>{tt('loginToAccept')}</p>}
      </div>
    </section>
  );
}

/** Save the certificate PEM as a file. */
function downloadPem(cert: PersonCert) {
  const url = URL.createObjectURL(new Blob([cert.pem], { type: 'application/x-pem-file' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `certificate-${cert.serial}.pem`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Certificate details with the PEM download. */
export function CertView({ cert }: { cert: PersonCert }) {
  const tt = useTexts(texts);
  const formatTime = useFormatTime();
  return (
    <section aria-label={tt('certTitle')} data-testid="person-cert">
      <Descriptions
        column={1}
        bordered
        size="small"
        title={tt('certTitle')}
        items={[
          {
            key: 'serial',
            label: tt('certSerial'),
            children: <code style={{ wordBreak: 'break-all' }}>{cert.serial}</code>,
          },
          {
            key: 'subject',
            label: tt('certSubject'),
            children: <DnText dn={cert.subject} testId="cert-subject" />,
          },
          {
            key: 'issuer',
            label: tt('certIssuer'),
            children: <DnText dn={cert.issuer} testId="cert-issuer" />,
          },
          { key: 'from', label: tt('certValidFrom'), children: formatTime(cert.notBefore) },
          { key: 'to', label: tt('certValidTo'), children: formatTime(cert.notAfter) },
          {
            key: 'status',
            label: tt('certStatus'),
            children: (
              <Tag color={cert.status === 'good' ? 'blue' : 'red'}>
                {cert.status === 'good' ? tt('certGood') : tt('certRevoked')}
              </Tag>
            ),
          },
        ]}
      />
      <Button style={{ marginTop: 12 }} onClick={() => downloadPem(cert)}>
        {tt('downloadCert')}
      </Button>
    </section>
  );
}
