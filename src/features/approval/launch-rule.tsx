import Button from 'antd/es/button';
import { useState } from 'react';
import { getLaunchPolicy, saveLaunchPolicy } from '@/api/approval.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { policyTexts } from '@/components/approval-rule-texts.ts';
import { ApprovalRuleDialog } from '@/components/approval-rule-dialog.tsx';
import { useApprovalTexts } from './parts.tsx';

/**
 * The administrator's "Launch approval rule" button of the approvals centre and its dialog (the seal rule's
 * form): which handlers' launches wait for whose approval before the contract is sent.
 */
export function LaunchRuleButton() {
  const tt = useApprovalTexts();
  const tp = useTexts(policyTexts);
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setIsOpen(true)}>{tt('launchRule')}</Button>
      {isOpen ? (
        <ApprovalRuleDialog
          title={tp('launchTitle')}
          help={tp('launchHelp')}
          policy={undefined}
          load={getLaunchPolicy}
          save={saveLaunchPolicy}
          warning={tp('launchWarning')}
          confirmText={tp('launchConfirmSave')}
          hasValidHours={false}
          onClose={() => setIsOpen(false)}
          onSaved={() => setIsOpen(false)}
        />
      ) : null}
    </>
  );
}
