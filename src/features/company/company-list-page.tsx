import Button from 'antd/es/button';
import List from 'antd/es/list';
import Space from 'antd/es/space';
import { useEffect, useState } from 'react';
import { type MyCompany, getMyCompanyList, switchAccount } from '@/api/company.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { exportSheet } from '@/lib/export-sheet.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { MyInvitations } from './my-invitations.tsx';
import { MobilePage, RoleTag, StatusTag, showError, useAction, useCompanyTexts } from './parts.tsx';

/**
 * /mobile/companyList: the companies one belongs to; acting for one opens its staff list. Invitations waiting
 * for an answer are shown first, each opening its screen.
 */
export default function CompanyListPage() {
  const tt = useCompanyTexts();
  const navigate = useSafeNavigate();
  const setVerified = useSessionStore((s) => s.setVerified);
  const [items, setItems] = useState<MyCompany[] | null>(null);
  const { run } = useAction();
  useEffect(() => {
    getMyCompanyList({}).then(setItems).catch(showError);
  }, []);
  return (
    <MobilePage title={tt('companyListTitle')}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button onClick={() => navigate(paths.mobileJoinCompany)}>{tt('joinCompany')}</Button>
        <Button onClick={() => navigate(paths.accountSwitch)}>{tt('switchAccount')}</Button>
        <Button
          disabled={!items?.length}
          onClick={() =>
            void exportSheet(
              tt('companyListTitle'),
              [
                { title: tt('colCompany'), value: (m: MyCompany) => m.companyName },
                { title: tt('colRole'), value: (m: MyCompany) => tt(`role_${m.role}`) },
                { title: tt('colStatus'), value: (m: MyCompany) => tt(`status_${m.status}`) },
              ],
              items ?? [],
            )
          }
        >
          {tt('exportSheet')}
        </Button>
      </Space>
      <MyInvitations />
      <List
        loading={items === null}
        dataSource={items ?? []}
        locale={{ emptyText: tt('noCompanies') }}
        renderItem={(m) => (
          <List.Item
            actions={
              m.status === 'active'
                ? [
                    <Button
                      key="s"
                      type="link"
                      onClick={() =>
                        void run(async () => {
                          setVerified(await switchAccount({ targetUserType: 1, companyId: m.companyId }));
                          navigate(paths.mobileStaffList);
                        })
                      }
                    >
                      {tt('switchTo')}
                    </Button>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={m.companyName}
              description={
                <Space size={4}>
                  <RoleTag role={m.role} />
                  <StatusTag status={m.status} />
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </MobilePage>
  );
}
