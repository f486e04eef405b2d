import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Steps from 'antd/es/steps';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { createPersonCaCert, type PersonCert } from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useScreenRedirect } from '@/hooks/use-safe-navigate.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { AgreementView, CertView, RealNameForm, useOpenStatus } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** Phone layout of the opening steps: a narrow column that fits 375 px. */
function MobileSteps({ current, children }: { current: number; children: ReactNode }) {
  const tt = useTexts(texts);
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto', boxSizing: 'border-box' }}>
      <h1 style={{ fontSize: 20 }}>{tt('openAccountTitle')}</h1>
      <Steps
        current={current}
        size="small"
        direction="horizontal"
        responsive={false}
        style={{ marginBottom: 16 }}
        items={[
          { title: tt('stepRealName') },
          { title: tt('stepAgreement') },
          { title: tt('stepCertificate') },
        ]}
      />
      {children}
    </main>
  );
}

/** /h5/openAccount: the entry of opening e-signature on a phone. */
export function OpenAccountEntryPage() {
  const tt = useTexts(texts);
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }}>
      <h1 style={{ fontSize: 22 }}>{tt('openAccountTitle')}</h1>
      <p>{tt('openAccountIntro')}</p>
      <Link to={paths.mobileOpenAccountBasic}>
        <Button type="primary" block size="large">
          {tt('start')}
        </Button>
      </Link>
    </main>
  );
}

/** /mobile/openAccount/basic: the real-name check. */
export function OpenAccountBasicPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const redirect = useScreenRedirect();
  const { status, isLoading } = useOpenStatus();
  useEffect(() => {
    if (status?.isRealNameDone) redirect(paths.mobileOpenAccountVerify);
  }, [status?.isRealNameDone, redirect]);
  return (
    <MobileSteps current={0}>
      {isLoading || !status ? (
        <p>{tt('checking')}</p>
      ) : (
        <RealNameForm
          isDevelopment={status.identityProvider.isDevelopment}
          onDone={() => navigate(paths.mobileOpenAccountVerify)}
        />
      )}
    </MobileSteps>
  );
}

/** /mobile/openAccount/verify: read and accept the certificate agreement. */
export function OpenAccountVerifyPage() {
  const navigate = useNavigate();
  const redirect = useScreenRedirect();
  const { status } = useOpenStatus();
  useEffect(() => {
    if (status && !status.isRealNameDone) redirect(paths.mobileOpenAccountBasic);
  }, [status, redirect]);
  return (
    <MobileSteps current={1}>
      <AgreementView onAccepted={() => navigate(paths.mobileOpenAccountFinish)} />
    </MobileSteps>
  );
}

/** /mobile/openAccount/finish: the certificate is issued (idempotent) and shown. */
export function OpenAccountFinishPage() {
  const tt = useTexts(texts);
  const redirect = useScreenRedirect();
  const [cert, setCert] = useState<PersonCert | null>(null);
  const { status } = useOpenStatus();
  useEffect(() => {
    if (!status) return;
    if (!status.isRealNameDone) redirect(paths.mobileOpenAccountBasic);
    else if (!status.isAgreementAccepted) redirect(paths.mobileOpenAccountVerify);
    else
      createPersonCaCert().then(async (issued) => {
        setCert(issued);
        await refreshLoginInfo();
      }, showApiError);
  }, [status, redirect]);
  return (
    <MobileSteps current={cert ? 3 : 2}>
      {cert ? (
        <>
          <Result
            status="success"
            title={tt('finishTitle')}
            subTitle={tt('doneText')}
            extra={
              <Link to={paths.accountStampPerson}>
                <Button type="primary">{tt('addSeal')}</Button>
              </Link>
            }
          />
          <CertView cert={cert} />
        </>
      ) : (
        <p>{tt('checking')}</p>
      )}
    </MobileSteps>
  );
}
