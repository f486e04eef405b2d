import { UserType } from '#contract/enums.ts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  type CertChangeInfo,
  type CertChangeReason,
  getCertChangeInfo,
  reissueCaCert,
  renewCaCert,
} from '@/api/cert.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { CertDetails, type CertTextKey, checkSmsCode, SmsCodeField } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

type Dialog = 'renew' | 'reissue' | null;

/** The fixed list of reasons (contract/calls/cert.ts), each with its label and consequence. */
const REASONS: readonly { value: CertChangeReason; label: CertTextKey; hint: CertTextKey }[] = [
  { value: 'nameChanged', label: 'reasonNameChanged', hint: 'reasonHintNameChanged' },
  { value: 'keyCompromise', label: 'reasonKeyCompromise', hint: 'reasonHintKeyCompromise' },
  { value: 'cessationOfOperation', label: 'reasonCessation', hint: 'reasonHintCessation' },
];

const page = { padding: 16, maxWidth: 880, margin: '0 auto', boxSizing: 'border-box' as const };

/** /manage/certChange: the current certificate, renew, revoke-and-reissue with a reason, history. */
export default function CertChangePage() {
  const tt = useTexts(texts);
  const [info, setInfo] = useState<CertChangeInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setInfo(await getCertChangeInfo());
      setLoadError(null);
    } catch (error) {
      setLoadError(showApiError(error));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const onChanged = async (message: string) => {
    setDialog(null);
    setSuccess(message);
    await Promise.all([reload(), refreshLoginInfo()]);
  };

  if (!info) {
    return (
      <main style={page}>
        <h1 style={{ fontSize: 24 }}>{tt('title')}</h1>
        {loadError ? <Alert type="error" showIcon title={loadError} /> : <p>{tt('loading')}</p>}
      </main>
    );
  }
  const isCompany = info.userType === UserType.Company;
  const current = info.current;
  return (
    <main style={page}>
      <h1 style={{ fontSize: 24 }}>{tt('title')}</h1>
      <p style={{ color: '#555' }}>{isCompany ? tt('introCompany') : tt('intro')}</p>
      {success && (
        <Alert
          type="success"
          showIcon
          closable
          data-testid="cert-change-success"
          title={success}
          onClose={() => setSuccess(null)}
          style={{ marginBottom: 16 }}
        />
      )}
      {info.role === 'operator' && (
        <Alert type="info" showIcon title={tt('operatorOnly')} style={{ marginBottom: 16 }} />
      )}

      <section aria-labelledby="current-cert-title" style={{ marginBottom: 24 }}>
        <h2 id="current-cert-title" style={{ fontSize: 18 }}>
          {tt('currentTitle')}
        </h2>
        {current ? (
          <>
            {info.isRenewalAdvised && (
              <Alert
                type="warning"
                showIcon
                title={tt('renewAdvised', { days: info.daysLeft ?? 0 })}
                style={{ marginBottom: 12 }}
              />
            )}
            {info.isNameChanged && info.currentName && (
              <Alert
                type="info"
                showIcon
                title={tt('nameChangedNotice', { name: info.currentName })}
                style={{ marginBottom: 12 }}
              />
            )}
            <CertDetails
              cert={current}
              testId="current-cert"
              extra={[
                {
                  key: 'days',
                  label: tt('daysLeft'),
                  children: tt('daysLeftValue', { days: info.daysLeft ?? 0 }),
                },
              ]}
            />
            {info.canChange && (
              <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginTop: 16 }}>
                <Button type="primary" onClick={() => setDialog('renew')}>
                  {tt('renew')}
                </Button>
                <Button danger onClick={() => setDialog('reissue')}>
                  {tt('reissue')}
                </Button>
              </div>
            )}
          </>
        ) : (
          <Empty description={tt('noCert')}>
            <p>{tt('noCertHint')}</p>
            {info.role !== 'operator' && (
              <Link to={isCompany ? paths.manageEnterpriseEsign : paths.managePersonalEsign}>
                <Button type="primary">{isCompany ? tt('openCompany') : tt('openPerson')}</Button>
              </Link>
            )}
          </Empty>
        )}
      </section>

      <section aria-labelledby="cert-history-title" data-testid="cert-history">
        <h2 id="cert-history-title" style={{ fontSize: 18 }}>
          {tt('historyTitle')}
        </h2>
        {info.history.length === 0 ? (
          <p style={{ color: '#888' }}>{tt('historyEmpty')}</p>
        ) : (
          <ol style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 12 }}>
            {info.history.map((cert) => (
              <li key={cert.serial} data-testid="cert-history-item">
                <CertDetails cert={cert} />
              </li>
            ))}
          </ol>
        )}
      </section>

      {current && dialog === 'renew' && (
        <RenewDialog
          phoneMasked={info.phoneMasked}
          onClose={() => setDialog(null)}
          onDone={(serial) => onChanged(tt('renewed', { serial }))}
        />
      )}
      {current && dialog === 'reissue' && (
        <ReissueDialog
          info={info}
          onClose={() => setDialog(null)}
          onDone={(serial) => onChanged(tt('reissued', { serial }))}
        />
      )}
    </main>
  );
}

