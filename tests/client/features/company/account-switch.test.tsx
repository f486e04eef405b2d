import { screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SwitchableAccount } from '@/api/company.ts';
import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, companyId: 'c1' }) });

const accounts: SwitchableAccount[] = [
  { userType: 0, companyId: null, name: 'Li Lei', role: null, isCurrent: false },
  { userType: 1, companyId: 'c1', name: 'Acme Ltd', role: 'admin', isCurrent: true },
  { userType: 1, companyId: 'c2', name: 'Globex Ltd', role: 'operator', isCurrent: false },
];

describe('/accountSwitch', () => {
  const cases: [Locale, RegExp, RegExp][] = [
    ['en-US', /yourself|personal|person/i, /company/i],
    ['zh-CN', /个人/, /企业/],
  ];
  it.each(cases)(
    'names the personal row’s button as personal for a screen reader (%s)',
    async (locale, personal, company) => {
      useI18nStore.getState().setLocale(locale);
      server.use(http.post(`${CSIGN}/getSwitchableAccounts`, () => ok(accounts)));
      renderApp('/accountSwitch');
      const buttons = await screen.findAllByRole('button', { name: /Li Lei|Globex Ltd/ }, { timeout: 8000 });
      const [person, other] = buttons.map((b) => b.getAttribute('aria-label') ?? '');
      expect(person).toContain('Li Lei');
      expect(person).toMatch(personal);
      expect(person).not.toMatch(company);
      expect(other).toContain('Globex Ltd');
      expect(other).toMatch(company);
    },
  );
});
