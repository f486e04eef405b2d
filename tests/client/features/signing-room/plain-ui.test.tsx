import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { renderApp } from '../../fixtures/render-app.tsx';

// The signing room is what a signer's phone loads from a link (Lighthouse >= 90 on a phone), the login page
// what most visitors load first (200 kB budget): their routes render without antd, whose theme and CSS-in-JS
// cost most of those pages' JS and main-thread time. antd writes its styles into <head> as it renders; these
// pages must add none, the register page (antd) shows the check can see them.
const antdStyles = () =>
  [...document.head.querySelectorAll('style')].filter((s) => /\.ant-|--ant-/.test(s.textContent ?? ''))
    .length;

afterEach(() => cleanup());

describe('signing room without antd', () => {
  it('renders the room for a visitor without a room and writes no antd style', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp('/h5/v1/signing_room');
    expect(
      await screen.findByText(/This signing room is not open in this window/, {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(antdStyles()).toBe(0);
  });

  it('nor does the login page', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp('/loginPage');
    expect(await screen.findByRole('button', { name: 'Log in' }, { timeout: 5000 })).toBeTruthy();
    expect(antdStyles()).toBe(0);
  });

  it('while a screen with antd (the register page) does', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp('/registerPage');
    expect(await screen.findByRole('button', { name: 'Register' }, { timeout: 5000 })).toBeTruthy();
    expect(antdStyles()).toBeGreaterThan(0);
  });
});
