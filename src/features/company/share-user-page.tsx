import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import { useEffect, useState } from 'react';
import { getExclusiveCode } from '@/api/company.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { showError, useAction, useCompanyTexts } from './parts.tsx';

type Invitation = { code: string; link: string; companyName: string };

/** /manage/account/accountInfo/shareUser: the company's invitation code and link (getExclusiveCode). */
export default function ShareUserPage() {
  const tt = useCompanyTexts();
  const isAdmin = useSessionStore((s) => s.userInfo?.isAdmin ?? false);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const { isBusy, run } = useAction();
  useEffect(() => {
    getExclusiveCode({}).then(setInvitation).catch(showError);
  }, []);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify.success(tt('copied'), 2000);
    } catch {
      // clipboard refused (insecure context): the text stays selectable on screen
    }
  };
  if (!invitation) return <Spin />;
  return (
    <Card title={tt('shareTitle', { name: invitation.companyName })}>
      <p>{tt('shareHelp')}</p>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={tt('inviteCode')}>
          <strong data-testid="invite-code" style={{ fontSize: 20, letterSpacing: 2 }}>
            {invitation.code}
          </strong>
        </Descriptions.Item>
        <Descriptions.Item label={tt('link')}>
          <span data-testid="invite-link" style={{ wordBreak: 'break-all' }}>
            {invitation.link}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Space wrap style={{ marginTop: 12 }}>
        <Button onClick={() => void copy(invitation.code)}>{`${tt('copy')} ${tt('inviteCode')}`}</Button>
        <Button onClick={() => void copy(invitation.link)}>{`${tt('copy')} ${tt('link')}`}</Button>
        {isAdmin && (
          <Button
            loading={isBusy}
            onClick={() => void run(async () => setInvitation(await getExclusiveCode({ isRenewed: true })))}
          >
            {tt('renew')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
