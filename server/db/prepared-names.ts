import { createHash } from 'node:crypto';

/**
 * Names for PostgreSQL's prepared statements. node-postgres sends a statement with a name once per connection
 * (Parse) and afterwards only binds and executes it, where an unnamed one is parsed, analysed and planned again
 * at every call (the cluster bench: 42–45 signatures/s unnamed, 47–53 named). Like JDBC's `prepareThreshold`,
 * a text is named once it has run HOT_AFTER times in this process, and at most MAX_NAMED texts are, so every
 * connection keeps a bounded set (PostgreSQL keeps each one per backend); a text seen once (an IN list of an
 * odd length) stays unnamed, and past MAX_TRACKED texts no new one is counted. PGlite (one connection, in process) gets
 * strings, never a config object, and is left alone.
 */
const HOT_AFTER = 2;
const MAX_NAMED = 300;
const MAX_TRACKED = 5000;

/** Per text: how often it ran while unnamed, or its name; NEVER after a stale plan (see forgetPreparedName). */
const texts = new Map<string, number | string>();
const NEVER = -1;
let namedCount = 0;

type QueryConfig = { text?: unknown; name?: unknown };

/**
 * `config` with a statement name when its text is hot (and so `pg` prepares it on each connection once); null
 * to send it as it is: not a parameterised query config, named already, cold, or past the caps.
 */
export function withPreparedName(config: unknown, params: unknown): object | null {
  if (typeof config !== 'object' || config === null || !Array.isArray(params) || params.length === 0)
    return null;
  const c = config as QueryConfig;
  if (typeof c.text !== 'string' || c.name) return null;
  const seen = texts.get(c.text);
  if (typeof seen === 'string') return { ...c, name: seen };
  if (seen === NEVER) return null;
  if (seen === undefined) {
    if (texts.size < MAX_TRACKED) texts.set(c.text, 1);
    return null;
  }
  if (seen + 1 < HOT_AFTER || namedCount >= MAX_NAMED) {
    texts.set(c.text, seen + 1);
    return null;
  }
  const name = `p_${createHash('sha1').update(c.text).digest('base64url')}`;
  texts.set(c.text, name);
  namedCount += 1;
  return { ...c, name };
}

/**
 * PostgreSQL refuses a prepared statement whose result columns changed since it was prepared (`SELECT *`
 * after a migration of another instance added a column): "cached plan must not change result type". That call
 * fails; its text is never named again in this process, so the next call of it plans afresh.
 */
export function isStalePlanError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan');
}

export function forgetPreparedName(text: string): void {
  texts.set(text, NEVER);
}
