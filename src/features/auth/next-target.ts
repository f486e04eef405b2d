import { NEXT_PARAM, NEXT_TYPE_PARAM, NEXT_TYPE_ROUTE, paths } from '@/config/paths.ts';

/**
 * Where to go after logging in: the route the guard stored in `next` when `nextType=route`, else the
 * workspace (`fallback`: `/mobileHome` for a phone). Only in-app paths are followed, so a crafted link cannot send the user to another site.
 */
export function nextTarget(search: string, fallback: string = paths.manage): string {
  const query = new URLSearchParams(search);
  const next = query.get(NEXT_PARAM);
  if (
    query.get(NEXT_TYPE_PARAM) === NEXT_TYPE_ROUTE &&
    next &&
    next.startsWith('/') &&
    !next.startsWith('//')
  ) {
    return next;
  }
  return fallback;
}
