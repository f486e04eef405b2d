import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useEffect, useState } from 'react';
import { type CompanyInvitation, getMyCompanyInvitations } from '@/api/company.ts';
import { fillPath, paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { invitationTexts } from './invitation-texts.ts';

/** The invitations waiting for the person's answer (issue 6), each opening its screen; nothing when none. */
export function MyInvitations() {
  const ti = useTexts(invitationTexts);
  const navigate = useSafeNavigate();
  const [pending, setPending] = useState<CompanyInvitation[]>([]);
  useEffect(() => {
    getMyCompanyInvitations({})
      .then((list) => setPending(list.filter((i) => i.status === 'pending')))
      .catch(() => {
        // the list stays usable without them; refusals were shown by the transport
      });
  }, []);
  if (pending.length === 0) return null;
  return (
    <section aria-label={ti('myInvitations')} style={{ marginBottom: 12 }}>
      {pending.map((i) => (
        <Alert
          key={i.invitationId}
          type="info"
          style={{ marginBottom: 8 }}
          title={ti('screenText', { company: i.companyName, role: ti(i.role) })}
          action={
            <Button
              size="small"
              type="primary"
              onClick={() => navigate(fillPath(paths.companyInvitation, { invitationId: i.invitationId }))}
            >
              {ti('inv_pending')}
            </Button>
          }
        />
      ))}
    </section>
  );
}
