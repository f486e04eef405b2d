import Button from 'antd/es/button';
import List from 'antd/es/list';
import { useEffect, useState } from 'react';
import { type Member, getCompanyStaffList } from '@/api/company.ts';
import { exportSheet } from '@/lib/export-sheet.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { MobilePage, showError, useCompanyTexts } from './parts.tsx';
import { MemberRoleTags, rolesText, useRoleTexts } from './roles-section.tsx';

/** /mobile/staffList: the active members of the company the session acts for, with their roles (issue 27). */
export default function StaffListPage() {
  const tt = useCompanyTexts();
  const tr = useRoleTexts();
  const companyName = useSessionStore((s) => s.userInfo?.companyName);
  const [items, setItems] = useState<Member[] | null>(null);
  useEffect(() => {
    getCompanyStaffList({})
      .then(setItems)
      .catch((e) => {
        showError(e);
        setItems([]);
      });
  }, []);
  return (
    <MobilePage title={companyName ? `${tt('staffTitle')} · ${companyName}` : tt('staffTitle')}>
      <Button
        style={{ marginBottom: 12 }}
        disabled={!items?.length}
        onClick={() =>
          void exportSheet(
            tt('staffTitle'),
            [
              { title: tt('colMemberName'), value: (m: Member) => m.name },
              { title: tt('colPhone'), value: (m: Member) => m.phone },
              {
                title: tt('colRole'),
                value: (m: Member) => rolesText(m, tr),
              },
            ],
            items ?? [],
          )
        }
      >
        {tt('exportSheet')}
      </Button>
      <List
        loading={items === null}
        dataSource={items ?? []}
        renderItem={(m) => (
          <List.Item extra={<MemberRoleTags member={m} />}>
            <List.Item.Meta title={m.name ?? m.phone} description={m.phone} />
          </List.Item>
        )}
      />
    </MobilePage>
  );
}
