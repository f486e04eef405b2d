import type { PathKey } from '@/config/paths.ts';

/** A screen that a later issue builds: what it is and what it will offer, in both languages. */
export type PlannedRoute = { title: { zh: string; en: string }; description: { zh: string; en: string } };

/**
 * Every route of SPEC §2 that is not built yet. Each renders PlannedPage with this text and the
 * `data-planned` attribute; the README's feature table marks it "not yet". Empty now: every route of
 * SPEC §2 has its screen; a screen planned later adds `key: { title: {zh, en}, description: {zh, en} }`.
 */
export const PLANNED_ROUTES: Partial<Record<PathKey, PlannedRoute>> = {};

export type PlannedKey = PathKey;
