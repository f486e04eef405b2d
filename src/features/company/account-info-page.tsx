import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Space from 'antd/es/space';
import { useEffect, useState } from 'react';
import { UserType } from '#contract/enums.ts';
import { type CompanyAccountInfo, getCompanyAccountInfo } from '@/api/company.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { maskPhone } from '@/lib/masks.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { RoleTag, showError, useCompanyTexts } from './parts.tsx';
import { useFormatDate, useFormatTime } from '@/lib/format-time.ts';

/**
 * /manage/account/accountInfo: the current identity (person or company), its certificate and seal flags
 * and the quantities of the login info; for a company also its registration data and members.
 */
export default function AccountInfoPage() {
  const tt = useCompanyTexts();
  const when = useFormatTime();
  const dateOf = useFormatDate();
  const navigate = useSafeNavigate();
  const info = useSessionStore((s) => s.userInfo);
  const [company, setCompany] = useState<CompanyAccountInfo | null>(null);
  const isCompany = info?.userType === UserType.Company;
  useEffect(() => {
    if (isCompany) getCompanyAccountInfo({}).then(setCompany).catch(showError);
  }, [isCompany]);
  if (!info) return null;
  const yn = (v: boolean) => (v ? tt('yes') : tt('no'));
  return (
    <Card title={tt('accountInfoTitle')}>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={tt('identity')}>
          {isCompany ? `${tt('companyIdentity')} · ${info.companyName ?? ''}` : tt('personIdentity')}
        </Descriptions.Item>
        <Descriptions.Item label={tt('phone')}>{maskPhone(info.phone)}</Descriptions.Item>
        {info.name && <Descriptions.Item label={tt('name')}>{info.name}</Descriptions.Item>}
        <Descriptions.Item label={tt('hasCaCert')}>{yn(info.hasCaCert)}</Descriptions.Item>
        <Descriptions.Item label={tt('hasSeal')}>{yn(info.hasSeal)}</Descriptions.Item>
        {isCompany && <Descriptions.Item label={tt('hasOperator')}>{yn(info.hasOperator)}</Descriptions.Item>}
        {company && (
          <>
            <Descriptions.Item label={tt('creditCode')}>{company.creditCode}</Descriptions.Item>
            <Descriptions.Item label={tt('legalRepName')}>{company.legalRepName}</Descriptions.Item>
            <Descriptions.Item label={tt('role')}>
              <RoleTag role={company.role} />
            </Descriptions.Item>
            <Descriptions.Item label={tt('admin')}>{company.adminName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={tt('members')}>{company.activeMembers}</Descriptions.Item>
            {company.role === 'admin' && (
              <Descriptions.Item label={tt('pending')}>{company.pendingRequests}</Descriptions.Item>
            )}
            {company.verifiedAt && (
              <Descriptions.Item label={tt('verifiedAt')}>{when(company.verifiedAt)}</Descriptions.Item>
            )}
            {company.certificate && (
              <>
                <Descriptions.Item label={tt('certSerial')}>{company.certificate.serial}</Descriptions.Item>
                <Descriptions.Item label={tt('certValid')}>
                  {dateOf(company.certificate.notAfter)}
                </Descriptions.Item>
              </>
            )}
          </>
        )}
      </Descriptions>
      <p style={{ marginTop: 12 }}>
        {tt('quantities', {
          total: info.totalQuantitySum,
          reserved: info.totalReserveQuantity,
          used: info.totalUseQuantity,
          remain: info.remainQuantity,
        })}
      </p>
      <Space wrap>
        {isCompany && <Button onClick={() => navigate(paths.accountShareUser)}>{tt('share')}</Button>}
        {isCompany && company?.role === 'admin' && (
          <Button onClick={() => navigate(paths.accountOperator)}>{tt('operatorTitle')}</Button>
        )}
        {!isCompany && (
          <Button onClick={() => navigate(paths.manageEnterpriseEsign)}>{tt('openCompany')}</Button>
        )}
        <Button onClick={() => navigate(paths.accountSwitch)}>{tt('switchAccount')}</Button>
      </Space>
    </Card>
  );
}
