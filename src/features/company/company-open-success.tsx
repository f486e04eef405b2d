import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useT } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';

/**
 * The company account-opening success screen (SPEC §8): title, second line and the enter-workspace button,
 * each as the platform entry says (ZYPT: no second line, no button).
 */
export function CompanyOpenSuccess({ onEnter }: { onEnter: () => void }) {
  const t = useT();
  const { successTitle, successTitle2, hasEnterWorkspaceBtn } = usePlatformStore(
    (s) => s.entry.oxqWorkspace.companyOpenAccount,
  );
  return (
    <Result
      status="success"
      title={t(successTitle)}
      subTitle={successTitle2 ? t(successTitle2) : undefined}
      extra={
        hasEnterWorkspaceBtn ? (
          <Button type="primary" onClick={onEnter}>
            {t('companyOpen.enter')}
          </Button>
        ) : undefined
      }
    />
  );
}
