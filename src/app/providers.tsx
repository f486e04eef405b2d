import { type ReactNode, useEffect } from 'react';
import { useI18nStore } from '@/i18n/i18n-store.ts';

/**
 * What every screen shares: the document's language follows the chosen one. antd's theme and locale are
 * not here but in AntdProvider (src/app/antd-provider.tsx), which the root layout puts around the screens
 * that use antd, so that the entry carries no antd.
 */
export function Providers({ children }: { children: ReactNode }) {
  const locale = useI18nStore((s) => s.locale);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return children;
}
