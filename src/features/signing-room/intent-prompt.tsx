// The intent check the launcher chose for this party (issue 11), asked in the confirm dialog of the room:
// an SMS code, the signer's signing password (set or changed here with an SMS code to the room's phone), or
// a face check through the identity provider (the server decides the result; the room only starts it).
import { useState } from 'react';
import { type IntentCheck, sendSignSmsCode, setSigningPassword, startRoomFaceAuth } from '@/api/flow.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { Field, SMS_CODE_RE, SmsCodeInput } from './parts.tsx';
import { inputStyle } from './light-ui.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

export function IntentPrompt({
  intent,
  token,
  phoneMasked,
  onPhoneMasked,
  value,
  onChange,
  error,
  deviceType,
  returnPath,
}: {
  intent: IntentCheck;
  token: string;
  phoneMasked: string;
  onPhoneMasked: (masked: string) => void;
  /** The SMS code or the signing password typed. */
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  deviceType: 'h5' | 'pc';
  /** The room's route to come back to after a passed face check. */
  returnPath: string;
}) {
  const tt = useTexts(texts);
  if (intent === 'face')
    return <FacePrompt token={token} deviceType={deviceType} returnPath={returnPath} error={error} />;
  if (intent === 'password')
    return (
      <>
        <p>{tt('intentPasswordIntro')}</p>
        <Field label={tt('signingPassword')} error={error}>
          {(a11y) => (
            <input
              {...a11y}
              type="password"
              value={value}
              maxLength={32}
              autoComplete="current-password"
              onChange={(e) => onChange(e.target.value)}
              style={inputStyle}
            />
          )}
        </Field>
        <SetPassword token={token} phoneMasked={phoneMasked} onPhoneMasked={onPhoneMasked} />
      </>
    );
  return (
    <>
      <p>{tt('confirmIntro', { phone: phoneMasked })}</p>
      <SmsCodeInput
        value={value}
        onChange={(v) => onChange(v)}
        error={error}
        send={async () => {
          const answer = await sendSignSmsCode({ roomToken: token, purpose: 'sign' });
          onPhoneMasked(answer.phoneMasked);
          return answer;
        }}
      />
    </>
  );
}

function FacePrompt({
  token,
  deviceType,
  returnPath,
  error,
}: {
  token: string;
  deviceType: 'h5' | 'pc';
  returnPath: string;
  error: string | null;
}) {
  const tt = useTexts(texts);
  const [isStarting, setIsStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const start = async () => {
    setIsStarting(true);
    setStartError(null);
    try {
      const started = await startRoomFaceAuth({ roomToken: token, deviceType, signUrl: returnPath });
      window.location.assign(started.url);
    } catch (e) {
      setStartError(showApiError(e));
    } finally {
      setIsStarting(false);
    }
  };
  const shown = startError ?? error;
  return (
    <>
      <p>{tt('intentFaceIntro')}</p>
      <PlainButton onClick={start} isBusy={isStarting} style={{ marginBottom: 12 }}>
        {tt('startFace')}
      </PlainButton>
      {shown ? (
        <div role="alert" style={{ color: '#ff4d4f', marginBottom: 12 }}>
          {shown}
        </div>
      ) : null}
    </>
  );
}

function SetPassword({
  token,
  phoneMasked,
  onPhoneMasked,
}: {
  token: string;
  phoneMasked: string;
  onPhoneMasked: (masked: string) => void;
}) {
  const tt = useTexts(texts);
  const [isOpen, setIsOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  if (!isOpen)
    return (
      <div style={{ marginBottom: 12 }}>
        {isSaved ? (
          <div role="status" style={{ color: '#52c41a', marginBottom: 8 }}>
            {tt('passwordSaved')}
          </div>
        ) : null}
        <PlainButton kind="link" onClick={() => setIsOpen(true)}>
          {tt('setPassword')}
        </PlainButton>
      </div>
    );
  const save = async () => {
    if (!SMS_CODE_RE.test(code)) return setError(tt('codeInvalid'));
    if (password.length < 6 || password.length > 32) return setError(tt('newPasswordInvalid'));
    setIsSaving(true);
    try {
      await setSigningPassword({ roomToken: token, smsCode: code, password });
      setIsSaved(true);
      setIsOpen(false);
      setCode('');
      setPassword('');
      setError(null);
    } catch (e) {
      setError(showApiError(e));
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <fieldset style={{ border: '1px solid #eee', borderRadius: 4, padding: 12, marginBottom: 12 }}>
      <legend>{tt('setPassword')}</legend>
      <p style={{ marginTop: 0 }}>{tt('passwordCodeIntro', { phone: phoneMasked })}</p>
      <SmsCodeInput
        value={code}
        onChange={setCode}
        send={async () => {
          const answer = await sendSignSmsCode({ roomToken: token, purpose: 'signingPassword' });
          onPhoneMasked(answer.phoneMasked);
          return answer;
        }}
      />
      <Field label={tt('newPassword')} error={error}>
        {(a11y) => (
          <input
            {...a11y}
            type="password"
            value={password}
            maxLength={32}
            autoComplete="new-password"
            onChange={(e) => setPassword(e.target.value)}
            style={inputStyle}
          />
        )}
      </Field>
      <PlainButton kind="primary" isBusy={isSaving} onClick={save}>
        {tt('savePassword')}
      </PlainButton>
    </fieldset>
  );
}
