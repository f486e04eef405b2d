import { CC_LIMIT } from '@/api/cc.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { CcRows } from './cc-rows.tsx';
import { type CcDraft, ccDraftProblem, ccTexts } from './cc-texts.ts';

/** The "Copy to (抄送)" card of a launch (uploaded documents or a template): recipients who do not sign. */
export function CcSection({ list, onChange }: { list: CcDraft[]; onChange: (list: CcDraft[]) => void }) {
  const tt = useTexts(ccTexts);
  const problem = ccDraftProblem(list);
  return (
    <section
      aria-label={tt('cardTitle')}
      data-testid="cc-card"
      style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, margin: '16px 0' }}
    >
      <h3 style={{ fontSize: 15, marginTop: 0 }}>{tt('cardTitle')}</h3>
      <p style={{ color: '#999', fontSize: 12 }}>{tt('cardHint', { n: CC_LIMIT })}</p>
      <CcRows list={list} limit={CC_LIMIT} onChange={onChange} />
      {problem ? (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
          {tt(problem.key, { n: problem.n })}
        </div>
      ) : null}
    </section>
  );
}
