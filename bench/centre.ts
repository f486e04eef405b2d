// The contract centre's search (issue 29) at 100,000 flows in one account: the flows, a party each (and the
// account's own phone as a second party on one in ten, launched by another account: "received"), a signer
// field value each and a tag on 1,000, seeded with set-based SQL; then typical searches through HTTP
// (searchContracts, the page's parties, documents and labels included), the median of 5 runs each.
// Embedded database (PGlite) by default, budget 1 s; PostgreSQL when BENCH_DATABASE_URL names a server
// (a database is created there and dropped after), budget 300 ms.
// `npm run bench -- centre`; BENCH_CENTRE_FLOWS for a quicker look (the goals are stated for 100,000).
import '../scripts/require-node24.ts';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { type CentreTag, saveCentreTag, searchContracts } from '#contract/calls/centre.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import { one, rows } from '#server/db/sql-helpers.ts';
import type { AppDeps } from '#server/deps.ts';
import { type CentreQuery, type CentreScope, searchStatement } from '#server/modules/flow/index.ts';
import type { Figure } from './foundation.ts';
import { inProcessApp } from './in-process.ts';
import { median } from './lib.ts';
import { contractPdf, person } from './signers.ts';
import { scratchDatabase } from '../scripts/scratch-database.ts';

const FLOWS = Number(process.env.BENCH_CENTRE_FLOWS ?? 100_000);
const RUNS = 5;

/** A fresh database on the PostgreSQL of BENCH_DATABASE_URL, or the embedded one. */
async function database(): Promise<{ env: Record<string, string>; drop(): Promise<void>; engine: string }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) return { env: {}, drop: async () => {}, engine: 'PGlite' };
  const scratch = await scratchDatabase(admin, 'esign_bench_centre');
  return { env: { DATABASE_URL: scratch.url }, engine: 'PostgreSQL', drop: scratch.drop };
}

/** BENCH_CENTRE_EXPLAIN=1: the plan of a case's statement, printed. */
async function explain(deps: AppDeps, userId: string, phone: string, filter: Record<string, unknown>) {
  const scope: CentreScope = { ownerType: 0, ownerId: userId, signer: { kind: 'person', phone } };
  const statement = searchStatement(scope, filter as CentreQuery, { pageNum: 1, pageSize: 20 });
  const plan = await rows<Record<string, string>>(deps.db, sql`EXPLAIN ANALYZE ${statement}`);
  console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
}

