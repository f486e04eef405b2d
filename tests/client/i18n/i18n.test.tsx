import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pager } from '@/components/pager.tsx';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { Providers } from '@/app/providers.tsx';
import { enUS } from '@/i18n/en-US.ts';
import { detectLocale, translate, useI18nStore } from '@/i18n/i18n-store.ts';
import { zhCN } from '@/i18n/zh-CN.ts';
import { LanguageSwitch } from '@/components/language-switch.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('i18n', () => {
  it('has every key in both languages, none empty', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(enUS).sort());
    for (const [key, text] of [...Object.entries(zhCN), ...Object.entries(enUS)])
      expect(text, key).not.toBe('');
  });

  it('chooses from the browser language when nothing is remembered', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['zh-TW', 'en'], language: 'zh-TW' });
    expect(detectLocale()).toBe('zh-CN');
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-FR'], language: 'fr-FR' });
    expect(detectLocale()).toBe('en-US');
  });

  it('prefers the remembered choice', () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['en-US'], language: 'en-US' });
    localStorage.setItem('locale', 'zh-CN');
    expect(detectLocale()).toBe('zh-CN');
  });

  it('fills placeholders', () => {
    expect(translate('en-US', 'auth.sms.resend', { seconds: 42 })).toBe('Resend in 42 s');
    expect(translate('zh-CN', 'pager.total', { total: 3 })).toBe('共 3 条');
  });

  it("switches on click, remembers the choice, and antd's own texts follow", async () => {
    useI18nStore.getState().setLocale('en-US');
    render(
      <Providers>
        <AntdProvider>
          <LanguageSwitch />
          <Pager total={100} current={1} onChange={() => {}} />
        </AntdProvider>
      </Providers>,
    );
    // antd's quick jumper says "Go to" in English and "跳至" in Chinese
    await waitFor(() => expect(screen.getByText(/Go to/)).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: '中文' }));
    await waitFor(() => expect(screen.getByText(/跳至/)).toBeTruthy());
    expect(screen.getByText('共 100 条')).toBeTruthy();
    expect(localStorage.getItem('locale')).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    await waitFor(() => expect(screen.getByText(/Go to/)).toBeTruthy());
  });
});
