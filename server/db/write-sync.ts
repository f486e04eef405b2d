import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { WriteWatch } from './write-watch.ts';

/**
 * Several instances on one PostgreSQL: each tells the others which tables it wrote, so their caches of
 * derived data (db/write-watch.ts, lib/derived-cache.ts) stop answering at once instead of after
 * CACHE_TTL_MS. A write becomes visible to others when it commits; at that moment (a statement outside a
 * transaction returned, or a COMMIT) its tables are sent with `pg_notify` before the statement's promise
 * resolves, so the answer that follows a write leaves only after the others were told. Concurrent writes
 * share one notification. Each instance LISTENs on its own connection and bumps the named tables' stamps.
 * A lost listening connection may have missed notifications: every table counts as written then, and again
 * once it listens anew. The time to live stays as the bound for what no notification covers.
 */
const WRITES_CHANNEL = 'esign_writes';
/** Written where the tables are not known (raw SQL, a transaction's end). */
const ANY_TABLE = '*';
const RECONNECT_MS = 1000;

type WritePublisher = (tables: Iterable<string | null>) => Promise<void>;

/** Parses a notification: the sender and the tables (null: unknown, i.e. all). */
function parseWrites(payload: string): { from: string; tables: (string | null)[] } {
  const bar = payload.indexOf('|');
  const from = payload.slice(0, bar);
  const tables = payload
    .slice(bar + 1)
    .split(',')
    .filter(Boolean)
    .map((t) => (t === ANY_TABLE ? null : t));
  return { from, tables };
}

export class WriteSync {
  readonly #id = randomUUID();
  readonly #url: string;
  readonly #watch: WriteWatch;
  readonly #onError: (err: unknown) => void;
  #listener: pg.Client | null = null;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;
  readonly #pending = new Set<string>();
  #next: Promise<void> | null = null;
  #running: Promise<void> = Promise.resolve();

  constructor(opts: { url: string; watch: WriteWatch; onError?: (err: unknown) => void }) {
    this.#url = opts.url;
    this.#watch = opts.watch;
    this.#onError = opts.onError ?? (() => {});
  }

  /** Starts listening; resolves once the LISTEN is in place. */
  async start(): Promise<void> {
    await this.#listen();
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    client.on('notification', (msg) => {
      if (msg.channel !== WRITES_CHANNEL || !msg.payload) return;
      const { from, tables } = parseWrites(msg.payload);
      if (from === this.#id) return;
      for (const t of tables) this.#watch.bump(t);
    });
    const lost = (err?: unknown) => {
      if (this.#listener !== client) return;
      this.#listener = null;
      this.#watch.bump(null);
      if (err) this.#onError(err);
      client.end().catch(() => {});
      if (!this.#closed) this.#retry();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${WRITES_CHANNEL}`);
    if (this.#closed) {
      await client.end();
      return;
    }
    this.#listener = client;
    // Whatever was written while no connection listened is unknown here.
    this.#watch.bump(null);
  }

  #retry(): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#listen().catch((err) => {
        this.#onError(err);
        if (!this.#closed) this.#retry();
      });
    }, RECONNECT_MS);
    this.#timer.unref();
  }

  /** Tells the other instances that `tables` (null: unknown) were written and committed. */
  readonly publish: WritePublisher = (tables) => {
    for (const t of tables) this.#pending.add(t ?? ANY_TABLE);
    if (this.#pending.size === 0) return Promise.resolve();
    if (!this.#next) {
      // One notification in flight at a time; what arrives meanwhile goes in the next one, together.
      const next = this.#running.then(async () => {
        this.#next = null;
        const batch = this.#pending.has(ANY_TABLE) ? [ANY_TABLE] : [...this.#pending];
        this.#pending.clear();
        // On the listening connection, never the pool: a transaction holds its pool connection until its
        // COMMIT resolves, so with every pool connection in a COMMIT waiting for a free one to notify
        // through, none would ever be freed (that stalled 50 signers on three instances).
        const client = this.#listener;
        if (!client) {
          this.#onError(new Error('no listening connection: the other instances are not told of this write'));
          return;
        }
        try {
          await client.query('SELECT pg_notify($1, $2)', [WRITES_CHANNEL, `${this.#id}|${batch.join(',')}`]);
        } catch (err) {
          // The write itself succeeded; the others' caches fall back to their time to live.
          this.#onError(err);
        }
      });
      this.#next = next;
      this.#running = next;
    }
    return this.#next;
  };

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#listener;
    this.#listener = null;
    await this.#running;
    await client?.end().catch(() => {});
  }
}
