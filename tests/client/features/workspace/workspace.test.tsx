import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LoginInfo } from '#contract/calls/session.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { currentStep, startupSteps } from '@/features/workspace/startup-steps.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const openStatus = (isOpen: boolean) => ({
  isOpen,
  userType: 0,
  isRealNameDone: isOpen,
  isAgreementAccepted: isOpen,
  hasCaCert: isOpen,
  agreementVersion: '1',
  identityProvider: { name: 'development', isDevelopment: true },
  isPersonAnswer: false,
});
const page = <T,>(list: T[], total = list.length) => ({ list, total, pageNum: 1, pageSize: 5 });

function loggedIn(info: LoginInfo, opts: { isOpen?: boolean; launched?: number } = {}) {
  setToken('t1');
  loginInfoHandler(info);
  const asked: string[] = [];
  server.use(
    http.post(`${CSIGN}/checkCurrentLoginUserOpenSign`, () => {
      asked.push('open');
      return ok(openStatus(opts.isOpen ?? false));
    }),
    http.post(`${CSIGN}/listLaunchedFlows`, () => {
      asked.push('launched');
      return ok(page([], opts.launched ?? 0));
    }),
  );
  return asked;
}

const stepOf = (key: string) => screen.getByTestId(`startup-step-${key}`);

freshClientEachTest({ locale: 'en-US' });

describe('getting started', () => {
  it('a fresh account has nothing done and continues at opening e-signature', async () => {
    const asked = loggedIn(loginInfo());
    renderApp('/manage/startup');
    // The first render loads the lazy screen: allow for it.
    await screen.findByTestId('startup-step-esign', {}, { timeout: 8000 });
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['open', 'launched'])), {
      timeout: 8000,
    });
    await waitFor(() => expect(stepOf('esign').getAttribute('aria-current')).toBe('step'), { timeout: 8000 });
    for (const key of ['cert', 'seal', 'package', 'contract']) expect(stepOf(key).dataset.done).toBe('false');
    expect(stepOf('esign').getAttribute('aria-current')).toBe('step');
    // The state and "next step" tags are two words to the eye and to a screen reader, not "Not doneNext step".
    const heading = within(stepOf('esign')).getByRole('heading');
    expect(heading.textContent).toMatch(/Not done\s+Next step/);
    expect(within(stepOf('esign')).getByRole('heading', { name: /Not done\s+Next step/ })).toBe(heading);
    expect(within(stepOf('esign')).getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      '/manage/personalEsign',
    );
  });

  it('reflects the account: e-signature open with certificate and seal, one contract launched', async () => {
    loggedIn(loginInfo({ hasCaCert: true, hasSeal: true, remainQuantity: 9 }), { isOpen: true, launched: 1 });
    renderApp('/manage/startup');
    await waitFor(() => expect(stepOf('contract').dataset.done).toBe('true'), { timeout: 8000 });
    expect(stepOf('esign').dataset.done).toBe('true');
    expect(stepOf('cert').dataset.done).toBe('true');
    expect(stepOf('seal').dataset.done).toBe('true');
    expect(stepOf('package').dataset.done).toBe('false');
    expect(stepOf('package').textContent).toContain('9 signings left');
    expect(stepOf('package').getAttribute('aria-current')).toBe('step');
  });

  it(':next continues at the step it names, in Chinese too', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const asked = loggedIn(loginInfo({ userType: 1, companyId: 'c1' }));
    renderApp('/manage/startup/seal');
    await waitFor(() => expect(asked).toContain('launched'), { timeout: 8000 });
    await waitFor(() => expect(stepOf('seal').getAttribute('aria-current')).toBe('step'), { timeout: 8000 });
    expect(within(stepOf('seal')).getByRole('link', { name: '继续' }).getAttribute('href')).toBe(
      '/manage/account/stamp',
    );
    expect(within(stepOf('esign')).getByText('未完成')).toBeTruthy();
  });

  it('a visitor sees the steps and a log-in button, no call is made', async () => {
    renderApp('/manage/startup');
    await screen.findByText('Log in to see which steps you have done.', {}, { timeout: 8000 });
    expect(stepOf('esign').dataset.done).toBe('false');
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toContain('/loginPage?next=');
  });

  it('the step rules: opening counts when real name and agreement are done; unknown :next falls back', () => {
    const steps = startupSteps({ info: loginInfo(), isEsignOpen: true, launchedCount: 0 });
    expect(steps.map((s) => s.isDone)).toEqual([true, false, false, false, false]);
    expect(currentStep(steps, 'nope')).toBe('cert');
    expect(currentStep(steps, '4')).toBe('package');
    expect(startupSteps({ info: null, isEsignOpen: true, launchedCount: 3 }).map((s) => s.isDone)).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
  });
});

describe('workspace home', () => {
  const pending = {
    flowId: 'f1',
    title: 'Lease contract',
    status: 'signing',
    isQuick: true,
    initiatorName: 'Wang',
    initiatorCompanyName: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    deadline: '2026-11-30T08:00:00.000Z',
    completedAt: null,
    currentStep: 0,
    partyCount: 2,
    signedCount: 0,
    documentNames: ['lease.pdf'],
    partyId: 'p1',
    partyStatus: 'pending',
    partyKind: 'person',
  };

  it('shows pending, in progress and signings left from the calls, with previews, quick and regular launch', async () => {
    setToken('t1');
    loginInfoHandler(loginInfo());
    const launchedAsked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listPendingSignatures`, () => ok(page([pending], 7))),
      http.post(`${CSIGN}/listLaunchedFlows`, async ({ request }) => {
        launchedAsked.push(await request.json());
        return ok(page([{ ...pending, title: 'Supply agreement', signedCount: 1 }], 3));
      }),
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 3, used: 0, remaining: 7 })),
    );
    renderApp('/manage/home');
    await screen.findByTestId('home-pending', {}, { timeout: 8000 });
    await waitFor(() => expect(screen.getByTestId('home-pending').dataset.value).toBe('7'), {
      timeout: 8000,
    });
    expect(screen.getByTestId('home-in-progress').dataset.value).toBe('3');
    expect(screen.getByTestId('home-remaining').dataset.value).toBe('7');
    // CountUp reaches the figure.
    await waitFor(() => expect(screen.getByTestId('home-remaining').textContent).toContain('7'), {
      timeout: 2000,
    });
    expect(screen.getByText('Lease contract')).toBeTruthy();
    expect(screen.getByText('Supply agreement')).toBeTruthy();
    expect(screen.getByText('1/2 signed · Deadline', { exact: false })).toBeTruthy();
    expect(launchedAsked[0]).toMatchObject({ status: 'signing', pageSize: 5 });
    expect(screen.getByRole('link', { name: 'Quick launch' }).getAttribute('href')).toBe(
      '/manage/home/quicklyFileUpload',
    );
    expect(screen.getByRole('link', { name: 'Regular launch' }).getAttribute('href')).toBe(
      '/manage/home/fileUpload',
    );
  });
});
