import { useCallback, useEffect, useState } from 'react';
import { getSealPolicy, type SealPolicy, saveSealPolicy } from '@/api/approval.ts';
import type { Seal } from '@/api/seal.ts';
import { ApprovalRuleDialog } from '@/components/approval-rule-dialog.tsx';
import { policyTexts } from '@/components/approval-rule-texts.ts';
import { useTexts } from '@/i18n/i18n-store.ts';

const usePolicyTexts = () => useTexts(policyTexts);

/** The approval rule of each given company seal (administrator), with a reload after a change. */
export function useSealPolicies(seals: Seal[], isEnabled: boolean) {
  const [policies, setPolicies] = useState<Record<string, SealPolicy>>({});
  const ids = seals.map((s) => s.id).join(',');
  const reload = useCallback(async () => {
    if (!isEnabled || !ids) return setPolicies({});
    const found = await Promise.all(
      ids.split(',').map((sealId) => getSealPolicy({ sealId }).catch(() => null)), // no rule shown then
    );
    setPolicies(Object.fromEntries(found.filter((p) => p !== null).map((p) => [p.sealId, p])));
  }, [ids, isEnabled]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { policies, reload };
}

/** One line on a seal card: who approves its uses ("Approval: Zhang San then Li Si"), and what it lacks. */
export function PolicySummary({ policy }: { policy: SealPolicy }) {
  const tt = usePolicyTexts();
  if (policy.mode === 'none') return <div className="seal-card-muted">{tt('summaryNone')}</div>;
  const nameOf = (a: SealPolicy['approvers'][number]) => a.name ?? a.phoneMasked;
  const names = policy.approvers
    .map(nameOf)
    .join(tt(policy.mode === 'all_in_order' ? 'inOrderJoin' : 'anyJoin'));
  const key = (
    { one: 'summaryOne', all_in_order: 'summaryInOrder', all_any_order: 'summaryAnyOrder' } as const
  )[policy.mode];
  const lost = policy.approvers.filter((a) => !a.isApprover);
  return (
    <div data-testid="seal-policy-summary">
      {tt(key, { names })}
      {policy.minAmount !== null ? tt('above', { amount: String(policy.minAmount) }) : ''}
      {policy.templateIds?.length ? tt('forTemplates', { n: policy.templateIds.length }) : ''}
      {lost.map((a) => (
        <div key={a.userId} style={{ color: '#d4380d', fontSize: 12 }}>
          {tt('lostApprover', { name: nameOf(a) })}
        </div>
      ))}
    </div>
  );
}

/**
 * The approval rule form of one company seal: no approval, one of, all in order (the order shown, changed with
 * the arrows) or all in any order; approvers among the members holding the approver role; optionally only from an
 * amount or for given templates; self-approval; how long an approval stays usable. Saving warns first: requests
 * under the old rule become void.
 */
export function SealPolicyDialog({
  seal,
  title,
  policy,
  onClose,
  onSaved,
}: {
  seal: Seal;
  title: string;
  policy: SealPolicy | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const tt = usePolicyTexts();
  const sealId = seal.id;
  const load = useCallback(() => getSealPolicy({ sealId }), [sealId]);
  return (
    <ApprovalRuleDialog
      title={tt('title', { seal: title })}
      policy={policy}
      load={load}
      save={(body) => saveSealPolicy({ sealId, ...body })}
      warning={tt('voidWarning')}
      onClose={onClose}
      onSaved={onSaved}
    />
  );
}
