import { type ReactNode, useEffect } from 'react';
import { pick, useI18nStore } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { platformFavicon } from '@/platform/platforms.ts';

/**
 * What every screen shares: the document's language follows the chosen one; the title and favicon follow the
 * platform entry. antd's theme and locale are
 * not here but in AntdProvider (src/app/antd-provider.tsx), which the root layout puts around the screens
 * that use antd, so that the entry carries no antd.
 */
export function Providers({ children }: { children: ReactNode }) {
  const locale = useI18nStore((s) => s.locale);
  const entry = usePlatformStore((s) => s.entry);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  // The tab shows the platform in force, never the default platform's brand under a partner (issue 11 edge 5).
  useEffect(() => {
    document.title = pick(locale, entry.fromPtName);
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = platformFavicon(entry);
  }, [locale, entry]);
  return children;
}
