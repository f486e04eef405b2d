import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useLocation, useNavigate } from 'react-router-dom';
import { useT } from '@/i18n/i18n-store.ts';
import { paths } from '@/config/paths.ts';

export default function NotFoundPage() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <main data-not-found="">
      <Result
        status="404"
        title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('notFound.title')}</h1>}
        subTitle={t('notFound.text', { path: location.pathname })}
        extra={
          <Button type="primary" onClick={() => navigate(paths.home)}>
            {t('common.backHome')}
          </Button>
        }
      />
    </main>
  );
}
