import Button from 'antd/es/button';
import List from 'antd/es/list';
import { useCallback, useEffect, useState } from 'react';
import { type MyCompany, cancelJoinCompany, getMyCompanyList, joinCompany } from '@/api/company.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { MobilePage, StatusTag, showError, useAction, useCompanyTexts } from './parts.tsx';

/** /mobile/joinCompany/waiting: the state of one's join requests (waiting, approved, rejected). */
export default function JoinWaitingPage() {
  const tt = useCompanyTexts();
  const navigate = useSafeNavigate();
  const [items, setItems] = useState<MyCompany[] | null>(null);
  const { isBusy, run } = useAction();
  const load = useCallback(() => getMyCompanyList({}).then(setItems).catch(showError), []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <MobilePage title={tt('waitingTitle')}>
      <Button onClick={() => void load()} loading={isBusy} style={{ marginBottom: 12 }}>
        {tt('refresh')}
      </Button>
      <List
        loading={items === null}
        dataSource={items ?? []}
        locale={{ emptyText: tt('noRequests') }}
        renderItem={(m) => (
          <List.Item
            data-testid="join-request"
            actions={[
              m.status === 'pending' && (
                <Button
                  key="w"
                  type="link"
                  onClick={() =>
                    void run(async () => {
                      await cancelJoinCompany({ memberId: m.memberId });
                      await load();
                    })
                  }
                >
                  {tt('withdraw')}
                </Button>
              ),
              m.status === 'rejected' && (
                <Button
                  key="a"
                  type="link"
                  onClick={() =>
                    void run(async () => {
                      await joinCompany({ companyId: m.companyId });
                      await load();
                    })
                  }
                >
                  {tt('askAgain')}
                </Button>
              ),
              m.status === 'active' && (
                <Button key="s" type="link" onClick={() => navigate(paths.accountSwitch)}>
                  {tt('switchTo')}
                </Button>
              ),
            ].filter(Boolean)}
          >
            <List.Item.Meta title={m.companyName} description={<StatusTag status={m.status} />} />
          </List.Item>
        )}
      />
    </MobilePage>
  );
}
