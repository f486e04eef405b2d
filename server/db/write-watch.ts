import { forgetPreparedName, isStalePlanError, withPreparedName } from './prepared-names.ts';

/**
 * Knows when the database last changed, per table, so that in-memory caches of derived data (the session
 * of a cookie, a login's info) can tell whether they may still answer. Every statement this process sends
 * passes the driver wrappers below; a write bumps its table's stamp before it runs and again after it
 * returns, and the end of a transaction bumps everything (its writes become visible only then). A cache
 * entry records the stamp of the tables it read BEFORE it reads them and is valid only while that stamp is
 * unchanged: a write that lands during the read therefore always invalidates it.
 *
 * Writes made by another process (a second server on the same PostgreSQL, `npm run admin`) reach this
 * watch through PostgreSQL's LISTEN/NOTIFY (db/write-sync.ts); caches still bound what no notification
 * covers with a short time to live.
 */
export class WriteWatch {
  /**
   * Set on PostgreSQL (db/write-sync.ts): tells other instances which tables a committed write touched,
   * resolving once they were told. Null on PGlite (one process owns its folder).
   */
  publisher: ((tables: Iterable<string | null>) => Promise<void>) | null = null;
  /** What the caches read, as declared (declareReader); null: nothing declared yet. */
  #readers: { tables: Set<string>; exceptAll: Set<ReadonlySet<string>> } | null = null;
  #counter = 0;
  /** Stamp of the latest write whose table is unknown (raw SQL, transaction ends): it concerns every table. */
  #unknown = 0;
  readonly #tables = new Map<string, number>();

  /**
   * Declares what a cache reads: the tables it names, or every table but `except`. Every instance runs the
   * same code, so the declarations, made when the app is built, say what any instance's caches read: a
   * write to a table none of them reads need not be told to the others (isRead).
   */
  declareReader(reads: { tables: readonly string[] } | { except: ReadonlySet<string> }): void {
    this.#readers ??= { tables: new Set(), exceptAll: new Set() };
    if ('tables' in reads) for (const t of reads.tables) this.#readers.tables.add(t);
    else this.#readers.exceptAll.add(reads.except);
  }

  /** Whether a declared cache reads `table` (null: unknown tables, always yes). None declared: no cache. */
  isRead(table: string | null): boolean {
    if (table === null) return true;
    const r = this.#readers;
    if (!r) return false;
    if (r.tables.has(table)) return true;
    for (const except of r.exceptAll) if (!except.has(table)) return true;
    return false;
  }

  /** Records a write to `table`, or to any table when it is not known. */
  bump(table: string | null): void {
    this.#counter += 1;
    if (table === null) this.#unknown = this.#counter;
    else this.#tables.set(table, this.#counter);
  }

