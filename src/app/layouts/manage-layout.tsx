import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { listApprovals } from '@/api/approval.ts';
import { getPlatformAdminInfo } from '@/api/package.ts';
import { logout } from '@/api/session.ts';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import type { MessageKey } from '@/i18n/en-US.ts';
import { pick, useI18nStore, useT } from '@/i18n/i18n-store.ts';
import { maskPhone } from '@/lib/masks.ts';
import { notify } from '@/lib/notify.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { mayLaunch } from '@/session/may-launch.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { paths } from '@/config/paths.ts';

type MenuItem = { path: string; label: MessageKey };
/** A menu entry, or a group of entries that opens in place (its key names no page). */
type MenuEntry = MenuItem | { key: string; label: MessageKey; children: MenuItem[] };

/** Contracts: the list and every way to launch one, so launching is found from the menu. */
const CONTRACTS = 'contracts';
const MENU: MenuEntry[] = [
  { path: paths.manageStartup, label: 'menu.startup' },
  { path: paths.manageHome, label: 'menu.home' },
  {
    key: CONTRACTS,
    label: 'menu.contracts',
    children: [
      { path: paths.pcSignList, label: 'menu.contractList' },
      { path: paths.manageContracts, label: 'menu.contractCentre' },
      { path: paths.manageQuicklyFileUpload, label: 'menu.quickLaunch' },
      { path: paths.manageFileUpload, label: 'menu.regularLaunch' },
      { path: paths.manageTemplateCreate, label: 'menu.templateLaunch' },
    ],
  },
  { path: paths.manageFileTemplate, label: 'menu.fileTemplate' },
  { path: paths.manageSignConfig, label: 'menu.signConfig' },
  { path: paths.manageWebhooks, label: 'menu.webhooks' },
  { path: paths.manageProductList, label: 'menu.productList' },
  { path: paths.accountInfo, label: 'menu.account' },
  { path: paths.accountStamp, label: 'menu.stamp' },
  { path: paths.accountLetters, label: 'menu.letters' },
  { path: paths.accountOperator, label: 'menu.operator' },
];

/** On a phone the header may take two lines: the brand stays whole instead of being cut off. */
const NARROW_CSS = `@media (max-width: 575px){.manage-header{height:auto!important;min-height:64px;line-height:1.5!important;padding:8px 12px!important;flex-wrap:wrap;row-gap:4px}}`;

