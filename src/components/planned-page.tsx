import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useNavigate } from 'react-router-dom';
import { useT } from '@/i18n/i18n-store.ts';

export type PlannedPageProps = {
  /** The route pattern; carried in `data-planned` so tests can tell which screens are still to come. */
  route: string;
  title: string;
  description: string;
  backTo: string;
  backLabel?: string;
};

/** An honest placeholder for a screen a later issue builds: its title, what it will offer, a way back. */
export function PlannedPage({ route, title, description, backTo, backLabel }: PlannedPageProps) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <main data-planned={route} style={{ padding: 24 }}>
      <Result
        status="info"
        title={<h1 style={{ fontSize: 24, margin: 0 }}>{title}</h1>}
        subTitle={
          <>
            <p>{description}</p>
            <p>{t('common.planned')}</p>
          </>
        }
        extra={
          <Button type="primary" onClick={() => navigate(backTo)}>
            {backLabel ?? t('common.backHome')}
          </Button>
        }
      />
    </main>
  );
}
