import { useCallback } from 'react';
import { type NavigateOptions, useLocation, useNavigate, useNavigation } from 'react-router-dom';

/**
 * navigate() that ignores a navigation to the location already shown and swallows the router's
 * rejection of an interrupted navigation (SPEC §2: duplicate-navigation errors are swallowed).
 */
export function useSafeNavigate() {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (to: string, options?: NavigateOptions) => {
      if (to === location.pathname + location.search) return;
      try {
        const pending = navigate(to, options);
        if (pending instanceof Promise) pending.catch(() => {});
      } catch {
        // the router refused a navigation that is already under way: nothing to do
      }
    },
    [navigate, location.pathname, location.search],
  );
}

/**
 * A screen's own redirect once it knows more (e.g. "this step is not done yet, go back to it"), as a replace.
 * It is skipped once the user has moved on: while another navigation is under way, or when the address no
 * longer shows this screen (a hash change the router has not rendered yet). A late answer must not pull the
 * user back into this screen's flow.
 */
export function useScreenRedirect() {
  const navigate = useSafeNavigate();
  const location = useLocation();
  const isIdle = useNavigation().state === 'idle';
  return useCallback(
    (to: string) => {
      const shown = `#${location.pathname}${location.search}`;
      if (isIdle && decodeURI(window.location.hash) === decodeURI(shown)) navigate(to, { replace: true });
    },
    [isIdle, navigate, location.pathname, location.search],
  );
}
