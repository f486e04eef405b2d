/**
 * pg-boss's own schema in the app's database (server/jobs). It lives here, below the job system, because the
 * embedded database's template (template.ts) has it installed already: installing it costs PGlite most of a
 * second of one connection, which a fresh start would otherwise spend just after listen, while its first
 * requests wait. pg-boss finds its schema at the version it expects and installs nothing.
 */
export const JOBS_SCHEMA = 'pgboss';

/** The SQL that installs pg-boss's schema on PGlite, as pg-boss's own start would (its construction plan). */
export async function jobSchemaPlan(): Promise<string> {
  // Loaded here only when a template is built: pg-boss's code costs a quarter of a second to load.
  const { getConstructionPlans } = await import('pg-boss');
  return getConstructionPlans(JOBS_SCHEMA, { backend: 'pglite' });
}
