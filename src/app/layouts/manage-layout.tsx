import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { getPlatformAdminInfo } from '@/api/package.ts';
import { logout } from '@/api/session.ts';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import type { MessageKey } from '@/i18n/en-US.ts';
import { pick, useI18nStore, useT } from '@/i18n/i18n-store.ts';
import { maskPhone } from '@/lib/masks.ts';
import { notify } from '@/lib/notify.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { paths } from '@/config/paths.ts';

const MENU: { path: string; label: MessageKey }[] = [
  { path: paths.manageStartup, label: 'menu.startup' },
  { path: paths.manageHome, label: 'menu.home' },
  { path: paths.manageFileTemplate, label: 'menu.fileTemplate' },
  { path: paths.manageSignConfig, label: 'menu.signConfig' },
  { path: paths.manageProductList, label: 'menu.productList' },
  { path: paths.accountInfo, label: 'menu.account' },
  { path: paths.accountStamp, label: 'menu.stamp' },
  { path: paths.accountOperator, label: 'menu.operator' },
];

/** The /manage workspace: header, left menu and footer, each shown only if the platform entry says so. */
export default function ManageLayout() {
  const t = useT();
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  const userInfo = useSessionStore((s) => s.userInfo);
  const clearLocalLogin = useSessionStore((s) => s.clearLocalLogin);
  const location = useLocation();
  const navigate = useSafeNavigate();
  // Platform administrators (PLATFORM_ADMIN_PHONES) get the package administration screen in the menu.
  const [isPlatformAdmin, setIsPlatformAdmin] = useState(false);
  const userId = userInfo?.userId ?? null;
  useEffect(() => {
    setIsPlatformAdmin(false);
    if (!userId) return;
    let isLive = true;
    getPlatformAdminInfo()
      .then((r) => isLive && setIsPlatformAdmin(r.isPlatformAdmin))
      .catch(() => {}); // no menu entry then; the screen itself still refuses non-administrators
    return () => {
      isLive = false;
    };
  }, [userId]);
  const menu = isPlatformAdmin
    ? [...MENU, { path: paths.manageAdminPackages, label: 'menu.adminPackages' as MessageKey }]
    : MENU;
  // Who the user acts as: the company (company identity) or the person by name. A person without a name
  // yet is the masked phone the account button already shows: not repeated.
  const actingAs = userInfo
    ? userInfo.userType === 1 && userInfo.companyName
      ? userInfo.companyName
      : userInfo.name || null
    : null;

  const onLogout = async () => {
    try {
      await logout();
    } catch {
      // the local login goes regardless: the user asked to leave
    }
    clearLocalLogin();
    notify.success(t('layout.loggedOut'), 2000);
    navigate(paths.loginPage, { replace: true });
  };

  const selected = menu.filter((item) => location.pathname.startsWith(item.path)).map((item) => item.path);
  const { oxqWorkspace, hyCenter } = entry;
  const name = hyCenter.ptName ? pick(locale, hyCenter.ptName) : '';
  const brand = (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, color: 'inherit' }}>
      {oxqWorkspace.ptLogoUrl && (
        <img src={oxqWorkspace.ptLogoUrl} alt="" width={32} height={32} data-testid="platform-logo" />
      )}
      {name && <strong style={{ fontSize: 18 }}>{name}</strong>}
    </span>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {oxqWorkspace.hasHead && (
        <Layout.Header
          role="banner"
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            background: '#fff',
            borderBottom: '1px solid #f0f0f0',
            paddingInline: 24,
          }}
        >
          {oxqWorkspace.homeUrl ? <Link to={oxqWorkspace.homeUrl}>{brand}</Link> : brand}
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <LanguageSwitch />
            {actingAs ? (
              <span data-testid="acting-as" style={{ color: '#666', whiteSpace: 'nowrap' }}>
                {t('layout.actingAs', { who: actingAs })}
              </span>
            ) : null}
            {userInfo ? (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [{ key: 'logout', label: t('layout.logout') }],
                  onClick: ({ key }) => key === 'logout' && void onLogout(),
                }}
              >
                <Button title={t('layout.userMenu')} data-testid="current-user">
                  {maskPhone(userInfo.phone)}
                </Button>
              </Dropdown>
            ) : (
              <Button type="primary" onClick={() => navigate(paths.loginPage)}>
                {t('layout.login')}
              </Button>
            )}
          </span>
        </Layout.Header>
      )}
      <Layout>
        {hyCenter.hasLeft && (
          <Layout.Sider width={200} theme="light" role="navigation" breakpoint="md" collapsedWidth={0}>
            <Menu
              mode="inline"
              selectedKeys={selected}
              items={menu.map((item) => ({ key: item.path, label: t(item.label) }))}
              onClick={({ key }) => navigate(key)}
            />
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: 16 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {hyCenter.hasBottom && (
        <Layout.Footer role="contentinfo" style={{ textAlign: 'center' }}>
          {t('layout.footer')}
        </Layout.Footer>
      )}
    </Layout>
  );
}
