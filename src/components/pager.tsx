import ConfigProvider from 'antd/es/config-provider';
import Pagination from 'antd/es/pagination';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { useT } from '@/i18n/i18n-store.ts';
import { PAGER_ACTIVE_COLOR } from '@/lib/theme.ts';

type PagerProps = {
  total: number;
  current: number;
  pageSize?: number;
  onChange: (page: number, pageSize: number) => void;
};

const pagerTheme = { token: { colorPrimary: PAGER_ACTIVE_COLOR } };

/** SPEC §9 pagination bar: prev, pages, next, jump box, then the total label; size 10; active #ec1c23. */
export function Pager({ total, current, pageSize = DEFAULT_PAGE_SIZE, onChange }: PagerProps) {
  const t = useT();
  return (
    <ConfigProvider theme={pagerTheme}>
      <nav
        className="pager"
        style={{ display: 'flex', alignItems: 'center', gap: 12, justifyContent: 'flex-end' }}
      >
        <Pagination
          total={total}
          current={current}
          pageSize={pageSize}
          showSizeChanger={false}
          showQuickJumper
          onChange={onChange}
        />
        <span className="pager-total">{t('pager.total', { total })}</span>
      </nav>
    </ConfigProvider>
  );
}
