import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Grid from 'antd/es/grid';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  type CentreFilter,
  type ContractItem,
  deleteCentreView,
  getCentreLabels,
  moveContracts,
  saveCentreFolder,
  saveCentreTag,
  saveCentreView,
  searchContracts,
  tagContracts,
} from '@/api/centre.ts';
import { showApiError } from '@/api/http.ts';
import { Pager } from '@/components/pager.tsx';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { exportSheet, type SheetColumn } from '@/lib/export-sheet.ts';
import { useFormatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { LabelCreator, type Labels } from './label-creator.tsx';
import { texts } from './texts.ts';
import { ZipButton } from './zip-button.tsx';

const PAGE_SIZE = 20;
const STATUSES = ['signing', 'completed', 'declined', 'expired', 'cancelled', 'draft'] as const;
const SORTS = ['launchedDesc', 'launchedAsc', 'completedDesc', 'titleAsc'] as const;
const EMPTY_LABELS: Labels = { tags: [], folders: [], views: [], senders: [], templates: [] };

/**
 * Where a contract opens: its detail on the signing list (launched or received; a copy recipient's own
 * read-only links are on the list's "Copied to me" tab).
 */
const openPath = (c: ContractItem) =>
  c.isCopied
    ? `${paths.signList}?tab=copied`
    : `${paths.signList}?${c.isSent ? 'tab=launched&' : ''}flowId=${encodeURIComponent(c.flowId)}`;

const partyName = (p: ContractItem['parties'][number]) =>
  p.kind === 'company' ? `${p.companyName ?? ''}${p.name ? ` (${p.name})` : ''}` : (p.name ?? p.phone);

/** /manage/contracts: the contract centre — search, filters, tags, folders, saved views, zip and export. */
export default function ContractsPage() {
  const tt = useTexts(texts);
  const viaOf = (c: { isSent: boolean; isCopied: boolean }) =>
    tt(c.isSent ? 'sent' : c.isCopied ? 'copied' : 'received');
  const when = useFormatTime();
  const isWide = Grid.useBreakpoint().md ?? true;
  const [filter, setFilter] = useState<CentreFilter>({});
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: ContractItem[]; total: number } | null>(null);
  const [labels, setLabels] = useState<Labels>(EMPTY_LABELS);
  const [selected, setSelected] = useState<string[]>([]);

  const reloadLabels = useCallback(() => {
    getCentreLabels({}).then(setLabels, showApiError);
  }, []);
  const reload = useCallback(() => {
    searchContracts({ filter, pageNum: page, pageSize: PAGE_SIZE }).then(setData, showApiError);
  }, [filter, page]);
  useEffect(reloadLabels, [reloadLabels]);
  useEffect(reload, [reload]);

  const change = (patch: Partial<CentreFilter>) => {
    setPage(1);
    setFilter((f) => ({ ...f, ...patch }));
  };
  const afterChange = (changed: number) => {
    notify.success(tt('done', { n: changed }), 2000);
    reload();
  };

  const columns: SheetColumn<ContractItem>[] = [
    { title: tt('contract'), value: (c) => c.title },
    { title: tt('status'), value: (c) => tt(`st.${c.status}`) },
    { title: tt('parties'), value: (c) => c.parties.map(partyName).join('、') },
    { title: tt('sender'), value: (c) => c.initiatorCompanyName ?? c.initiatorName ?? '' },
    { title: tt('launched'), value: (c) => when(c.createdAt) },
    { title: tt('completed'), value: (c) => (c.completedAt ? when(c.completedAt) : '') },
    { title: tt('tags'), value: (c) => c.tags.map((x) => x.name).join(', ') },
    { title: tt('folder'), value: (c) => c.folder?.name ?? '' },
  ];
  const exportRows = async () => {
    try {
      let rows = (data?.list ?? []).filter((c) => selected.includes(c.flowId));
      if (rows.length === 0) {
        rows = [];
        for (let p = 1; ; p++) {
          const got = await searchContracts({ filter, pageNum: p, pageSize: 100 });
          rows.push(...got.list);
          if (rows.length >= got.total || got.list.length === 0) break;
        }
      }
      await exportSheet('contracts', columns, rows, tt('title'));
    } catch (e) {
      showApiError(e);
    }
  };

  const tagOptions = labels.tags.map((x) => ({ value: x.tagId, label: x.name }));
  const folderOptions = labels.folders.map((x) => ({ value: x.folderId, label: x.name }));
  const contractTags = (c: ContractItem) =>
    c.tags.map((x) => (
      <Tag key={x.tagId} color={x.colour}>
        {x.name}
      </Tag>
    ));

  return (
    <main className="contracts-centre" style={{ padding: 16, maxWidth: '100%' }}>
      <h1 style={{ fontSize: 20 }}>{tt('title')}</h1>
      <p style={{ color: '#666' }}>{tt('intro')}</p>
      <Input.Search
        data-testid="centre-search"
        allowClear
        placeholder={tt('search')}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => change({ keyword: v.trim() || undefined })}
        style={{ maxWidth: 480, marginBottom: 12 }}
      />
      <div className="centre-filters" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={tt('anyStatus')}
          style={{ minWidth: 120 }}
          value={filter.status}
          onChange={(v) => change({ status: v })}
          options={STATUSES.map((s) => ({ value: s, label: tt(`st.${s}`) }))}
        />
        <Select
          style={{ minWidth: 140 }}
          value={filter.direction ?? 'all'}
          onChange={(v) => change({ direction: v })}
          options={(['all', 'sent', 'received', 'copied'] as const).map((d) => ({
            value: d,
            label: tt(`dir.${d}`),
          }))}
        />
        <Select
          style={{ minWidth: 110 }}
          value={filter.dateField ?? 'launched'}
          onChange={(v) => change({ dateField: v })}
          options={(['launched', 'completed'] as const).map((d) => ({ value: d, label: tt(`date.${d}`) }))}
        />
        <Input
          type="date"
          aria-label={tt('from')}
          style={{ width: 150 }}
          value={filter.dateFrom ?? ''}
          onChange={(e) => change({ dateFrom: e.target.value || undefined })}
        />
        <Input
          type="date"
          aria-label={tt('to')}
          style={{ width: 150 }}
          value={filter.dateTo ?? ''}
          onChange={(e) => change({ dateTo: e.target.value || undefined })}
        />
        <Select
          allowClear
          placeholder={tt('template')}
          style={{ minWidth: 140 }}
          value={filter.templateId}
          onChange={(v) => change({ templateId: v })}
          options={labels.templates.map((x) => ({ value: x.templateId, label: x.name }))}
        />
        <Select
          allowClear
          placeholder={tt('sender')}
          style={{ minWidth: 120 }}
          value={filter.senderUserId}
          onChange={(v) => change({ senderUserId: v })}
          options={labels.senders.map((x) => ({ value: x.userId, label: x.name || x.userId.slice(0, 8) }))}
        />
        <Select
          data-testid="filter-tags"
          mode="multiple"
          allowClear
          placeholder={tt('tags')}
          style={{ minWidth: 160 }}
          value={filter.tagIds ?? []}
          onChange={(v: string[]) => change({ tagIds: v.length ? v : undefined })}
          options={tagOptions}
        />
        <Select
          data-testid="filter-folder"
          allowClear
          placeholder={tt('anyFolder')}
          style={{ minWidth: 140 }}
          value={filter.folderId}
          onChange={(v) => change({ folderId: v })}
          options={folderOptions}
        />
        <Select
          style={{ minWidth: 130 }}
          value={filter.sort ?? 'launchedDesc'}
          onChange={(v) => change({ sort: v })}
          options={SORTS.map((s) => ({ value: s, label: tt(`sort.${s}`) }))}
        />
        <Button
          onClick={() => {
            setKeyword('');
            change({ ...Object.fromEntries(Object.keys(filter).map((k) => [k, undefined])) });
          }}
        >
          {tt('clear')}
        </Button>
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={tt('views')}
          style={{ minWidth: 160 }}
          onChange={(viewId?: string) => {
            const view = labels.views.find((v) => v.viewId === viewId);
            setPage(1);
            setKeyword(view?.filter.keyword ?? '');
            setFilter(view?.filter ?? {});
          }}
          options={labels.views.map((v) => ({ value: v.viewId, label: v.name }))}
          optionRender={(o) => (
            <span style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
              {o.label}
              <Button
                size="small"
                type="link"
                danger
                onClick={(e) => {
                  e.stopPropagation();
                  deleteCentreView({ viewId: String(o.value) }).then(reloadLabels, showApiError);
                }}
              >
                {tt('deleteView')}
              </Button>
            </span>
          )}
        />
        <LabelCreator
          label={tt('saveView')}
          testId="save-view"
          onSave={(name) => saveCentreView({ name, filter }).then(reloadLabels)}
        />
        <LabelCreator
          label={tt('newTag')}
          testId="new-tag"
          withColour
          onSave={(name, colour) => saveCentreTag({ name, colour }).then(reloadLabels)}
        />
        <LabelCreator
          label={tt('newFolder')}
          testId="new-folder"
          onSave={(name) => saveCentreFolder({ name }).then(reloadLabels)}
        />
      </div>
      {selected.length > 0 && (
        <div
          className="centre-selection"
          data-testid="centre-selection"
          style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12, alignItems: 'center' }}
        >
          <span>{tt('selected', { n: selected.length })}</span>
          <Select
            data-testid="tag-selected"
            placeholder={tt('tagSelected')}
            style={{ minWidth: 130 }}
            value={null}
            onChange={(tagId: string) =>
              tagContracts({ flowIds: selected, tagId, isOn: true }).then(
                (r) => afterChange(r.changed),
                showApiError,
              )
            }
            options={tagOptions}
          />
          <Select
            placeholder={tt('untagSelected')}
            style={{ minWidth: 130 }}
            value={null}
            onChange={(tagId: string) =>
              tagContracts({ flowIds: selected, tagId, isOn: false }).then(
                (r) => afterChange(r.changed),
                showApiError,
              )
            }
            options={tagOptions}
          />
          <Select
            data-testid="move-selected"
            placeholder={tt('moveSelected')}
            style={{ minWidth: 150 }}
            value={null}
            onChange={(folderId: string) =>
              moveContracts({ flowIds: selected, folderId: folderId === '' ? null : folderId }).then(
                (r) => afterChange(r.changed),
                showApiError,
              )
            }
            options={[{ value: '', label: tt('noFolder') }, ...folderOptions]}
          />
          <ZipButton flowIds={selected} />
          <Button onClick={exportRows}>{tt('export')}</Button>
        </div>
      )}
      {selected.length === 0 && (
        <div style={{ marginBottom: 12 }}>
          <Button onClick={exportRows} disabled={!data?.total}>
            {tt('export')}
          </Button>
        </div>
      )}
      {isWide ? (
        <Table<ContractItem>
          rowKey="flowId"
          loading={data === null}
          pagination={false}
          dataSource={data?.list ?? []}
          locale={{ emptyText: tt('empty') }}
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          columns={[
            {
              title: tt('contract'),
              render: (_, c) => (
                <span data-testid="centre-row">
                  <Link to={openPath(c)}>
                    <strong>{c.title}</strong>
                  </Link>{' '}
                  <span style={{ color: '#999' }}>{viaOf(c)}</span>
                  <div>{contractTags(c)}</div>
                </span>
              ),
            },
            { title: tt('status'), render: (_, c) => tt(`st.${c.status}`) },
            { title: tt('parties'), render: (_, c) => c.parties.map(partyName).join('、') },
            { title: tt('folder'), render: (_, c) => c.folder?.name ?? '' },
            { title: tt('launched'), render: (_, c) => when(c.createdAt) },
            { title: tt('completed'), render: (_, c) => (c.completedAt ? when(c.completedAt) : '—') },
          ]}
        />
      ) : (
        <div className="centre-cards">
          {(data?.list ?? []).length === 0 && <p style={{ color: '#999' }}>{tt('empty')}</p>}
          {(data?.list ?? []).map((c) => (
            <div
              key={c.flowId}
              data-testid="centre-row"
              style={{
                border: '1px solid #eee',
                borderRadius: 8,
                padding: 12,
                marginBottom: 8,
                overflowWrap: 'anywhere',
              }}
            >
              <Checkbox
                checked={selected.includes(c.flowId)}
                onChange={(e) =>
                  setSelected((s) => (e.target.checked ? [...s, c.flowId] : s.filter((x) => x !== c.flowId)))
                }
              >
                <strong>{c.title}</strong>
              </Checkbox>
              <div style={{ color: '#666', fontSize: 13 }}>
                {tt(`st.${c.status}`)} · {viaOf(c)} · {when(c.createdAt)} ·{' '}
                <Link to={openPath(c)}>{tt('open')}</Link>
              </div>
              <div style={{ fontSize: 13 }}>{c.parties.map(partyName).join('、')}</div>
              <div>
                {contractTags(c)}
                {c.folder && <Tag>{c.folder.name}</Tag>}
              </div>
            </div>
          ))}
        </div>
      )}
      <div style={{ marginTop: 12 }}>
        <Pager total={data?.total ?? 0} current={page} pageSize={PAGE_SIZE} onChange={setPage} />
      </div>
    </main>
  );
}
