// A flow's versions (issue 29), for the flow detail and the signing room alike: the revisions newest first
// (download each), and the comparison of two side by side (left the older, right the newer, changed lines
// highlighted; a page without a text layer says so). No antd: the signing room loads none.
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import {
  compareFlowRevisions,
  type DiffLine,
  type FlowRevision,
  listFlowRevisions,
  type PageDiff,
  revisionHref,
} from '@/api/revisions.ts';
import { showApiError } from '@/api/http.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { revisionTexts } from './revision-texts.ts';

type Revisions = { currentRevision: number; items: FlowRevision[] };

/** The list of a flow's revisions, reloaded when `reloadKey` changes. */
export function useRevisions(flowId: string, roomToken: string | undefined, reloadKey = 0) {
  const [data, setData] = useState<Revisions | null>(null);
  const load = useCallback(async () => {
    try {
      setData(await listFlowRevisions({ flowId, roomToken }));
    } catch (e) {
      showApiError(e);
    }
  }, [flowId, roomToken]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey asks for a reload
  useEffect(() => {
    void load();
  }, [load, reloadKey]);
  return data;
}

/** One row of the side-by-side view: the older line (left), the newer (right). */
type Row = { left: DiffLine | null; right: DiffLine | null };

/** Pairs a diff's lines for two columns: kept lines on both sides, a removed run next to the added run after it. */
export function sideBySide(lines: DiffLine[]): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].op === 'same') {
      rows.push({ left: lines[i], right: lines[i] });
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i].op === 'removed') removed.push(lines[i++]);
    while (i < lines.length && lines[i].op === 'added') added.push(lines[i++]);
    for (let k = 0; k < Math.max(removed.length, added.length); k++)
      rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}

const CELL = { padding: '2px 6px', fontSize: 12, minWidth: 0, overflowWrap: 'anywhere' as const };
const SHADE = { removed: '#fff1f0', added: '#f6ffed', same: 'transparent' };

function Cell({ line, label }: { line: DiffLine | null; label: string }) {
  if (!line) return <div style={{ ...CELL, background: '#fafafa' }} />;
  const isChanged = line.op !== 'same';
  return (
    <div
      style={{ ...CELL, background: SHADE[line.op] }}
      data-testid={isChanged ? `diff-${line.op}` : undefined}
      title={isChanged ? label : undefined}
    >
      {line.op === 'removed' ? <del style={{ textDecoration: 'none' }}>{line.text}</del> : null}
      {line.op === 'added' ? <ins style={{ textDecoration: 'none' }}>{line.text}</ins> : null}
      {line.op === 'same' ? line.text : null}
    </div>
  );
}

