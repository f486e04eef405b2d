import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import { type CertRecord, sendCertChangeSmsCode } from '@/api/cert.ts';
import { DnText } from '@/components/dn-text.tsx';
import { useSmsCodeSender } from '@/hooks/use-sms-code-sender.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { texts } from './texts.ts';
import { useFormatTime } from '@/lib/format-time.ts';

const MESSAGE_MS = 2000;
export type CertTextKey = keyof (typeof texts)['en-US'];

/** The status tag of a certificate: valid, replaced (renewed but still valid), expired or revoked. */
function CertStatusTag({ cert }: { cert: CertRecord }) {
  const tt = useTexts(texts);
  if (cert.status === 'revoked') return <Tag color="red">{tt('statusRevoked')}</Tag>;
  if (cert.isExpired) return <Tag>{tt('statusExpired')}</Tag>;
  if (!cert.isCurrent) return <Tag color="gold">{tt('statusSuperseded')}</Tag>;
  return <Tag color="blue">{tt('statusGood')}</Tag>;
}

const wrap = { wordBreak: 'break-all' } as const;

/** Details of one certificate; `extra` rows go at the end (days left for the current one). */
export function CertDetails(props: {
  cert: CertRecord;
  title?: string;
  testId?: string;
  extra?: { key: string; label: string; children: React.ReactNode }[];
}) {
  const tt = useTexts(texts);
  const formatTime = useFormatTime();
  const { cert } = props;
  const reasonKey = cert.revocationReason ? (`reason_${cert.revocationReason}` as CertTextKey) : null;
  return (
    <Descriptions
      data-testid={props.testId}
      column={1}
      bordered
      size="small"
      title={props.title}
      styles={{ label: { width: 120 } }}
      items={[
        { key: 'holder', label: tt('holder'), children: <span style={wrap}>{cert.commonName}</span> },
        { key: 'serial', label: tt('serial'), children: <code style={wrap}>{cert.serial}</code> },
        {
          key: 'subject',
          label: tt('subject'),
          children: <DnText dn={cert.subject} testId="cert-subject" />,
        },
        { key: 'issuer', label: tt('issuer'), children: <DnText dn={cert.issuer} testId="cert-issuer" /> },
        { key: 'from', label: tt('validFrom'), children: formatTime(cert.notBefore) },
        { key: 'to', label: tt('validTo'), children: formatTime(cert.notAfter) },
        { key: 'status', label: tt('status'), children: <CertStatusTag cert={cert} /> },
        ...(cert.revokedAt
          ? [
              { key: 'revokedAt', label: tt('revokedAt'), children: formatTime(cert.revokedAt) },
              { key: 'reason', label: tt('revocationReason'), children: reasonKey ? tt(reasonKey) : '-' },
            ]
          : []),
        ...(props.extra ?? []),
      ]}
    />
  );
}

/** SMS code entry with its 'Get code' button; the code goes to the caller's own phone (server decides). */
export function SmsCodeField(props: {
  value: string;
  error: CertTextKey | null;
  phoneMasked: string;
  onChange: (v: string) => void;
}) {
  const tt = useTexts(texts);
  const { seconds, isSending, sendCode } = useSmsCodeSender(async () => {
    const sent = await sendCertChangeSmsCode();
    notify.success(tt('codeSent', { phone: sent.phoneMasked }), MESSAGE_MS);
    return sent;
  });
  return (
    <div style={{ marginTop: 16 }}>
      <label htmlFor="certSmsCode" style={{ display: 'block', marginBottom: 6 }}>
        {tt('smsCode')}
      </label>
      <div style={{ display: 'flex', gap: 8 }}>
        <Input
          id="certSmsCode"
          name="smsCode"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value.trim())}
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
          aria-invalid={Boolean(props.error)}
          aria-describedby={props.error ? 'certSmsCode-error' : 'certSmsCode-hint'}
          status={props.error ? 'error' : undefined}
        />
        <Button onClick={sendCode} disabled={seconds > 0} loading={isSending} style={{ minWidth: 116 }}>
          {seconds > 0 ? tt('resend', { seconds }) : tt('getCode')}
        </Button>
      </div>
      <div id="certSmsCode-hint" style={{ color: '#888', fontSize: 13, marginTop: 4 }}>
        {tt('smsHint', { phone: props.phoneMasked })}
      </div>
      {props.error && (
        <div id="certSmsCode-error" role="alert" style={{ color: '#ff4d4f', fontSize: 13, marginTop: 4 }}>
          {tt(props.error)}
        </div>
      )}
    </div>
  );
}

/** The same rule as the contract's zSmsCode, so the user sees a localized message before any call. */
export const checkSmsCode = (v: string): CertTextKey | null =>
  !v ? 'smsRequired' : /^\d{6}$/.test(v) ? null : 'smsFormat';
