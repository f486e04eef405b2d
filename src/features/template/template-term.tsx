// Issue 29 on the template launch: a renewal (?renew=<flowId>, from "Renew" on a completed template flow) fills
// the roles with the old flow's parties in order (step by step) and its title; the review screen carries the
// contract's term (the renewal's next term, or one the launcher sets) and the flow renewed to launchTemplateFlow.
import Checkbox from 'antd/es/checkbox';
import { useEffect, useState } from 'react';
import type { Template } from '@/api/template.ts';
import { getFlowRenewal, type RenewalParty, type TermInput } from '@/api/term.ts';
import { newTerm, type TermDraft, TermFields, termIssue, termRequest } from '@/components/term-fields.tsx';
import { termTexts } from '@/components/term-texts.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { localDayValue } from '@/lib/format-time.ts';
import { initialParty, type PartyForm, partyFromAssignment } from './fill-model.ts';

/** The roles' parties of a renewal: each role gets the party at its place in its step, when of its kind. */
export function renewalParties(
  t: Template,
  steps: { parties: RenewalParty[] }[],
  ownCompanyId: string | null,
): PartyForm[] {
  return t.roles.map((role) => {
    const place = t.roles.filter((r) => r.stepIndex === role.stepIndex).indexOf(role);
    const p = steps[role.stepIndex]?.parties[place];
    if (!p || p.kind !== role.kind || !p.phone) return initialParty(role, !!ownCompanyId);
    return partyFromAssignment(
      p.kind === 'person'
        ? { roleKey: role.key, kind: 'person', name: p.name ?? '', phone: p.phone, intent: p.intent }
        : {
            roleKey: role.key,
            kind: 'company',
            ...(p.companyId ? { companyId: p.companyId } : {}),
            ...(p.companyName ? { companyName: p.companyName } : {}),
            operatorPhone: p.phone,
            ...(p.name ? { operatorName: p.name } : {}),
            intent: p.intent,
          },
      ownCompanyId,
    );
  });
}

/** The review screen's term: the renewal's next term when renewing; what launchTemplateFlow adds. */
export function useTemplateTerm(renewFlowId: string | null) {
  const [term, setTerm] = useState<TermDraft | null>(null);
  useEffect(() => {
    if (!renewFlowId) return;
    getFlowRenewal({ flowId: renewFlowId }).then(
      (r) =>
        r.term &&
        setTerm({ ...r.term, remindDays: r.term.remindDays ?? [], remindPeople: r.term.remindPeople ?? [] }),
      () => {},
    );
  }, [renewFlowId]);
  const request: { term?: TermInput; renewsFlowId?: string } = {
    ...(term ? { term: termRequest(term) } : {}),
    ...(renewFlowId ? { renewsFlowId: renewFlowId } : {}),
  };
  return { term, setTerm, request, isValid: !term || termIssue(term) === null };
}

export function TemplateTermSection({
  term,
  setTerm,
}: {
  term: TermDraft | null;
  setTerm: (t: TermDraft | null) => void;
}) {
  const tt = useTexts(termTexts);
  return (
    <div>
      <Checkbox
        checked={!!term}
        onChange={(e) => setTerm(e.target.checked ? newTerm(localDayValue(new Date())) : null)}
      >
        {tt('hasTerm')}
      </Checkbox>
      {term ? <TermFields term={term} onChange={setTerm} /> : null}
    </div>
  );
}
