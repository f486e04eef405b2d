import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  getSigningRoom,
  type RoomOnboarding,
  roomAcceptAgreement,
  roomConfirmCompany,
  roomOpenCompany,
  roomQuery,
  roomProvePhone,
  roomRealName,
  roomTokenFor,
  sendSignSmsCode,
} from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { getUserAgreement, type UserAgreement } from '@/api/person.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { checkIdNumberField, checkName, personFieldTexts } from '@/lib/person-fields.ts';
import { transitionTarget } from './device.ts';
import { inputStyle, Notice } from './light-ui.tsx';
import { NoRoomNotice } from './no-room-notice.tsx';
import { onboardingTexts } from './onboarding-texts.ts';
import { Field, RoomBrandBar, SmsCodeInput } from './parts.tsx';
import { showApiError } from '@/api/http.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'no-room' }
  | { kind: 'error'; text: string }
  | { kind: 'ready'; token: string; onboarding: RoomOnboarding };

/** A refusal's text, shown inline only (one message, where the form is; no toast on top of it). */
const problemOf = (e: unknown) =>
  e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e);

const BOX = { maxWidth: 520, margin: '0 auto', padding: '24px 16px' } as const;

/**
 * The signing room's onboarding (issue 11), on `/h5/v1/nameAuthentication`, `/pc/v1/nameAuthentication` and
 * `/h5/v1/userAgreement` with the room's query (flowId, partyId): a signer without a real name or certificate
 * confirms name and ID number (the phone is the one the room login proved: shown, fixed), accepts the
 * certificate usage agreement, and goes back to the same room, ready to sign. No workspace, no password.
 * An embedded room (an integrator's URL) first proves its phone with an SMS code (issue 23).
 */
