import Button from 'antd/es/button';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useT } from '@/i18n/i18n-store.ts';

/**
 * Screens outside /manage that still belong to the workspace (/signList, /pcSignList, /foundCompany) sit in the
 * workspace layout (header, menu, footer as the platform entry says) and get a way back: the previous screen
 * when there is one in this tab, else the workspace.
 */
export default function BackFrame() {
  const t = useT();
  const navigate = useSafeNavigate();
  const navigateBy = useNavigate();
  const location = useLocation();
  const back = () => {
    // 'default' is the key of the first entry of this tab: nothing to go back to inside the app
    if (location.key === 'default') navigate(paths.manage);
    else void navigateBy(-1);
  };
  return (
    <>
      <Button type="link" onClick={back} data-testid="way-back" style={{ paddingInline: 0, minHeight: 44 }}>
        ← {t('common.back')}
      </Button>
      <Outlet />
    </>
  );
}
