import Button from 'antd/es/button';
import List from 'antd/es/list';
import Tag from 'antd/es/tag';
import { UserType } from '#contract/enums.ts';
import { useCallback, useEffect, useState } from 'react';
import { type SwitchableAccount, getSwitchableAccounts, switchAccount } from '@/api/company.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { MobilePage, RoleTag, showError, useAction, useCompanyTexts } from './parts.tsx';

/**
 * /accountSwitch: act as one's person account or as a company of active membership. The switch happens in
 * the server session (switchAccount); its answer refreshes the cached login info.
 */
export default function AccountSwitchPage() {
  const tt = useCompanyTexts();
  const setVerified = useSessionStore((s) => s.setVerified);
  const [items, setItems] = useState<SwitchableAccount[] | null>(null);
  const { isBusy, run } = useAction();
  const load = useCallback(() => getSwitchableAccounts({}).then(setItems).catch(showError), []);
  useEffect(() => {
    void load();
  }, [load]);

  const label = (a: SwitchableAccount) =>
    a.userType === UserType.Person ? `${tt('personAccount')}${a.name ? ` · ${a.name}` : ''}` : (a.name ?? '');

  return (
    <MobilePage title={tt('switchTitle')}>
      <List
        loading={items === null}
        dataSource={items ?? []}
        renderItem={(a) => (
          <List.Item
            actions={[
              a.isCurrent ? (
                <Tag key="c" color="green">
                  {tt('current')}
                </Tag>
              ) : (
                <Button
                  key="s"
                  type="primary"
                  loading={isBusy}
                  aria-label={`${tt(a.userType === UserType.Person ? 'switchToPerson' : 'switchTo')}: ${label(a)}`}
                  onClick={() =>
                    void run(async () => {
                      const info = await switchAccount({
                        targetUserType: a.userType,
                        companyId: a.companyId ?? undefined,
                      });
                      setVerified(info);
                      notify.success(tt('switched', { name: label(a) }), 2000);
                      await load();
                    })
                  }
                >
                  {tt('switchAccount')}
                </Button>
              ),
            ]}
          >
            <List.Item.Meta
              title={label(a)}
              description={a.role ? <RoleTag role={a.role} /> : tt('personIdentity')}
            />
          </List.Item>
        )}
      />
    </MobilePage>
  );
}
