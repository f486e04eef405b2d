import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import { useNavigate } from 'react-router-dom';
import { deleteSeal, type Seal, setSealStatus } from '@/api/seal.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { MESSAGE_MS, SealCard, SealExportButton, SealStyles, useSealList } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** /manage/account/stamp/person: the person's own seals and signatures. */
export default function PersonStampPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { data, isLoading, reload } = useSealList();
  // A company session lists the company's seals: this screen is for the person's own only.
  const seals = data?.role === null ? data.seals : [];

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
      <h1>{tt('personTitle')}</h1>
      <div className="seal-toolbar">
        <Button type="primary" onClick={() => navigate(paths.accountPersonAddStamp)}>
          {tt('addPersonSeal')}
        </Button>
        <SealExportButton seals={seals} sheet="person" />
      </div>
      {isLoading && !data ? <p>{tt('loading')}</p> : null}
      {data && seals.length === 0 ? (
        <Empty description={tt('emptyPerson')}>
          <Button type="primary" onClick={() => navigate(paths.accountPersonAddStamp)}>
            {tt('addPersonSeal')}
          </Button>
        </Empty>
      ) : null}
      <div className="seal-grid">
        {seals.map((seal) => (
          <SealCard key={seal.id} seal={seal} canManage onStatus={changeStatus} onDelete={remove} />
        ))}
      </div>
    </main>
  );
}