function RenewDialog(props: { phoneMasked: string; onClose: () => void; onDone: (serial: string) => void }) {
  const tt = useTexts(texts);
  const [smsCode, setSmsCode] = useState('');
  const [smsError, setSmsError] = useState<CertTextKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const submit = async () => {
    const problem = checkSmsCode(smsCode);
    setSmsError(problem);
    if (problem) return;
    setIsBusy(true);
    setError(null);
    try {
      const renewed = await renewCaCert({ smsCode });
      props.onDone(renewed.certificate.serial);
    } catch (e) {
      setError(showApiError(e));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Modal
      open
      title={tt('renewTitle')}
      onCancel={props.onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={props.onClose}>
          {tt('cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={isBusy} onClick={submit}>
          {tt('confirmRenew')}
        </Button>,
      ]}
    >
      <p>{tt('renewConsequences')}</p>
      <SmsCodeField
        value={smsCode}
        error={smsError}
        phoneMasked={props.phoneMasked}
        onChange={(v) => {
          setSmsCode(v);
          if (smsError) setSmsError(checkSmsCode(v));
        }}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}

function ReissueDialog(props: {
  info: CertChangeInfo;
  onClose: () => void;
  onDone: (serial: string) => void;
}) {
  const tt = useTexts(texts);
  const { info } = props;
  const isCompany = info.userType === UserType.Company;
  const [reason, setReason] = useState<CertChangeReason | null>(info.isNameChanged ? 'nameChanged' : null);
  const [reasonError, setReasonError] = useState(false);
  const [smsCode, setSmsCode] = useState('');
  const [smsError, setSmsError] = useState<CertTextKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const chosen = REASONS.find((r) => r.value === reason);
  // The server refuses this too; saying it here first spares a useless SMS code.
  const isNameBlocked = reason === 'nameChanged' && !info.isNameChanged;
  const name = info.currentName ?? info.current?.commonName ?? '';

  const submit = async () => {
    const problem = checkSmsCode(smsCode);
    setSmsError(problem);
    setReasonError(!reason);
    if (!reason || problem || isNameBlocked) return;
    setIsBusy(true);
    setError(null);
    try {
      const done = await reissueCaCert({ reason, smsCode });
      props.onDone(done.certificate.serial);
    } catch (e) {
      setError(showApiError(e));
    } finally {
      setIsBusy(false);
    }
  };
  const hint = (r: (typeof REASONS)[number]) =>
    r.value === 'nameChanged' && isCompany ? tt('reasonHintNameChangedCompany') : tt(r.hint);

  return (
    <Modal
      open
      title={tt('reissueTitle')}
      onCancel={props.onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={props.onClose}>
          {tt('cancel')}
        </Button>,
        <Button key="ok" type="primary" danger loading={isBusy} disabled={isNameBlocked} onClick={submit}>
          {tt('confirmReissue')}
        </Button>,
      ]}
    >
      <div>
        <div id="reissue-reason-label" style={{ marginBottom: 6 }}>
          {tt('reason')}
        </div>
        <Radio.Group
          aria-labelledby="reissue-reason-label"
          aria-describedby={reasonError ? 'reissue-reason-error' : undefined}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value as CertChangeReason);
            setReasonError(false);
          }}
          style={{ display: 'grid', gap: 8 }}
        >
          {REASONS.map((r) => (
            <Radio key={r.value} value={r.value}>
              {tt(r.label)}
            </Radio>
          ))}
        </Radio.Group>
        {reasonError && (
          <div
            id="reissue-reason-error"
            role="alert"
            style={{ color: '#ff4d4f', fontSize: 13, marginTop: 4 }}
          >
            {tt('reasonRequired')}
          </div>
        )}
      </div>
      {chosen && (
        <p data-testid="reason-hint" style={{ marginTop: 12 }}>
          {hint(chosen)}
        </p>
      )}
      {isNameBlocked && (
        <Alert
          type="warning"
          showIcon
          data-testid="name-unchanged"
          title={tt(isCompany ? 'nameUnchangedCompany' : 'nameUnchanged', { name })}
          action={
            isCompany ? undefined : (
              <Link to={paths.personalDetails}>
                <Button size="small">{tt('toDetails')}</Button>
              </Link>
            )
          }
          style={{ marginTop: 12 }}
        />
      )}
      <Alert type="warning" showIcon title={tt('reissueConsequences', { name })} style={{ marginTop: 12 }} />
      <SmsCodeField
        value={smsCode}
        error={smsError}
        phoneMasked={info.phoneMasked}
        onChange={(v) => {
          setSmsCode(v);
          if (smsError) setSmsError(checkSmsCode(v));
        }}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
