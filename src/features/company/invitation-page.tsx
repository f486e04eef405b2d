import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import {
  type CompanyInvitation,
  answerCompanyInvitation,
  getCompanyInvitation,
  switchAccount,
} from '@/api/company.ts';
import { ApiError } from '@/api/http.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { isPhoneDevice } from '@/lib/device.ts';
import { formatTime } from '@/lib/format-time.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { InvitationTag } from './invitations-card.tsx';
import { invitationTexts } from './invitation-texts.ts';
import { MobilePage, useAction } from './parts.tsx';

/**
 * /companyInvitation/:invitationId (issue 6): an operator invitation addressed to the logged-in person's
 * phone, opened from its SMS link or from /message, on a PC or a phone (the frame fits 375 px). Accept or
 * decline; once accepted the person may act for the company at once. Someone else's invitation is "not
 * found" (the server decides by the caller's phone).
 */
export default function InvitationPage() {
  const ti = useTexts(invitationTexts);
  const locale = useI18nStore((s) => s.locale);
  const setVerified = useSessionStore((s) => s.setVerified);
  const navigate = useSafeNavigate();
  const { invitationId = '' } = useParams();
  const [invitation, setInvitation] = useState<CompanyInvitation | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { isBusy, run } = useAction();

  const load = useCallback(async () => {
    try {
      setInvitation(await getCompanyInvitation({ invitationId }));
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  }, [invitationId]);
  useEffect(() => {
    void load();
  }, [load]);

  const answer = (isAccepted: boolean) =>
    run(async () => {
      setInvitation(await answerCompanyInvitation({ invitationId, isAccepted }));
    });

  const actForCompany = (companyId: string) =>
    run(async () => {
      setVerified(await switchAccount({ targetUserType: 1, companyId }));
      navigate(isPhoneDevice() ? paths.mobileHome : paths.manage);
    });

  const company = invitation?.companyName ?? '';
  const outcome: Partial<
    Record<CompanyInvitation['status'], 'acceptedText' | 'declinedText' | 'withdrawnText' | 'expiredText'>
  > = {
    accepted: 'acceptedText',
    declined: 'declinedText',
    withdrawn: 'withdrawnText',
    expired: 'expiredText',
  };
  const outcomeKey = invitation ? outcome[invitation.status] : undefined;

  return (
    <MobilePage title={ti('screenTitle')}>
      <div style={{ maxWidth: 560, margin: '0 auto' }}>
        {problem ? <Alert type="error" title={problem} /> : null}
        {invitation ? (
          <Card aria-label={ti('screenTitle')}>
            <p style={{ fontSize: 16 }}>{ti('screenText', { company, role: ti(invitation.role) })}</p>
            {invitation.invitedByName ? <p>{ti('invitedBy', { name: invitation.invitedByName })}</p> : null}
            <p>
              <InvitationTag status={invitation.status} /> {ti('expiresAt')}{' '}
              {formatTime(invitation.expiresAt, locale)}
            </p>
            {outcomeKey ? (
              <Alert
                type={invitation.status === 'accepted' ? 'success' : 'info'}
                title={ti(outcomeKey, { company })}
                style={{ marginBottom: 12 }}
              />
            ) : null}
            {invitation.status === 'pending' ? (
              <Space wrap>
                <Button type="primary" loading={isBusy} onClick={() => void answer(true)}>
                  {ti('accept')}
                </Button>
                <Button loading={isBusy} onClick={() => void answer(false)}>
                  {ti('decline')}
                </Button>
              </Space>
            ) : null}
            {invitation.status === 'accepted' ? (
              <Button
                type="primary"
                loading={isBusy}
                onClick={() => void actForCompany(invitation.companyId)}
              >
                {ti('actForCompany')}
              </Button>
            ) : null}
          </Card>
        ) : null}
      </div>
    </MobilePage>
  );
}
