import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  getPersonCaCert,
  getPersonalDetails,
  type PersonalDetails,
  type PersonCert,
  startFaceAuth,
} from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { NoticeEmailCard } from './notice-email-card.tsx';
import { SigningPasswordCard } from './signing-password-card.tsx';
import { CertView } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { useFormatTime } from '@/lib/format-time.ts';

/** The logged-in person's details: masked ID and phone, verification, certificate with PEM download. */
export default function PersonalDetailsPage() {
  const tt = useTexts(texts);
  const formatTime = useFormatTime();
  const [details, setDetails] = useState<PersonalDetails | null>(null);
  const [cert, setCert] = useState<PersonCert | null>(null);
  useEffect(() => {
    getPersonalDetails().then(setDetails, showApiError);
    getPersonCaCert().then(setCert, showApiError);
  }, []);
  const startFace = async () => {
    try {
      const { url } = await startFaceAuth({ openFlag: 'openAccount', deviceType: 'pc' });
      window.location.assign(url);
    } catch (error) {
      showApiError(error);
    }
  };
  if (!details) return <main style={{ padding: 24 }}>{tt('checking')}</main>;
  return (
    <main style={{ padding: 16, maxWidth: 880, margin: '0 auto' }}>
      <h1 style={{ fontSize: 24 }}>{tt('detailsTitle')}</h1>
      <Descriptions
        column={1}
        bordered
        size="small"
        data-testid="personal-details"
        items={[
          { key: 'name', label: tt('name'), children: details.name ?? tt('notVerified') },
          { key: 'id', label: tt('idNumber'), children: details.idNumberMasked ?? '-' },
          { key: 'phone', label: tt('phone'), children: details.phoneMasked },
          {
            key: 'verified',
            label: tt('verifiedAt'),
            children: formatTime(details.verifiedAt) || tt('notVerified'),
          },
          ...(details.faceVerifiedAt
            ? [{ key: 'face', label: tt('faceVerifiedAt'), children: formatTime(details.faceVerifiedAt) }]
            : []),
          ...((details.verificationRecords ?? []).length
            ? [
                {
                  key: 'records',
                  label: tt('verificationRecords'),
                  children: (
                    <ul data-testid="verification-records" style={{ margin: 0, paddingLeft: 18 }}>
                      {details.verificationRecords.map((r) => (
                        <li key={`${r.kind}-${r.at}`}>
                          {tt('verificationRecord', {
                            time: formatTime(r.at),
                            kind: tt(r.kind === 'face' ? 'recordKindFace' : 'recordKindIdentity'),
                            outcome: tt(r.outcome === 'passed' ? 'recordPassed' : 'recordFailed'),
                            provider: r.provider,
                            requestId: r.requestId ?? '-',
                          })}
                        </li>
                      ))}
                    </ul>
                  ),
                },
              ]
            : []),
          {
            key: 'agreement',
            label: tt('agreementTitle'),
            children: details.agreementAcceptedAt
              ? tt('acceptedAt', { time: formatTime(details.agreementAcceptedAt) })
              : '-',
          },
        ]}
      />
      <div style={{ margin: '16px 0', display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        {!cert && (
          <Link to={paths.managePersonalEsign}>
            <Button type="primary">{tt('openNow')}</Button>
          </Link>
        )}
        {details.verifiedAt && !details.faceVerifiedAt && (
          <Button onClick={startFace}>{tt('faceStart')}</Button>
        )}
      </div>
      {cert ? <CertView cert={cert} /> : <p>{tt('noCert')}</p>}
      <SigningPasswordCard />
      <NoticeEmailCard />
    </main>
  );
}
