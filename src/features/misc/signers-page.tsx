import Button from 'antd/es/button';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  type FlowDetail,
  type FlowSummary,
  getFlowDetail,
  listLaunchedFlows,
  type PartyView,
} from '@/api/flow.ts';
import { loginRedirect, paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { exportSheet, type SheetColumn } from '@/lib/export-sheet.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { miscTexts } from './texts.ts';
import { formatTime } from '@/lib/format-time.ts';

type MiscKey = keyof (typeof miscTexts)['en-US'];
const STATUS_COLOR: Record<PartyView['status'], string> = {
  waiting: 'default',
  pending: 'gold',
  signed: 'blue',
  declined: 'red',
  closed: 'default',
};
/** The documents offered in the picker (newest first). */
const PICKER_ROWS = 50;

/**
 * /osingPeople ("signing people"): the signers of a document the user launched, step by step, with who has
 * signed, who is to sign and who declined; `?flowId=` picks the document. Exports to a spreadsheet.
 */
export default function SignersPage() {
  const tt = useTexts(miscTexts);
  const locale = useI18nStore((s) => s.locale);
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  const [search, setSearch] = useSearchParams();
  const [flows, setFlows] = useState<FlowSummary[] | null>(null);
  const [detail, setDetail] = useState<FlowDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const pickerId = useId();
  const flowId = search.get('flowId') ?? flows?.[0]?.flowId ?? null;

  useEffect(() => {
    if (!isLoggedIn) return;
    listLaunchedFlows({ pageNum: 1, pageSize: PICKER_ROWS }).then(
      (page) => setFlows(page.list),
      (e: Error) => setProblem(e.message),
    );
  }, [isLoggedIn]);
  useEffect(() => {
    if (!flowId) return;
    setDetail(null);
    getFlowDetail({ flowId }).then(setDetail, (e: Error) => setProblem(e.message));
  }, [flowId]);

  if (!isLoggedIn) {
    return (
      <main style={{ padding: 48, textAlign: 'center' }}>
        <p>{tt('signersNeedLogin')}</p>
        <Link to={loginRedirect(paths.loginPage, paths.osingPeople)}>
          <Button type="primary">{tt('logIn')}</Button>
        </Link>
      </main>
    );
  }

  const parties = detail?.steps.flatMap((s) => s.parties) ?? [];
  const when = (iso: string | null) => formatTime(iso, locale);
  const status = (p: PartyView) => tt(`party.${p.status}` as MiscKey);
  const columns: SheetColumn<PartyView>[] = [
    { title: tt('colStep'), value: (p) => p.stepIndex + 1 },
    { title: tt('colName'), value: (p) => p.signedByName ?? p.name },
    { title: tt('colPhone'), value: (p) => p.phoneMasked },
    { title: tt('colCompany'), value: (p) => p.companyName },
    { title: tt('colStatus'), value: status },
    { title: tt('colSignedAt'), value: (p) => when(p.signedAt) },
  ];

  return (
    <main style={{ padding: 24, maxWidth: 1000, margin: '0 auto', display: 'grid', gap: 12 }}>
      <h1 style={{ fontSize: 22, margin: 0 }}>{tt('signersTitle')}</h1>
      <p style={{ margin: 0, color: '#666' }}>{tt('signersIntro')}</p>
      {problem && <p role="alert">{tt('loadFailed', { reason: problem })}</p>}
      {flows?.length === 0 && <p>{tt('signersNone')}</p>}
      {flows && flows.length > 0 && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
          <label htmlFor={pickerId}>{tt('signersPick')}</label>
          <Select
            id={pickerId}
            style={{ minWidth: 280 }}
            value={flowId ?? undefined}
            onChange={(id: string) => setSearch({ flowId: id }, { replace: true })}
            options={flows.map((f) => ({ value: f.flowId, label: f.title }))}
          />
          <Button
            disabled={parties.length === 0}
            onClick={() => void exportSheet(`${tt('sheetSigners')}-${detail?.title ?? ''}`, columns, parties)}
          >
            {tt('export')}
          </Button>
        </div>
      )}
      {detail && (
        <table style={{ width: '100%', borderCollapse: 'collapse', background: '#fff' }}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.title}
                  style={{ textAlign: 'left', padding: 8, borderBottom: '1px solid #f0f0f0' }}
                >
                  {c.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {parties.map((p) => (
              <tr key={p.partyId}>
                <td style={{ padding: 8 }}>{p.stepIndex + 1}</td>
                <td style={{ padding: 8 }}>{p.signedByName ?? p.name ?? ''}</td>
                <td style={{ padding: 8 }}>{p.phoneMasked}</td>
                <td style={{ padding: 8 }}>{p.companyName ?? ''}</td>
                <td style={{ padding: 8 }}>
                  <Tag color={STATUS_COLOR[p.status]}>{status(p)}</Tag>
                </td>
                <td style={{ padding: 8 }}>{when(p.signedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
