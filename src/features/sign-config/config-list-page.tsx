import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Popconfirm from 'antd/es/popconfirm';
import Table from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { deleteSignConfig, listSignConfigs, type SignConfig } from '@/api/sign-config.ts';
import { paths } from '@/config/paths.ts';
import { Pager } from '@/components/pager.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { texts } from './texts.ts';
import { ExportAllButton } from '@/components/export-all-button.tsx';
import { showApiError } from '@/api/http.ts';
import { useFormatTime } from '@/lib/format-time.ts';

/** /manage/signConfig: the account's signing configurations, with search, pagination and delete. */
export default function ConfigListPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: SignConfig[]; total: number }>({ list: [], total: 0 });
  const [isLoading, setIsLoading] = useState(false);

  const load = useCallback(async (pageNum: number, kw: string) => {
    setIsLoading(true);
    try {
      setData(await listSignConfigs({ pageNum, pageSize: 10, keyword: kw || undefined }));
    } catch (e) {
      showApiError(e);
    } finally {
      setIsLoading(false);
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the search runs on Enter, not on each key
  useEffect(() => {
    void load(page, keyword);
  }, [page, load]);

  const edit = (c: SignConfig, stepsOnly = false) =>
    navigate(`${stepsOnly ? paths.manageStepConfig : paths.manageAddConfig}?configId=${c.configId}`);

  return (
    <main className="sign-config-list" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{tt('listTitle')}</h1>
      <p style={{ color: '#666' }}>{tt('listIntro')}</p>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 12 }}>
        <Input.Search
          aria-label={tt('search')}
          placeholder={tt('search')}
          allowClear
          style={{ maxWidth: 280 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => {
            setPage(1);
            void load(1, v);
          }}
        />
        <Button type="primary" onClick={() => navigate(paths.manageAddConfig)}>
          {tt('newConfig')}
        </Button>
        <ExportAllButton<SignConfig>
          label={tt('export')}
          fileName={tt('sheetName')}
          isEmpty={data.total === 0}
          fetchPage={(pageNum, pageSize) =>
            listSignConfigs({ pageNum, pageSize, keyword: keyword || undefined })
          }
          columns={[
            { title: tt('name'), value: (c) => c.name },
            {
              title: tt('steps'),
              value: (c) => c.steps.map((s) => s.parties.map((p) => p.name).join(' + ')).join(' → '),
            },
            { title: tt('templates'), value: (c) => c.templateCount },
            { title: tt('updated'), value: (c) => when(c.updatedAt) },
          ]}
        />
      </div>
      <Table<SignConfig>
        rowKey="configId"
        loading={isLoading}
        pagination={false}
        dataSource={data.list}
        locale={{ emptyText: tt('empty') }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: tt('name'), dataIndex: 'name' },
          {
            title: tt('steps'),
            render: (_, c) => c.steps.map((s) => s.parties.map((p) => p.name).join(' + ')).join(' → '),
          },
          { title: tt('templates'), dataIndex: 'templateCount' },
          { title: tt('updated'), render: (_, c) => when(c.updatedAt) },
          {
            title: tt('actions'),
            render: (_, c) => (
              <span style={{ display: 'flex', gap: 8 }}>
                <Button size="small" onClick={() => edit(c)}>
                  {tt('edit')}
                </Button>
                <Button size="small" onClick={() => edit(c, true)}>
                  {tt('editSteps')}
                </Button>
                <Popconfirm
                  title={tt('deleteConfirm', { name: c.name })}
                  okText={tt('delete')}
                  cancelText={tt('cancel')}
                  onConfirm={async () => {
                    try {
                      await deleteSignConfig({ configId: c.configId });
                      notify.success(tt('deleted'), 2000);
                      void load(page, keyword);
                    } catch (e) {
                      showApiError(e);
                    }
                  }}
                >
                  <Button size="small" danger>
                    {tt('delete')}
                  </Button>
                </Popconfirm>
              </span>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Pager total={data.total} current={page} onChange={(p) => setPage(p)} />
      </div>
    </main>
  );
}
