import ConfigProvider from 'antd/es/config-provider';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { type ReactNode, useEffect, useState } from 'react';
import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { appTheme } from '@/lib/theme.ts';

// antd's texts (pagination, pickers, empty states) load per language, only the one in use.
const loadAntdLocale = (locale: Locale): Promise<AntdLocale> =>
  locale === 'zh-CN'
    ? import('antd/es/locale/zh_CN').then((m) => m.default)
    : import('antd/es/locale/en_US').then((m) => m.default);

/** Theme and antd's locale following the chosen language, for components and for static messages. */
export function Providers({ children }: { children: ReactNode }) {
  const locale = useI18nStore((s) => s.locale);
  const [antdLocale, setAntdLocale] = useState<AntdLocale | undefined>(undefined);

  useEffect(() => {
    let isCurrent = true;
    document.documentElement.lang = locale;
    void loadAntdLocale(locale).then((loaded) => {
      if (!isCurrent) return;
      setAntdLocale(loaded);
      // Static message (src/lib/notify.ts) renders outside this tree: give it the same theme and locale.
      ConfigProvider.config({
        holderRender: (holder) => (
          <ConfigProvider theme={appTheme} locale={loaded}>
            {holder}
          </ConfigProvider>
        ),
      });
    });
    return () => {
      isCurrent = false;
    };
  }, [locale]);

  return (
    <ConfigProvider locale={antdLocale} theme={appTheme}>
      {children}
    </ConfigProvider>
  );
}
