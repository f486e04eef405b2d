import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Result from 'antd/es/result';
import Steps from 'antd/es/steps';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { createPersonCaCert, getPersonCaCert, type PersonCert } from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { AgreementView, CertView, RealNameForm, useOpenStatus } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** PC: open personal e-signature in steps — real name, agreement, certificate, done. */
export default function PersonalEsignPage() {
  const tt = useTexts(texts);
  const { status, reload, isLoading } = useOpenStatus();
  const [cert, setCert] = useState<PersonCert | null>(null);
  const [isIssuing, setIsIssuing] = useState(false);

  useEffect(() => {
    if (status?.hasCaCert) getPersonCaCert().then(setCert, showApiError);
  }, [status?.hasCaCert]);

  const step = !status?.isRealNameDone ? 0 : !status.isAgreementAccepted ? 1 : !status.hasCaCert ? 2 : 3;
  const issue = async () => {
    setIsIssuing(true);
    try {
      setCert(await createPersonCaCert());
      notify.success(tt('certIssued'), 2000);
      await refreshLoginInfo();
      await reload();
    } catch (error) {
      showApiError(error);
    } finally {
      setIsIssuing(false);
    }
  };

  return (
    <main style={{ padding: 24, maxWidth: 880 }}>
      <h1 style={{ fontSize: 24 }}>{tt('openTitle')}</h1>
      <Steps
        current={step}
        style={{ margin: '24px 0' }}
        items={[
          { title: tt('stepRealName') },
          { title: tt('stepAgreement') },
          { title: tt('stepCertificate') },
          { title: tt('stepDone') },
        ]}
      />
      {isLoading || !status ? (
        <p>{tt('checking')}</p>
      ) : (
        <Card>
          {step === 0 && (
            <div style={{ maxWidth: 480 }}>
              <h2 style={{ fontSize: 20 }}>{tt('realNameTitle')}</h2>
              <RealNameForm
                isDevelopment={status.identityProvider.isDevelopment}
                onDone={() => void reload()}
              />
            </div>
          )}
          {step === 1 && <AgreementView onAccepted={() => void reload()} />}
          {step === 2 && (
            <div>
              <h2 style={{ fontSize: 20 }}>{tt('stepCertificate')}</h2>
              <Button type="primary" loading={isIssuing} onClick={issue}>
                {tt('issueCert')}
              </Button>
            </div>
          )}
          {step === 3 && (
            <>
              <Result
                status="success"
                title={tt('doneTitle')}
                subTitle={tt('doneText')}
                extra={[
                  <Link key="seal" to={paths.accountStampPerson}>
                    <Button type="primary">{tt('addSeal')}</Button>
                  </Link>,
                  <Link key="details" to={paths.personalDetails}>
                    <Button>{tt('toDetails')}</Button>
                  </Link>,
                ]}
              />
              {cert && <CertView cert={cert} />}
            </>
          )}
        </Card>
      )}
    </main>
  );
}
