import { HyLoginType } from '#contract/enums.ts';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { loginAsHy } from '@/api/partner.ts';
import { isHyCenterLogin } from '@/api/session.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { nextTarget } from './next-target.ts';
import { showApiError } from '@/api/http.ts';

const CONVERTIBLE: readonly number[] = [HyLoginType.Person, HyLoginType.Company];

/**
 * SPEC §6: when the central user centre reports a login (isHyCenterLogin answers 1 or 4), the login page
 * converts it into a login here (loginAsHy) and continues to `next` (or the workspace) without asking.
 */
export function useCentralLogin(): void {
  const location = useLocation();
  const navigate = useSafeNavigate();
  const setVerified = useSessionStore((s) => s.setVerified);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per visit of the login page
  useEffect(() => {
    let isCurrent = true;
    (async () => {
      const loginType = await isHyCenterLogin();
      if (!isCurrent || !CONVERTIBLE.includes(loginType)) return;
      const info = await loginAsHy();
      if (!isCurrent) return;
      setVerified(info);
      navigate(nextTarget(location.search), { replace: true });
    })().catch((error: unknown) => {
      // Without the central login the page simply stays a login page; a refusal says why.
      showApiError(error);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
}
