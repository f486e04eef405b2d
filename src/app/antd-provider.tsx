import ConfigProvider from 'antd/es/config-provider';
import type { Locale as AntdLocale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import { type ReactNode, useEffect, useState } from 'react';
import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { appTheme } from '@/lib/theme.ts';

// antd's texts (pagination, pickers, empty states). English is antd's built-in default, bundled anyway;
// Chinese loads when chosen.
const loadAntdLocale = (locale: Locale): Promise<AntdLocale> =>
  locale === 'zh-CN' ? import('antd/es/locale/zh_CN').then((m) => m.default) : Promise.resolve(enUS);

/**
 * antd's theme and locale, following the chosen language. Screens that use antd render inside it (the root
 * layout wraps them, src/app/root-layout.tsx); it loads as its own chunk, so a screen without antd (the
 * signing room) pays neither for antd's core nor for computing its theme.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const locale = useI18nStore((s) => s.locale);
  // Never undefined: ConfigProvider wraps its children differently without a locale, and switching
  // from none to one would remount the whole screen (and lose what the user typed).
  const [antdLocale, setAntdLocale] = useState<AntdLocale>(enUS);

  useEffect(() => {
    let isCurrent = true;
    void loadAntdLocale(locale).then((loaded) => {
      if (isCurrent) setAntdLocale(loaded);
    });
    return () => {
      isCurrent = false;
    };
  }, [locale]);

  return (
    // autoInsertSpace off: antd would render 登录 as "登 录", which is not the button's name to a reader or a test.
    <ConfigProvider locale={antdLocale} theme={appTheme} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}
