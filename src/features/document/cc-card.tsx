import { CC_LIMIT } from '@/api/cc.ts';
import { CcRows } from '@/components/cc/cc-rows.tsx';
import { ccDraftProblem, ccTexts } from '@/components/cc/cc-texts.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useLaunchDraft } from './launch-draft.ts';

/** The launch page's "Copy to (抄送)" card: recipients who do not sign, kept in the launch draft. */
export function CcCard() {
  const tt = useTexts(ccTexts);
  const { draft, update } = useLaunchDraft();
  const list = draft.cc ?? [];
  const problem = ccDraftProblem(list);
  return (
    <section
      aria-label={tt('cardTitle')}
      data-testid="cc-card"
      style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, margin: '16px 0' }}
    >
      <h3 style={{ fontSize: 15, marginTop: 0 }}>{tt('cardTitle')}</h3>
      <p style={{ color: '#999', fontSize: 12 }}>{tt('cardHint', { n: CC_LIMIT })}</p>
      <CcRows list={list} limit={CC_LIMIT} onChange={(cc) => update((d) => ({ ...d, cc }))} />
      {problem && list.length > 0 ? (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
          {tt(problem.key, { n: problem.n })}
        </div>
      ) : null}
    </section>
  );
}