function PageComparison({ page, older, newer }: { page: PageDiff; older: number; newer: number }) {
  const rt = useTexts(revisionTexts);
  const rows = sideBySide(page.lines);
  const hasChange = page.lines.some((l) => l.op !== 'same');
  let note: string | null = null;
  if (page.olderText === 'missing') note = rt('missingOlder', { n: newer });
  else if (page.newerText === 'missing') note = rt('missingNewer', { n: newer });
  else if (page.olderText === 'none' || page.newerText === 'none') note = rt('noText');
  else if (!hasChange) note = rt('unchanged');
  return (
    <section aria-label={rt('page', { n: page.page })} style={{ marginBottom: 12 }}>
      <h4 style={{ fontSize: 13, margin: '8px 0 4px' }}>{rt('page', { n: page.page })}</h4>
      {note ? <p style={{ color: '#666', fontSize: 12, margin: '0 0 4px' }}>{note}</p> : null}
      {rows.length && (page.olderText === 'text' || page.newerText === 'text') ? (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
            border: '1px solid #f0f0f0',
          }}
        >
          <div style={{ ...CELL, fontWeight: 600 }}>{rt('revision', { n: older })}</div>
          <div style={{ ...CELL, fontWeight: 600 }}>{rt('revision', { n: newer })}</div>
          {rows.map((r, k) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <Row key={k} row={r} removed={rt('removedLine')} added={rt('addedLine')} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

function Row({ row, removed, added }: { row: Row; removed: string; added: string }) {
  return (
    <>
      <Cell line={row.left} label={removed} />
      <Cell line={row.right} label={added} />
    </>
  );
}

/**
 * The versions section: every revision with its download, two chosen to compare, and `action` (the launcher's
 * "Upload revised version") in its header.
 */
export function RevisionVersions({
  flowId,
  roomToken,
  documentId,
  reloadKey,
  action,
}: {
  flowId: string;
  roomToken?: string;
  /** The document compared (the first one of the flow when not given). */
  documentId?: string;
  reloadKey?: number;
  action?: ReactNode;
}) {
  const rt = useTexts(revisionTexts);
  const locale = useI18nStore((s) => s.locale);
  const data = useRevisions(flowId, roomToken, reloadKey);
  const olderId = useId();
  const newerId = useId();
  const [older, setOlder] = useState<number | null>(null);
  const [newer, setNewer] = useState<number | null>(null);
  const [result, setResult] = useState<{ pages: PageDiff[]; older: number; newer: number } | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const numbers = [...new Set((data?.items ?? []).map((i) => i.revision))];
  const doc = documentId ?? data?.items.find((i) => i.revision === 1)?.documentId;
  const lo = older ?? numbers[1] ?? null;
  const hi = newer ?? numbers[0] ?? null;

  const compare = async () => {
    if (lo === null || hi === null || !doc) return;
    setIsBusy(true);
    try {
      const res = await compareFlowRevisions({ flowId, documentId: doc, older: lo, newer: hi, roomToken });
      setResult({ pages: res.pages, older: res.older.revision, newer: res.newer.revision });
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };

  if (!data) return null;
  const select = (id: string, value: number | null, set: (n: number) => void, label: string) => (
    <label htmlFor={id} style={{ fontSize: 13, display: 'inline-flex', gap: 4, alignItems: 'center' }}>
      {label}
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => {
          set(Number(e.target.value));
          setResult(null);
        }}
      >
        {numbers.map((n) => (
          <option key={n} value={n}>
            {rt('revision', { n })}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section aria-label={rt('versions')} data-testid="flow-versions" style={{ margin: '12px 0' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <h3 style={{ fontSize: 15, margin: 0 }}>
          {rt('versions')}{' '}
          <span style={{ color: '#999', fontSize: 12, fontWeight: 400 }}>
            {rt('current', { n: data.currentRevision })}
          </span>
        </h3>
        {action}
      </div>
      <ul style={{ paddingLeft: 18, margin: '6px 0' }}>
        {data.items.map((i) => (
          <li key={`${i.revision}-${i.documentId}`} data-testid="revision-item" style={{ marginBottom: 4 }}>
            <strong>{rt('revision', { n: i.revision })}</strong> · {i.documentName} ·{' '}
            {formatTime(i.createdAt, locale)}
            {i.revision === 1
              ? ` · ${rt('launched')}`
              : i.createdByName
                ? ` · ${rt('by', { name: i.createdByName })}`
                : ''}{' '}
            <a href={revisionHref(i.downloadUrl, roomToken)} target="_blank" rel="noopener" download>
              {rt('download')}
            </a>
            {i.note ? (
              <div style={{ color: '#666', fontSize: 12, overflowWrap: 'anywhere' }}>
                {rt('note', { note: i.note })}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {numbers.length > 1 ? (
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
          {select(olderId, lo, setOlder, rt('older'))}
          {select(newerId, hi, setNewer, rt('newer'))}
          <PlainButton size="small" isBusy={isBusy} onClick={compare} disabled={lo === hi}>
            {rt('compare')}
          </PlainButton>
        </div>
      ) : null}
      {result ? (
        <div data-testid="revision-compare" style={{ marginTop: 8 }}>
          {result.pages.map((p) => (
            <PageComparison key={p.page} page={p} older={result.older} newer={result.newer} />
          ))}
          <PlainButton size="small" onClick={() => setResult(null)}>
            {rt('close')}
          </PlainButton>
        </div>
      ) : null}
    </section>
  );
}

/** The signing room's notice of a revised flow (revision 2 on), with its versions to open. */
export function RevisedNotice({ flowId, roomToken }: { flowId: string; roomToken?: string }) {
  const rt = useTexts(revisionTexts);
  const data = useRevisions(flowId, roomToken);
  const [isOpen, setIsOpen] = useState(false);
  if (!data || data.currentRevision < 2) return null;
  return (
    <div
      role="status"
      data-testid="revised-notice"
      style={{
        border: '1px solid #ffe58f',
        background: '#fffbe6',
        borderRadius: 8,
        padding: '8px 12px',
        marginBottom: 12,
        minWidth: 0,
      }}
    >
      <div style={{ fontSize: 14 }}>{rt('revisedNotice', { n: data.currentRevision })}</div>
      <PlainButton kind="link" size="small" onClick={() => setIsOpen((o) => !o)}>
        {isOpen ? rt('hideVersions') : rt('showVersions')}
      </PlainButton>
      {isOpen ? <RevisionVersions flowId={flowId} roomToken={roomToken} /> : null}
    </div>
  );
}