export async function run(): Promise<Figure[]> {
  const db = await database();
  const { deps, kit, close } = await inProcessApp('esign-bench-centre-', db.env);
  try {
    const phone = '13900000001';
    const me = await person(kit, phone);
    const userId = (await one<{ id: string }>(deps.db, sql`SELECT id FROM users WHERE phone = ${phone}`))!.id;
    const doc = await me.b.call<{ documentId: string }>(uploadDocument, { userType: 0 }, await contractPdf());
    const tag = await me.b.call<CentreTag>(saveCentreTag, { userType: 0, name: 'bench', colour: '#336699' });

    const seedStarted = performance.now();
    const other = '00000000-0000-4000-8000-0000000000b1';
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO flows (id, owner_type, owner_id, initiator_user_id, initiator_name, title, status, step_count,
          deadline, search_text, quota_state, created_at, completed_at)
        SELECT md5('f' || i)::uuid, 0, CASE WHEN i % 10 = 0 THEN ${other}::uuid ELSE ${userId}::uuid END,
          ${userId}::uuid, '张三', t.title, CASE WHEN i % 3 = 0 THEN 'completed' ELSE 'signing' END, 1,
          now() + interval '30 days', lower(t.title), 'reserved', now() - i * interval '1 minute',
          CASE WHEN i % 3 = 0 THEN now() - i * interval '1 minute' + interval '1 hour' END
        FROM generate_series(1, ${FLOWS}) i,
          LATERAL (SELECT (ARRAY['租赁','采购','劳动','服务','保密'])[1 + i % 5] || '合同 第' || i || '号 '
            || substr(md5(i::text), 1, 8) AS title) t`);
      await tx.execute(sql`
        INSERT INTO flow_parties (id, flow_id, step_index, ord, kind, name, phone, applies, positions, status,
          link_type)
        SELECT md5('p' || i)::uuid, md5('f' || i)::uuid, 0, 0, 'person', '客户' || i,
          '138' || lpad(i::text, 8, '0'), '{}', '[]', 'pending', 1
        FROM generate_series(1, ${FLOWS}) i`);
      await tx.execute(sql`
        INSERT INTO flow_parties (id, flow_id, step_index, ord, kind, name, phone, applies, positions, status,
          link_type)
        SELECT md5('q' || i)::uuid, md5('f' || i)::uuid, 0, 1, 'person', '张三', ${phone}, '{}', '[]', 'pending', 1
        FROM generate_series(10, ${FLOWS}, 10) i`);
      await tx.execute(sql`
        INSERT INTO flow_fields (id, flow_id, party_id, document_id, ord, key, label, kind, is_required, page,
          rect, pdf_name, value)
        SELECT md5('ff' || i)::uuid, md5('f' || i)::uuid, md5('p' || i)::uuid, ${doc.documentId}::uuid, 0,
          'plate', '车牌', 'text', true, 1, '[0,0,1,1]', 'f_' || i, '浙A' || lpad(i::text, 6, '0')
        FROM generate_series(1, ${FLOWS}) i`);
      await tx.execute(sql`
        INSERT INTO centre_flow_tags (tag_id, flow_id, created_at)
        SELECT ${tag.tagId}::uuid, md5('f' || i)::uuid, now() FROM generate_series(7, ${FLOWS}, ${Math.max(1, Math.floor(FLOWS / 1000))}) i`);
    });
    await deps.db.execute(sql`ANALYZE`);
    const seedMs = performance.now() - seedStarted;

    const n = Math.floor(FLOWS / 2) + 1;
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const cases: { name: string; filter: Record<string, unknown>; atLeast: number }[] = [
      { name: 'no filter, newest first (page 1 of 20)', filter: {}, atLeast: FLOWS },
      { name: 'a word of many titles (采购, a fifth)', filter: { keyword: '采购' }, atLeast: FLOWS / 5 },
      { name: "one contract's title code", filter: { keyword: `第${n}号` }, atLeast: 1 },
      { name: "a party's name", filter: { keyword: `客户${n}` }, atLeast: 1 },
      { name: "a party's full phone", filter: { keyword: `138${String(n).padStart(8, '0')}` }, atLeast: 1 },
      {
        name: 'a partial phone (matches none)',
        filter: { keyword: `138${String(n).padStart(8, '0')}`.slice(0, 8) },
        atLeast: 0,
      },
      { name: 'a field value', filter: { keyword: `浙A${String(n).padStart(6, '0')}` }, atLeast: 1 },
      {
        name: 'status completed, launched today, title order',
        filter: { status: 'completed', dateFrom: today, dateTo: today, sort: 'titleAsc' },
        atLeast: 1,
      },
      { name: 'one tag (1,000 flows)', filter: { tagIds: [tag.tagId] }, atLeast: 1 },
      { name: 'received only', filter: { direction: 'received' }, atLeast: FLOWS / 10 },
    ];
    const budget = db.engine === 'PostgreSQL' ? 300 : 1000;
    const figures: Figure[] = [
      { name: 'load average (1 min) while measuring', value: loadavg()[0], unit: '' },
      {
        name: `${FLOWS} flows seeded (parties, field values, tags) on ${db.engine}`,
        value: seedMs,
        unit: 'ms',
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const page = await me.b.call<{ total: number }>(searchContracts, {
          userType: 0,
          filter: c.filter,
          pageSize: 20,
        });
        times.push(performance.now() - started);
        total = page.total;
      }
      if (process.env.BENCH_CENTRE_EXPLAIN) await explain(deps, userId, phone, c.filter);
      if (total < c.atLeast || (c.atLeast === 0 && total !== 0))
        throw new Error(
          `${c.name}: ${total} found, expected ${c.atLeast === 0 ? 'none' : `at least ${c.atLeast}`}`,
        );
      figures.push({
        name: `${db.engine}: ${c.name} (${total} found)`,
        value: median(times),
        unit: 'ms',
        budget,
      });
    }
    return figures;
  } finally {
    await close();
    await db.drop();
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('centre', await run());
}