export default function RoomOnboardingPage() {
  const tt = useTexts(onboardingTexts);
  const pt = useTexts(personFieldTexts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const isPhone = pathname.startsWith(paths.h5);
  const flowId = search.get('flowId') ?? '';
  const partyId = search.get('partyId') ?? '';
  const [state, setState] = useState<State>(() => (partyId ? { kind: 'loading' } : { kind: 'no-room' }));
  const [agreement, setAgreement] = useState<UserAgreement | null>(null);
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [errors, setErrors] = useState<{ name?: string | null; id?: string | null }>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [creditCode, setCreditCode] = useState('');
  const [legalRepName, setLegalRepName] = useState('');
  const [amount, setAmount] = useState('');
  const [smsCode, setSmsCode] = useState('');
  // Whether this visit began by proving the phone: the step count then has three steps.
  const [hadPhoneStep, setHadPhoneStep] = useState(false);

  const roomPath = transitionTarget(search, isPhone);
  const extra: Record<string, string> = {};
  const room = search.get('room');
  if (room) extra.room = room;
  const query = roomQuery({ flowId, partyId }, extra);

  useEffect(() => {
    const token = partyId ? roomTokenFor(partyId) : null;
    if (!token) {
      setState({ kind: 'no-room' });
      return;
    }
    let isLive = true;
    getSigningRoom({ roomToken: token })
      .then((r) => {
        if (!isLive) return;
        setState({ kind: 'ready', token, onboarding: r.onboarding });
        if (r.onboarding.step === 'provePhone') setHadPhoneStep(true);
        setName((n) => n || r.onboarding.expectedName || '');
      })
      .catch((e) => isLive && setState({ kind: 'error', text: showApiError(e) }));
    return () => {
      isLive = false;
    };
  }, [partyId]);

  const step = state.kind === 'ready' ? state.onboarding.step : null;
  useEffect(() => {
    if (step === 'userAgreement' && !agreement) getUserAgreement().then(setAgreement, () => {});
    // Nothing left to do here: back to the room.
    if (step === 'none') navigate(roomPath, { replace: true });
  }, [step, agreement, navigate, roomPath]);

  if (state.kind === 'loading') return <main style={{ ...BOX, textAlign: 'center', color: '#666' }}>…</main>;
  if (state.kind === 'error')
    return (
      <main style={BOX}>
        <Notice type="warning" title={state.text} />
      </main>
    );
  if (state.kind !== 'ready') return <NoRoomNotice style={BOX} ids={{ flowId, partyId }} />;
  const { token, onboarding } = state;

  const provePhone = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(smsCode)) return setErrors({ id: tt('codeRequired') });
    setErrors({});
    setIsBusy(true);
    setProblem(null);
    try {
      const next = await roomProvePhone({ roomToken: token, smsCode });
      setState({ kind: 'ready', token, onboarding: next });
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setIsBusy(false);
    }
  };

  const submitName = async (e: React.FormEvent) => {
    e.preventDefault();
    const nameKey = checkName(name);
    const idKey = checkIdNumberField(idNumber.trim().toUpperCase());
    setErrors({ name: nameKey ? pt(nameKey) : null, id: idKey ? pt(idKey) : null });
    if (nameKey || idKey) return;
    setIsBusy(true);
    setProblem(null);
    try {
      const next = await roomRealName({
        roomToken: token,
        name: name.trim(),
        idNumber: idNumber.trim().toUpperCase(),
      });
      // On a phone the agreement is its own route (its page loads the new state); on a PC it follows here.
      if (isPhone && next.step === 'userAgreement') return navigate(`${paths.h5UserAgreement}${query}`);
      setState({ kind: 'ready', token, onboarding: next });
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setIsBusy(false);
    }
  };

  const accept = async () => {
    setIsBusy(true);
    setProblem(null);
    try {
      const next = await roomAcceptAgreement({ roomToken: token, version: onboarding.agreementVersion });
      setState({ kind: 'ready', token, onboarding: next });
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setIsBusy(false);
    }
  };

  const openCompany = async (e: React.FormEvent) => {
    e.preventDefault();
    const code = creditCode.trim().toUpperCase();
    const rep = (legalRepName || onboarding.realName || '').trim();
    if (code.length !== 18) return setErrors({ id: tt('creditCodeRequired') });
    setErrors({});
    setIsBusy(true);
    setProblem(null);
    try {
      const next = await roomOpenCompany({ roomToken: token, creditCode: code, legalRepName: rep });
      setState({ kind: 'ready', token, onboarding: next });
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setIsBusy(false);
    }
  };

  const confirmCompany = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!amount.trim()) return setErrors({ name: tt('amountRequired') });
    setErrors({});
    setIsBusy(true);
    setProblem(null);
    try {
      const next = await roomConfirmCompany({ roomToken: token, amount: amount.trim() });
      setState({ kind: 'ready', token, onboarding: next });
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setIsBusy(false);
    }
  };

  const lang = locale === 'zh-CN' ? 'zh' : 'en';
  return (
    <main style={{ ...BOX, background: '#fff', minHeight: '100vh' }} className="room-onboarding">
      <RoomBrandBar />
      <p style={{ color: '#999', margin: '0 0 4px', fontSize: 14 }}>
        {tt('stepOf', {
          n:
            (hadPhoneStep && onboarding.step !== 'provePhone' ? 1 : 0) +
            (onboarding.step === 'provePhone' || onboarding.step === 'nameAuthentication' ? 1 : 2),
          total: hadPhoneStep ? 3 : 2,
        })}
      </p>
      {onboarding.identityProvider.isDevelopment ? (
        <Notice type="warning" title={tt('devProvider')} style={{ marginBottom: 12 }} />
      ) : null}
      {problem ? <Notice type="error" title={problem} style={{ marginBottom: 12 }} /> : null}
      {onboarding.step === 'provePhone' ? (
        <form onSubmit={provePhone} noValidate>
          <h1 style={{ fontSize: 20 }}>{tt('proveTitle')}</h1>
          <p style={{ color: '#666' }}>{tt('proveIntro', { phone: onboarding.phoneMasked })}</p>
          <SmsCodeInput
            value={smsCode}
            onChange={setSmsCode}
            error={errors.id}
            send={() => sendSignSmsCode({ roomToken: token, purpose: 'roomLogin' })}
          />
          <PlainButton kind="primary" htmlType="submit" isBlock size="large" isBusy={isBusy}>
            {tt('next')}
          </PlainButton>
        </form>
      ) : onboarding.step === 'nameAuthentication' ? (
        <form onSubmit={submitName} noValidate>
          <h1 style={{ fontSize: 20 }}>{tt('nameTitle')}</h1>
          <p style={{ color: '#666' }}>{tt('nameIntro')}</p>
          <Field label={tt('phone')}>
            {(a11y) => (
              <input {...a11y} value={onboarding.phoneMasked} readOnly disabled style={inputStyle} />
            )}
          </Field>
          <Field label={tt('name')} error={errors.name}>
            {(a11y) => (
              <input
                {...a11y}
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoComplete="name"
                maxLength={30}
                style={inputStyle}
              />
            )}
          </Field>
          <Field label={tt('idNumber')} error={errors.id}>
            {(a11y) => (
              <input
                {...a11y}
                value={idNumber}
                onChange={(e) => setIdNumber(e.target.value.trim())}
                maxLength={18}
                autoComplete="off"
                style={inputStyle}
              />
            )}
          </Field>
          <PlainButton kind="primary" htmlType="submit" isBlock size="large" isBusy={isBusy}>
            {tt('next')}
          </PlainButton>
        </form>
      ) : onboarding.step === 'userAgreement' ? (
        <section>
          <h1 style={{ fontSize: 20 }}>{agreement ? agreement.title[lang] : tt('agreementTitle')}</h1>
          <p style={{ color: '#666' }}>{tt('agreementIntro')}</p>
          <div
            style={{
              maxHeight: isPhone ? '45vh' : 360,
              overflowY: 'auto',
              border: '1px solid #eee',
              borderRadius: 8,
              padding: 12,
              whiteSpace: 'pre-wrap',
              fontSize: 14,
              marginBottom: 16,
            }}
            data-testid="agreement-text"
          >
            {agreement ? agreement.text[lang] : '…'}
          </div>
          <PlainButton kind="primary" isBlock size="large" isBusy={isBusy} onClick={accept}>
            {tt('accept')}
          </PlainButton>
        </section>
      ) : onboarding.step === 'openCompany' && onboarding.company ? (
        <section>
          <h1 style={{ fontSize: 20 }}>{tt('companyTitle')}</h1>
          <p style={{ color: '#666' }}>{tt('companyIntro')}</p>
          <Field label={tt('companyName')}>
            {(a11y) => (
              <input {...a11y} value={onboarding.company?.name ?? ''} readOnly disabled style={inputStyle} />
            )}
          </Field>
          {onboarding.company.isPaymentSent ? (
            <form onSubmit={confirmCompany} noValidate>
              <Notice
                type="info"
                title={tt('paymentSent')}
                description={onboarding.company.provider === 'development' ? tt('paymentDev') : undefined}
                style={{ marginBottom: 12 }}
              />
              <Field label={tt('amount')} error={errors.name}>
                {(a11y) => (
                  <input
                    {...a11y}
                    value={amount}
                    onChange={(e) => setAmount(e.target.value.trim())}
                    inputMode="decimal"
                    maxLength={6}
                    style={inputStyle}
                  />
                )}
              </Field>
              <PlainButton kind="primary" htmlType="submit" isBlock size="large" isBusy={isBusy}>
                {tt('confirmCompany')}
              </PlainButton>
            </form>
          ) : (
            <form onSubmit={openCompany} noValidate>
              <Field label={tt('creditCode')} error={errors.id}>
                {(a11y) => (
                  <input
                    {...a11y}
                    value={creditCode}
                    onChange={(e) => setCreditCode(e.target.value.trim())}
                    maxLength={18}
                    autoComplete="off"
                    style={inputStyle}
                  />
                )}
              </Field>
              <Field label={tt('legalRep')}>
                {(a11y) => (
                  <input
                    {...a11y}
                    value={legalRepName || onboarding.realName || ''}
                    onChange={(e) => setLegalRepName(e.target.value)}
                    maxLength={30}
                    style={inputStyle}
                  />
                )}
              </Field>
              <p style={{ color: '#666', fontSize: 13 }}>{tt('legalRepHint')}</p>
              <PlainButton kind="primary" htmlType="submit" isBlock size="large" isBusy={isBusy}>
                {tt('sendPayment')}
              </PlainButton>
            </form>
          )}
        </section>
      ) : (
        <Notice type="info" title={tt('issued')} />
      )}
      <p style={{ marginTop: 16 }}>
        <a href={`#${roomPath}`}>{tt('backToRoom')}</a>
      </p>
    </main>
  );
}
