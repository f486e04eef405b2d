import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Popconfirm from 'antd/es/popconfirm';
import Progress from 'antd/es/progress';
import Table from 'antd/es/table';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { uploadDocument } from '@/api/document.ts';
import { deleteTemplate, listTemplates, saveTemplate, type TemplateSummary } from '@/api/template.ts';
import { paths } from '@/config/paths.ts';
import { ExportAllButton } from '@/components/export-all-button.tsx';
import { Pager } from '@/components/pager.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { useFormatTime } from '@/lib/format-time.ts';

/**
 * /manage/fileTemplate (manage: upload, preview, edit, delete) and /manage/home/templateCreate (choose one to
 * launch from): the account's templates with search and pagination.
 */
export default function TemplateListPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const navigate = useNavigate();
  const isChoosing = useLocation().pathname === paths.manageTemplateCreate;
  const fileInput = useRef<HTMLInputElement>(null);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: TemplateSummary[]; total: number }>({ list: [], total: 0 });
  const [isLoading, setIsLoading] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const load = useCallback(async (pageNum: number, kw: string) => {
    setIsLoading(true);
    try {
      setData(await listTemplates({ pageNum, pageSize: 10, keyword: kw || undefined }));
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

  const createFrom = async (file: File) => {
    setProgress(0);
    try {
      const doc = await uploadDocument(file, (f) => setProgress(Math.round(f * 100)));
      const template = await saveTemplate({
        documentId: doc.documentId,
        name: file.name.replace(/\.pdf$/i, ''),
      });
      navigate(`${paths.manageEditFileTemplate}?templateId=${template.templateId}`);
    } catch (e) {
      showApiError(e);
    } finally {
      setProgress(null);
    }
  };

  const use = (t: TemplateSummary) => navigate(`${paths.manageTemplateDetail}?templateId=${t.templateId}`);

  return (
    <main className="template-list" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{isChoosing ? tt('chooseTitle') : tt('listTitle')}</h1>
      <p style={{ color: '#666' }}>{isChoosing ? tt('chooseIntro') : tt('listIntro')}</p>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 12, alignItems: 'center' }}>
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
        {isChoosing ? null : (
          <>
            <input
              ref={fileInput}
              type="file"
              accept="application/pdf,.pdf"
              aria-label={tt('upload')}
              style={{ display: 'none' }}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void createFrom(file);
              }}
            />
            <Button type="primary" onClick={() => fileInput.current?.click()} loading={progress !== null}>
              {tt('upload')}
            </Button>
            <ExportAllButton<TemplateSummary>
              label={tt('export')}
              fileName={tt('sheetName')}
              isEmpty={data.total === 0}
              fetchPage={(pageNum, pageSize) =>
                listTemplates({ pageNum, pageSize, keyword: keyword || undefined })
              }
              columns={[
                { title: tt('name'), value: (t) => t.name },
                { title: tt('file'), value: (t) => t.documentName },
                { title: tt('roles'), value: (t) => t.roleNames.join(' / ') },
                { title: tt('fields'), value: (t) => t.fieldCount },
                { title: tt('updated'), value: (t) => when(t.updatedAt) },
              ]}
            />
            {progress !== null ? (
              <Progress
                percent={progress}
                size="small"
                style={{ width: 160 }}
                aria-label={tt('uploading', { percent: progress })}
              />
            ) : null}
          </>
        )}
      </div>
      <Table<TemplateSummary>
        rowKey="templateId"
        loading={isLoading}
        pagination={false}
        dataSource={data.list}
        locale={{ emptyText: tt('empty') }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: tt('name'), dataIndex: 'name' },
          { title: tt('file'), dataIndex: 'documentName' },
          { title: tt('roles'), render: (_, t) => t.roleNames.join(' / ') },
          { title: tt('fields'), dataIndex: 'fieldCount' },
          { title: tt('updated'), render: (_, t) => when(t.updatedAt) },
          {
            title: tt('actions'),
            render: (_, t) => (
              <span style={{ display: 'flex', gap: 8 }}>
                <Button size="small" type={isChoosing ? 'primary' : 'default'} onClick={() => use(t)}>
                  {tt('use')}
                </Button>
                <Button
                  size="small"
                  onClick={() => navigate(`${paths.manageFileTemplatePreview}?templateId=${t.templateId}`)}
                >
                  {tt('preview')}
                </Button>
                {isChoosing ? null : (
                  <>
                    <Button
                      size="small"
                      onClick={() => navigate(`${paths.manageBulkSend}?templateId=${t.templateId}`)}
                    >
                      {tt('bulkSend')}
                    </Button>
                    <Button
                      size="small"
                      onClick={() => navigate(`${paths.manageEditFileTemplate}?templateId=${t.templateId}`)}
                    >
                      {tt('edit')}
                    </Button>
                    <Popconfirm
                      title={tt('deleteConfirm', { name: t.name })}
                      okText={tt('delete')}
                      cancelText={tt('cancel')}
                      onConfirm={async () => {
                        try {
                          await deleteTemplate({ templateId: t.templateId });
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
                  </>
                )}
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
