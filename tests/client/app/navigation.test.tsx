import { act, screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { renderApp } from '../fixtures/render-app.tsx';

let go: ReturnType<typeof useSafeNavigate> = () => {};
function Probe() {
  go = useSafeNavigate();
  return <p>probe</p>;
}

beforeEach(() => useI18nStore.getState().setLocale('en-US'));

describe('duplicate navigation (SPEC §2)', () => {
  it('ignores a navigation to the location already shown, without an error and without a history entry', async () => {
    const router = createMemoryRouter([{ path: '*', element: <Probe /> }], { initialEntries: ['/a?x=1'] });
    render(<RouterProvider router={router} />);
    const before = router.state.historyAction;
    act(() => go('/a?x=1'));
    expect(router.state.location.key).toBe('default');
    expect(router.state.historyAction).toBe(before);
    act(() => go('/b'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/b'));
    expect(router.state.historyAction).toBe('PUSH');
  });
});

describe('mobile scope', () => {
  it('/mobileLogin shows the phone login with rem sized from the viewport, capped at 540', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
    renderApp('/mobileLogin');
    expect(await screen.findByRole('heading', { name: 'Log in on your phone' })).toBeTruthy();
    expect(screen.getByLabelText('Phone')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(document.documentElement.style.fontSize).toBe('54px');
  });
});