/** The /manage workspace: header, left menu and footer, each shown only if the platform entry says so. */
export default function ManageLayout() {
  const t = useT();
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  const userInfo = useSessionStore((s) => s.userInfo);
  const clearLocalLogin = useSessionStore((s) => s.clearLocalLogin);
  const location = useLocation();
  const navigate = useSafeNavigate();
  const [isNarrow, setIsNarrow] = useState(false);
  const [isMenuOpen, setIsMenuOpen] = useState(false);
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
  // Company members: the seal-use approvals, with the count of requests waiting for the caller's decision.
  const isCompany = userInfo?.userType === 1;
  const [pendingApprovals, setPendingApprovals] = useState(0);
  // Counted again on every navigation (a decision made on the detail screen lowers it).
  const pathname = location.pathname;
  useEffect(() => {
    if (!userId || !isCompany || !pathname) return setPendingApprovals(0);
    let isLive = true;
    listApprovals({ scope: 'toMe', status: 'pending', pageNum: 1, pageSize: 1 })
      .then((r) => isLive && setPendingApprovals(r.total))
      .catch(() => {}); // no count then; the screen itself says what is wrong
    return () => {
      isLive = false;
    };
  }, [userId, isCompany, pathname]);
  // API keys: a person's own, or a company's for its administrators (the calls refuse others anyway).
  const mayManageKeys = userInfo ? userInfo.userType === 0 || userInfo.isAdmin : false;
  // A company member without the handler role does not launch (issue 27): the launch entries are hidden.
  const canLaunch = userInfo ? mayLaunch(userInfo) : true;
  const LAUNCHES: string[] = [
    paths.manageQuicklyFileUpload,
    paths.manageFileUpload,
    paths.manageTemplateCreate,
  ];
  const menu: MenuEntry[] = [
    ...(canLaunch
      ? MENU
      : MENU.map((e) =>
          'children' in e ? { ...e, children: e.children.filter((c) => !LAUNCHES.includes(c.path)) } : e,
        )),
    ...(isCompany ? [{ path: paths.manageApprovals, label: 'menu.approvals' as MessageKey }] : []),
    ...(mayManageKeys ? [{ path: paths.manageApiKeys, label: 'menu.apiKeys' as MessageKey }] : []),
    ...(isPlatformAdmin
      ? [{ path: paths.manageAdminPackages, label: 'menu.adminPackages' as MessageKey }]
      : []),
  ];
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

  // The entry of the longest path the page is under: /manage/home/fileUpload is "Regular launch", not also home.
  const pages = menu.flatMap((entry) => ('children' in entry ? entry.children : [entry]));
  const selected = pages
    .filter((item) => location.pathname.startsWith(item.path))
    .sort((a, b) => b.path.length - a.path.length)
    .slice(0, 1)
    .map((item) => item.path);
  const openGroups = menu.flatMap((entry) =>
    'children' in entry && entry.children.some((item) => selected.includes(item.path)) ? [entry.key] : [],
  );
  const { oxqWorkspace, hyCenter } = entry;
  const name = hyCenter.ptName ? pick(locale, hyCenter.ptName) : '';
  const brand = (
    <span
      data-testid="platform-brand"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, color: 'inherit', whiteSpace: 'nowrap' }}
    >
      {oxqWorkspace.ptLogoUrl && (
        <img src={oxqWorkspace.ptLogoUrl} alt="" width={32} height={32} data-testid="platform-logo" />
      )}
      {name && <strong style={{ fontSize: 18 }}>{name}</strong>}
    </span>
  );

  // Below md the menu folds away; the header's own menu button opens it over the page (antd's zero-width
  // trigger floated over the page title on a phone). Without a header, antd's trigger stays.
  const hasMenuButton = hyCenter.hasLeft && oxqWorkspace.hasHead;
  const isMenuShown = !isNarrow || isMenuOpen;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <style href="manage-layout" precedence="default">
        {NARROW_CSS}
      </style>
      {oxqWorkspace.hasHead && (
        <Layout.Header
          role="banner"
          className="manage-header"
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            background: '#fff',
            borderBottom: '1px solid #f0f0f0',
            paddingInline: 24,
          }}
        >
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            {hasMenuButton && isNarrow && (
              <Button
                type="text"
                aria-label={t('layout.menu')}
                aria-expanded={isMenuOpen}
                data-testid="menu-button"
                onClick={() => setIsMenuOpen((open) => !open)}
                style={{ minWidth: 44, minHeight: 44, fontSize: 20 }}
              >
                ☰
              </Button>
            )}
            {oxqWorkspace.homeUrl ? <Link to={oxqWorkspace.homeUrl}>{brand}</Link> : brand}
          </span>
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
      <Layout style={{ position: 'relative' }}>
        {hyCenter.hasLeft && (
          <Layout.Sider
            width={200}
            theme="light"
            role="navigation"
            breakpoint="md"
            collapsedWidth={0}
            {...(hasMenuButton ? { collapsed: !isMenuShown, trigger: null } : {})}
            onBreakpoint={(isBelow) => {
              setIsNarrow(isBelow);
              setIsMenuOpen(false);
            }}
            style={
              isNarrow && isMenuOpen
                ? {
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    left: 0,
                    zIndex: 20,
                    boxShadow: '2px 0 8px rgba(0,0,0,.15)',
                  }
                : undefined
            }
          >
            <Menu
              mode="inline"
              selectedKeys={selected}
              defaultOpenKeys={openGroups}
              items={menu.map((entry) =>
                'children' in entry
                  ? {
                      key: entry.key,
                      label: t(entry.label),
                      children: entry.children.map((item) => ({ key: item.path, label: t(item.label) })),
                    }
                  : {
                      key: entry.path,
                      label:
                        entry.path === paths.manageApprovals && pendingApprovals > 0 ? (
                          <span>
                            {t(entry.label)}{' '}
                            <Badge count={pendingApprovals} size="small" data-testid="approvals-badge" />
                          </span>
                        ) : (
                          t(entry.label)
                        ),
                    },
              )}
              onClick={({ key }) => {
                setIsMenuOpen(false);
                navigate(key);
              }}
            />
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: 16 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {hyCenter.hasBottom && (
        <Layout.Footer role="contentinfo" style={{ textAlign: 'center' }}>
          {t('layout.footer', { name: pick(locale, entry.fromPtName) })}
        </Layout.Footer>
      )}
    </Layout>
  );
}
