import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import { useNavigate } from 'react-router-dom';
import { deleteSeal, type Seal, setSealStatus } from '@/api/seal.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { useState } from 'react';
import {
  MESSAGE_MS,
  SealCard,
  SealExportButton,
  SealStyles,
  useSealList,
  useSealTypeName,
} from './parts.tsx';
import { policyTexts } from '@/components/approval-rule-texts.ts';
import { PolicySummary, SealPolicyDialog, useSealPolicies } from './seal-policy.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/**
 * /manage/account/stamp: the company's seals. The administrator sees every seal with enable, disable and
 * delete; an operator sees only the seals authorised to them now (the server decides which).
 */
export default function CompanyStampPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { data, isLoading, reload } = useSealList();
  const isAdmin = data?.role === 'admin';
  // A seal keeper manages the seals they keep (issue 27): status and authorisations, not creating or deleting.
  const isKeeper = !isAdmin && (data?.seals ?? []).some((s) => s.canManage);
  const pt = useTexts(policyTexts);
  const typeName = useSealTypeName();
  // Each seal's approval rule (用印审批): shown on its card, changed in its dialog (administrator).
  const { policies, reload: reloadPolicies } = useSealPolicies(data?.seals ?? [], isAdmin || isKeeper);
  const [policyOf, setPolicyOf] = useState<Seal | null>(null);

  const changeStatus = async (seal: Seal, status: 'enabled' | 'disabled') => {
    try {
      await setSealStatus({ sealId: seal.id, status });
      await reload();
      await refreshLoginInfo();
    } catch (error) {
      showApiError(error);
    }
  };
  const remove = async (seal: Seal) => {
    try {
      await deleteSeal({ sealId: seal.id });
      notify.success(tt('deleted'), MESSAGE_MS);
      await reload();
      await refreshLoginInfo();
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <main className="seal-page">
      <SealStyles />
      <h1>{tt('companyTitle')}</h1>
      {data && data.role === null ? (
        <Alert
          type="info"
          title={tt('companyOnly')}
          action={<Button onClick={() => navigate(paths.accountStampPerson)}>{tt('toPersonSeals')}</Button>}
        />
      ) : null}
      {isAdmin ? (
        <div className="seal-toolbar">
          <Button type="primary" onClick={() => navigate(paths.accountAddStamp)}>
            {tt('addCompanySeal')}
          </Button>
          <Button onClick={() => navigate(paths.accountStampAuthorize)}>{tt('authorise')}</Button>
          <SealExportButton seals={data?.seals ?? []} sheet="company" />
        </div>
      ) : data?.role ? (
        <div className="seal-toolbar">
          {isKeeper ? (
            <Button onClick={() => navigate(paths.accountStampAuthorize)}>{tt('authorise')}</Button>
          ) : null}
          <SealExportButton seals={data.seals} sheet="company" />
        </div>
      ) : null}
      {isLoading && !data ? <p>{tt('loading')}</p> : null}
      {data && data.role !== null && data.seals.length === 0 ? (
        <Empty description={isAdmin ? tt('emptyCompany') : tt('emptyCompanyOperator')}>
          {isAdmin ? (
            <Button type="primary" onClick={() => navigate(paths.accountAddStamp)}>
              {tt('addCompanySeal')}
            </Button>
          ) : null}
        </Empty>
      ) : null}
      <div className="seal-grid">
        {(data?.role ? data.seals : []).map((seal) => (
          <SealCard
            key={seal.id}
            seal={seal}
            canManage={isAdmin || Boolean(seal.canManage)}
            canDelete={isAdmin}
            onStatus={changeStatus}
            onDelete={remove}
            extra={policies[seal.id] ? <PolicySummary policy={policies[seal.id]} /> : null}
            actions={
              isAdmin || seal.canManage ? (
                <Button size="small" onClick={() => setPolicyOf(seal)}>
                  {pt('action')}
                </Button>
              ) : null
            }
          />
        ))}
      </div>
      {policyOf ? (
        <SealPolicyDialog
          seal={policyOf}
          title={policyOf.sealType !== null ? typeName(policyOf.sealType) : policyOf.name}
          policy={policies[policyOf.id]}
          onClose={() => setPolicyOf(null)}
          onSaved={() => {
            setPolicyOf(null);
            void reloadPolicies();
          }}
        />
      ) : null}
    </main>
  );
}
