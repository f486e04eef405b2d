import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';
import type { Exec } from '../../db/sql-helpers.ts';

// What the sign-config module asks the module above it (template, which uses configurations), without
// importing it (lib/hooks.ts, README.md).

/** "How many live templates use each of these configurations?": the template module answers. */
export const templatesUsingConfigs = defineHook<{ deps: AppDeps; configIds: string[] }, Map<string, number>>(
  'signConfig.templatesUsingConfigs',
);

/**
 * "This configuration was deleted": the template module unlinks its templates, in the same transaction
 * (`ex`), so no template keeps pointing at a deleted configuration.
 */
export const signConfigDeleted = defineHook<{ ex: Exec; configId: string }, void>('signConfig.deleted');
