// A throw-away database on a PostgreSQL server (the server tests' TEST_DATABASE_URL, the contract centre
// bench's BENCH_DATABASE_URL): created under a random name beside `adminUrl`'s, dropped (connections forced
// off) by `drop`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
