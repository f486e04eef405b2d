import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { addFlowCc, CC_LIMIT, type CcRecipient, listFlowCc } from '@/api/cc.ts';
import { ApiError } from '@/api/http.ts';
import { CcRows } from '@/components/cc/cc-rows.tsx';
import { type CcDraft, ccDraftProblem, ccTexts } from '@/components/cc/cc-texts.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';

/** The launcher's copy recipients of a flow (抄送, issue 29), and adding one while the flow is open. */
export function CcPanel({ flowId, isOpen }: { flowId: string; isOpen: boolean }) {
  const tt = useTexts(ccTexts);
  const locale = useI18nStore((s) => s.locale);
  const [list, setList] = useState<CcRecipient[] | null>(null);
  const [draft, setDraft] = useState<CcDraft[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setList((await listFlowCc({ flowId })).list);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  }, [flowId]);
  useEffect(() => {
    void load();
  }, [load]);

  const add = async () => {
    const [c] = draft;
    const bad = ccDraftProblem(draft);
    if (bad) return setProblem(tt(bad.key, { n: bad.n }));
    setIsBusy(true);
    try {
      const res = await addFlowCc({
        flowId,
        cc: { name: c.name.trim(), phone: c.phone.trim(), notifyProgress: c.notifyProgress },
      });
      setList(res.list);
      setDraft([]);
      setProblem(null);
      notify.success(tt('added'), 2000);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    } finally {
      setIsBusy(false);
    }
  };

  if (!list) return null;
  const count = list.length + draft.length;
  return (
    <section aria-label={tt('listTitle')} data-testid="cc-panel" style={{ margin: '12px 0' }}>
      <h3 style={{ fontSize: 15 }}>{tt('listTitle')}</h3>
      {list.length === 0 ? <div style={{ color: '#999' }}>{tt('none')}</div> : null}
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {list.map((c) => (
          <li key={c.ccId} data-testid="cc-recipient">
            {c.name} {c.phoneMasked} {c.notifyProgress ? <Tag>{tt('progressTag')}</Tag> : null}
            <span style={{ color: '#999', fontSize: 12 }}>
              {c.lastViewedAt
                ? tt('lastViewed', { time: formatTime(c.lastViewedAt, locale) })
                : tt('neverViewed')}
            </span>
          </li>
        ))}
      </ul>
      {isOpen && count <= CC_LIMIT ? (
        <div style={{ marginTop: 8 }}>
          <CcRows list={draft} limit={Math.min(1, CC_LIMIT - list.length)} onChange={setDraft} />
          {draft.length ? (
            <Button type="primary" size="small" style={{ marginTop: 8 }} loading={isBusy} onClick={add}>
              {tt('save')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {problem ? (
        <div role="alert" style={{ color: '#ff4d4f' }}>
          {problem}
        </div>
      ) : null}
    </section>
  );
}
