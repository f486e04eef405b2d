import Spin from 'antd/es/spin';
import { useEffect, useState } from 'react';
import { type CompanyAccountInfo, getCompanyAccountInfo } from '@/api/company.ts';
import { LetterSection } from './letter-section.tsx';
import { MobilePage, showError, useCompanyTexts } from './parts.tsx';

/** /mobile/adminPowerAuth: the administrator views and replaces the company's power-of-attorney letter. */
export default function AdminPowerAuthPage() {
  const tt = useCompanyTexts();
  const [info, setInfo] = useState<CompanyAccountInfo | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    getCompanyAccountInfo({}).then(setInfo).catch(showError);
  }, []);
  return (
    <MobilePage title={tt('letterTitle')}>
      {!info ? (
        <Spin />
      ) : (
        <>
          <p>{info.companyName}</p>
          <LetterSection
            companyId={info.companyId}
            hasLetter={info.hasPowerOfAttorney}
            letterType={info.powerOfAttorneyType}
            version={version}
            onSaved={(apply) => {
              setInfo({ ...info, hasPowerOfAttorney: true, powerOfAttorneyType: apply.powerOfAttorneyType });
              setVersion((v) => v + 1);
            }}
          />
        </>
      )}
    </MobilePage>
  );
}