  /** The stamp of the latest write to any of `tables`. */
  stampOf(tables: readonly string[]): number {
    let stamp = this.#unknown;
    for (const t of tables) stamp = Math.max(stamp, this.#tables.get(t) ?? 0);
    return stamp;
  }

  /** The stamp of the latest write to any table except `ignored` (for caches that read many tables). */
  stampExcept(ignored: ReadonlySet<string>): number {
    let stamp = this.#unknown;
    for (const [t, s] of this.#tables) if (!ignored.has(t)) stamp = Math.max(stamp, s);
    return stamp;
  }
}

/** What a statement does to the data: nothing, a write to a known table, or a write to unknown tables. */
type StatementEffect = { kind: 'read' } | { kind: 'write'; table: string | null } | { kind: 'txEnd' };

const WRITE_TARGET = /^\s*(?:insert\s+into|update|delete\s+from)\s+(?:"?\w+"?\.)?"?(\w+)"?/i;
const WRITE_WORD = /\b(?:insert|update|delete|truncate|merge|alter|drop|create|copy|nextval|setval)\b/i;
const NO_EFFECT = /^\s*(?:begin|start\s+transaction|savepoint|release|set|show|listen|select\s+1\s*;?\s*$)/i;
const TX_END = /^\s*(?:commit|end|rollback(?!\s+to))\b/i;

/** Classifies one SQL text (conservatively: anything unclear is a write to unknown tables). */
export function effectOf(text: string): StatementEffect {
  if (TX_END.test(text)) return { kind: 'txEnd' };
  // Several statements in one text: only the first would be read below, so count it as all tables.
  if (/;\s*\S/.test(text)) return { kind: 'write', table: null };
  const target = WRITE_TARGET.exec(text);
  if (target) return { kind: 'write', table: target[1].toLowerCase() };
  if (NO_EFFECT.test(text)) return { kind: 'read' };
  // `SELECT ... FOR UPDATE` locks but does not write; a SELECT that names a writing verb anywhere else
  // (a data-modifying CTE, a function) is treated as a write to unknown tables.
  if (/^\s*select\b/i.test(text) && !WRITE_WORD.test(text.replace(/\bfor\s+(?:no\s+key\s+)?update\b/gi, '')))
    return { kind: 'read' };
  return { kind: 'write', table: null };
}

type Queryable = { query: (...args: never[]) => Promise<unknown> };

const textOf = (arg: unknown): string =>
  typeof arg === 'string'
    ? arg
    : typeof (arg as { text?: unknown })?.text === 'string'
      ? (arg as { text: string }).text
      : '';

/**
 * What a connection of its own (a pg pool client) has written in its open transaction, published to other
 * instances at COMMIT. Statements straight on the pool commit one by one.
 */
type TxState = { open: boolean; written: Set<string | null> };

const TX_BEGIN = /^\s*(?:begin|start\s+transaction)\b/i;
const TX_COMMIT = /^\s*(?:commit|end)\b/i;

/** Runs one statement through `run`, bumping the stamps its effect calls for before and after. */
async function watched<T>(
  watch: WriteWatch,
  text: string,
  run: () => Promise<T>,
  tx: TxState | null,
): Promise<T> {
  const effect = effectOf(text);
  if (effect.kind === 'read') {
    if (tx && TX_BEGIN.test(text)) {
      tx.open = true;
      tx.written.clear();
    }
    return run();
  }
  const table = effect.kind === 'write' ? effect.table : null;
  watch.bump(table);
  let result: T;
  try {
    result = await run();
  } finally {
    watch.bump(table);
  }
  if (!watch.publisher) return result;
  if (effect.kind === 'txEnd') {
    if (tx?.open && TX_COMMIT.test(text) && tx.written.size > 0) await watch.publisher(tx.written);
    if (tx) {
      tx.open = false;
      tx.written = new Set();
    }
  } else if (!watch.isRead(table)) {
    // No cache of any instance reads this table: nobody needs telling.
  } else if (tx?.open) tx.written.add(table);
  else await watch.publisher([table]);
  return result;
}

/**
 * Wraps an object with `query` (and optionally `exec` and `transaction`) so every statement is watched.
 * Works for a PGlite instance and its transactions, a pg Pool and the clients it hands out.
 */
export function watchClient<C extends object>(client: C, watch: WriteWatch, tx: TxState | null = null): C {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      switch (prop) {
        case 'query':
          return (...args: unknown[]) => {
            // PostgreSQL: a hot statement goes as a prepared one (prepared-names.ts).
            const named = withPreparedName(args[0], args[1]);
            if (named) args[0] = named;
            const text = textOf(args[0]);
            const run = () => fn.apply(target, args) as Promise<unknown>;
            return watched(
              watch,
              text,
              named
                ? () =>
                    run().catch((err: unknown) => {
                      if (isStalePlanError(err)) forgetPreparedName(text);
                      throw err;
                    })
                : run,
              tx,
            );
          };
        case 'exec':
          return (...args: unknown[]) =>
            watched(watch, textOf(args[0]), () => fn.apply(target, args) as Promise<unknown>, tx);
        case 'transaction':
          // PGlite: everything inside is one transaction; it becomes visible when the callback resolves.
          return async (cb: (tx: Queryable) => Promise<unknown>) => {
            watch.bump(null);
            try {
              return await fn.call(target, (tx: Queryable) => cb(watchClient(tx, watch)));
            } finally {
              watch.bump(null);
            }
          };
        case 'connect':
          // pg Pool: a transaction runs on a client of its own; its COMMIT is a txEnd statement there.
          return (...args: unknown[]) => {
            if (typeof args[0] === 'function') return fn.apply(target, args); // callback style: unused here
            return (fn.apply(target, args) as Promise<object>).then((conn) =>
              watchClient(conn, watch, { open: false, written: new Set() }),
            );
          };
        default:
          return fn.bind(target);
      }
    },
  });
}
