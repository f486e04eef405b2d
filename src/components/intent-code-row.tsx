import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { useSmsCodeSender } from '@/hooks/use-sms-code-sender.ts';

/**
 * The issuer's intent check of an authorisation letter (issue 27): an 'SMS code' input and a 'Get code' button
 * that sends the code to the administrator's own phone and counts down the wait. Texts come from the screen.
 */
export function IntentCodeRow(props: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  send: () => Promise<{ resendAfterSeconds: number; phoneMasked: string }>;
  onSent?: (phoneMasked: string) => void;
  texts: { smsCode: string; getCode: string; resend: (seconds: number) => string; hint: string };
}) {
  const { seconds, isSending, sendCode } = useSmsCodeSender(async () => {
    const sent = await props.send();
    props.onSent?.(sent.phoneMasked);
    return sent;
  });
  return (
    <div style={{ margin: '12px 0' }}>
      <label htmlFor={props.id} style={{ display: 'block', marginBottom: 6 }}>
        {props.texts.smsCode}
      </label>
      <div style={{ display: 'flex', gap: 8, maxWidth: 360 }}>
        <Input
          id={props.id}
          name="smsCode"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value.trim())}
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
        />
        <Button
          onClick={() => void sendCode()}
          disabled={seconds > 0}
          loading={isSending}
          style={{ minWidth: 116 }}
        >
          {seconds > 0 ? props.texts.resend(seconds) : props.texts.getCode}
        </Button>
      </div>
      <div style={{ color: '#888', fontSize: 13, marginTop: 4 }}>{props.texts.hint}</div>
    </div>
  );
}
