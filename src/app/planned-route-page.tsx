import { useMatches } from 'react-router-dom';
import { PlannedPage } from '@/components/planned-page.tsx';
import { pick, useI18nStore } from '@/i18n/i18n-store.ts';
import { paths } from '@/config/paths.ts';
import { PLANNED_ROUTES, type PlannedKey } from './planned-routes.ts';
import type { RouteHandle } from './route-guard.ts';

/** Renders the planned-route entry named by the matched route's `handle.planned`. */
export default function PlannedRoutePage() {
  const locale = useI18nStore((s) => s.locale);
  const matches = useMatches();
  const key = (matches.at(-1)?.handle as RouteHandle | undefined)?.planned as PlannedKey;
  const entry = PLANNED_ROUTES[key];
  if (!entry) return null;
  return (
    <PlannedPage
      route={paths[key]}
      title={pick(locale, entry.title)}
      description={pick(locale, entry.description)}
      backTo={paths.home}
    />
  );
}
