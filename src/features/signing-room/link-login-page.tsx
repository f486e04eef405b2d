import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { roomQuery, saveRoomLogin, sendLinkSmsCode, signingRoomLoginByLinkCode } from '@/api/flow.ts';
import { paths } from '@/config/paths.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { Field, PHONE_RE, RoomBrandBar, SMS_CODE_RE, SmsCodeInput } from './parts.tsx';
import { inputStyle, Notice } from './light-ui.tsx';
import { texts } from './texts.ts';
import { ApiError, showApiError } from '@/api/http.ts';
import { Code } from '#contract/codes.ts';

/** Whether a link's parts can be a signing link at all (checked again, for real, by the server). */
export function parseLink(params: {
  linkType?: string;
  linkCode?: string;
}): { linkType: number; linkCode: string } | null {
  const linkType = Number(params.linkType);
  const linkCode = params.linkCode ?? '';
  if (!(linkType === 1 || linkType === 2)) return null;
  if (linkCode.length < 16 || linkCode.length > 100 || !/^[\w-]+$/.test(linkCode)) return null;
  return { linkType, linkCode };
}

/**
 * /singingRoom/:linkType/:linkCode[/:oxqSignValue]: the party proves it holds the phone the link was sent to
 * (SMS code), gets a room token scoped to its one party, and goes on through the transition. A logged-in
 * user finds the phone filled in.
 */
export default function LinkLoginPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const link = parseLink(useParams());
  const myPhone = useSessionStore((s) => s.userInfo?.phone ?? '');
  const [phone, setPhone] = useState(myPhone);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ phone?: string; code?: string }>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  if (!link) {
    return (
      <main style={{ maxWidth: 420, margin: '48px auto', padding: 16 }}>
        <Notice type="error" title={tt('badLink')} />
      </main>
    );
  }

  const validPhone = () => {
    const ok = PHONE_RE.test(phone);
    setErrors((e) => ({ ...e, phone: ok ? undefined : tt('phoneInvalid') }));
    return ok ? phone : null;
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const p = validPhone();
    const codeOk = SMS_CODE_RE.test(code);
    setErrors({ phone: p ? undefined : tt('phoneInvalid'), code: codeOk ? undefined : tt('codeInvalid') });
    if (!p || !codeOk) return;
    setIsBusy(true);
    setProblem(null);
    try {
      const login = await signingRoomLoginByLinkCode({ ...link, phone: p, smsCode: code });
      saveRoomLogin(login);
      navigate(`${paths.signingRoomTransition}${roomQuery(login)}`, { replace: true });
    } catch (err) {
      setProblem(showApiError(err));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <main style={{ maxWidth: 420, margin: '0 auto', padding: '32px 16px' }}>
      <RoomBrandBar />
      <h1 style={{ fontSize: 22 }}>{tt('linkTitle')}</h1>
      <p style={{ color: '#666' }}>{tt('linkIntro')}</p>
      {problem ? <Notice type="error" title={problem} style={{ marginBottom: 16 }} /> : null}
      <form onSubmit={submit} noValidate>
        <Field label={tt('phone')} error={errors.phone}>
          {(a11y) => (
            <input
              {...a11y}
              value={phone}
              onChange={(e) => setPhone(e.target.value.trim())}
              inputMode="tel"
              maxLength={11}
              autoComplete="tel"
              style={inputStyle}
            />
          )}
        </Field>
        <SmsCodeInput
          value={code}
          onChange={setCode}
          error={errors.code}
          send={async () => {
            const p = validPhone();
            if (!p) return null;
            setProblem(null);
            try {
              return await sendLinkSmsCode({ ...link, phone: p });
            } catch (err) {
              // A link that no longer works (handed over, ended, replaced) stays said on the page, not in a
              // message that fades: there is nothing else to do here.
              if (err instanceof ApiError && err.code === Code.LinkInvalid) {
                setProblem(err.message);
                return null;
              }
              throw err;
            }
          }}
        />
        <PlainButton kind="primary" htmlType="submit" isBlock size="large" isBusy={isBusy}>
          {tt('enter')}
        </PlainButton>
      </form>
    </main>
  );
}
