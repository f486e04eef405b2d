// SQL of the contract centre (issue 29): the search over the flows an account sees, and the centre's own
// tables (migrations 168, 169): centre_folders, centre_tags, centre_flow_tags, centre_flow_folders,
// centre_views, centre_zips. Every statement is scoped to the caller's account. Rows come back camelCase.
import { type SQL, sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, likePattern, rows, ts } from '../../db/sql-helpers.ts';
import type { Flow, Party } from './queries.ts';

/** An account (person 0 or company 1), as the centre's tables key it. */
export type CentreAccount = { ownerType: 0 | 1; ownerId: string };

/**
 * Who the account is in flows: the launching account, and the parties it signs for (a person's phone; a
 * company's parties, all of them for its administrator, those sent to the member's phone otherwise).
 */
export type CentreScope = CentreAccount & {
  signer: { kind: 'person'; phone: string } | { kind: 'company'; companyId: string; phone: string | null };
};

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** The account launched the flow `f`. */
const sentSql = (s: CentreScope): SQL => sql`(f.owner_type = ${s.ownerType} AND f.owner_id = ${s.ownerId})`;

/** The account is a party of the flow `f` it did not launch (a flow held for approval is not sent yet). */
function receivedSql(s: CentreScope): SQL {
  const who =
    s.signer.kind === 'person'
      ? sql`p.kind = 'person' AND p.phone = ${s.signer.phone}`
      : s.signer.phone === null
        ? sql`p.kind = 'company' AND p.company_id = ${s.signer.companyId}`
        : sql`p.kind = 'company' AND p.company_id = ${s.signer.companyId} AND p.phone = ${s.signer.phone}`;
  return sql`(NOT ${sentSql(s)} AND NOT f.held_for_approval
    AND f.id IN (SELECT p.flow_id FROM flow_parties p WHERE ${who}))`;
}

/** How the account sees a flow: it launched it, it is a party, or it is only a copy recipient (抄送). */
export type CentreVia = 'sent' | 'received' | 'copied';

/**
 * A person copied on the flow `f` (flow_cc, migration 164) that neither launched it nor is a party of it. Copy
 * recipients are phones, so only a person account sees them here; a held flow has told nobody yet.
 */
function copiedSql(s: CentreScope & { signer: { kind: 'person' } }): SQL {
  return sql`(NOT ${sentSql(s)} AND NOT ${receivedSql(s)} AND NOT f.held_for_approval
    AND f.id IN (SELECT c.flow_id FROM flow_cc c WHERE c.phone = ${s.signer.phone}))`;
}

/**
 * THE seam of "flows visible to the account": conditions on a flow `f`, one per way of seeing it, that never
 * hold together (so the branches' rows are added, not merged): it launched it, it is a party, or (a person)
 * it is a copy recipient only.
 */
export function visibleBranches(
  s: CentreScope,
  direction: 'all' | CentreVia = 'all',
): { via: CentreVia; where: SQL }[] {
  const all: { via: CentreVia; where: SQL }[] = [
    { via: 'sent', where: sentSql(s) },
    { via: 'received', where: receivedSql(s) },
  ];
  if (s.signer.kind === 'person') all.push({ via: 'copied', where: copiedSql({ ...s, signer: s.signer }) });
  return direction === 'all' ? all : all.filter((b) => b.via === direction);
}

/** The ids of the flows the account sees. */
export function visibleFlowsSql(s: CentreScope): SQL {
  return sql.join(
    visibleBranches(s).map((b) => sql`SELECT f.id FROM flows f WHERE ${b.where}`),
    sql` UNION ALL `,
  );
}

/** The search's filter, already checked (ids the account's own). */
export type CentreQuery = {
  keyword?: string;
  status?: string;
  dateField?: 'launched' | 'completed';
  /** Inclusive start and exclusive end instants. */
  from?: Date;
  until?: Date;
  templateId?: string;
  senderUserId?: string;
  tagIds?: string[];
  folderId?: string;
  direction?: 'all' | CentreVia;
  sort?: 'launchedDesc' | 'launchedAsc' | 'completedDesc' | 'titleAsc';
};

/** A party's phone as typed in a search box: digits only (a space or a dash between them is ignored). */
const phoneOfKeyword = (k: string) => {
  const digits = k.replace(/[\s-]/g, '');
  return /^\+?\d{5,20}$/.test(digits) ? digits : null;
};

/**
 * The flows whose parties or field values match the keyword, computed once per search (a CTE `kw`): one pass
 * over each table, or the exact phone through the (phone, flow_id) index.
 */
function keywordCte(keyword: string): SQL {
  const pattern = likePattern(keyword);
  const phone = phoneOfKeyword(keyword);
  const branches: SQL[] = [
    sql`SELECT kp.flow_id AS id FROM flow_parties kp
        WHERE lower(coalesce(kp.name, '') || ' ' || coalesce(kp.company_name, '')) LIKE ${pattern}`,
    sql`SELECT kf.flow_id AS id FROM flow_fields kf WHERE lower(kf.value) LIKE ${pattern}`,
  ];
  // A phone only in full: equality.
  if (phone) branches.push(sql`SELECT pp.flow_id AS id FROM flow_parties pp WHERE pp.phone = ${phone}`);
  return sql`kw AS MATERIALIZED (${sql.join(branches, sql` UNION `)})`;
}

/** The keyword on the flow `f`: its title and document names (search_text), or a match of `kw`. */
const keywordSql = (keyword: string): SQL =>
  sql`(f.search_text LIKE ${likePattern(keyword)} OR f.id IN (SELECT kw.id FROM kw))`;

function whereSql(s: CentreScope, q: CentreQuery): SQL {
  const conds: SQL[] = [];
  if (q.keyword) conds.push(keywordSql(q.keyword));
  if (q.status) conds.push(sql`f.status = ${q.status}`);
  const dateCol = q.dateField === 'completed' ? sql`f.completed_at` : sql`f.created_at`;
  if (q.from) conds.push(sql`${dateCol} >= ${ts(q.from)}`);
  if (q.until) conds.push(sql`${dateCol} < ${ts(q.until)}`);
  if (q.templateId) conds.push(sql`f.template_id = ${q.templateId}`);
  if (q.senderUserId) conds.push(sql`f.initiator_user_id = ${q.senderUserId}`);
  if (q.tagIds?.length)
    conds.push(
      sql`f.id IN (SELECT tf.flow_id FROM centre_flow_tags tf WHERE tf.tag_id IN (${idList(q.tagIds)}))`,
    );
  if (q.folderId)
    conds.push(sql`f.id IN (SELECT ff.flow_id FROM centre_flow_folders ff
      WHERE ff.folder_id = ${q.folderId} AND ff.owner_type = ${s.ownerType} AND ff.owner_id = ${s.ownerId})`);
  return conds.length ? sql`AND ${sql.join(conds, sql` AND `)}` : sql``;
}

const ORDER: Record<NonNullable<CentreQuery['sort']>, SQL> = {
  launchedDesc: sql`f.created_at DESC, f.id`,
  launchedAsc: sql`f.created_at ASC, f.id`,
  completedDesc: sql`f.completed_at DESC NULLS LAST, f.created_at DESC, f.id`,
  titleAsc: sql`f.title ASC, f.created_at DESC, f.id`,
};

export type CentreRow = Flow & { via: CentreVia };

const SORT_COLUMNS = sql`f.id, f.created_at, f.completed_at, f.title`;

/**
 * The search as one statement (the benchmark explains it): the matches' ids and sort keys (`m`, each
 * visibility branch its own scan, added up: the branches never overlap), how many, and the page's rows.
 */
export function searchStatement(
  s: CentreScope,
  q: CentreQuery,
  page: { pageNum: number; pageSize: number },
): SQL {
  const where = whereSql(s, q);
  const matches = sql.join(
    visibleBranches(s, q.direction).map(
      (b) => sql`SELECT ${SORT_COLUMNS}, ${b.via}::text AS via
        FROM flows f WHERE ${b.where} ${where}`,
    ),
    sql` UNION ALL `,
  );
  const kw = q.keyword ? sql`${keywordCte(q.keyword)},` : sql``;
  return sql`WITH ${kw} m AS MATERIALIZED (${matches}),
      pg AS (SELECT f.id, f.via FROM m f ORDER BY ${ORDER[q.sort ?? 'launchedDesc']}
        LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize})
    SELECT (SELECT count(*) FROM m)::int AS total, f.*, pg.via
    FROM (SELECT 1) one LEFT JOIN (pg JOIN flows f ON f.id = pg.id) ON true
    ORDER BY ${ORDER[q.sort ?? 'launchedDesc']}`;
}

/** A page of the flows the account sees that match, and how many match. */
export async function searchPage(
  ex: Exec,
  s: CentreScope,
  q: CentreQuery,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: CentreRow[]; total: number }> {
  const found = await camelRows<CentreRow & { total: number }>(ex, searchStatement(s, q, page));
  const total = found[0]?.total ?? 0;
  const list = found.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as CentreRow);
  return { list, total };
}

/** Which of `flowIds` the account sees. */
export async function visibleAmong(ex: Exec, s: CentreScope, flowIds: string[]): Promise<Set<string>> {
  if (flowIds.length === 0) return new Set();
  const found = await rows<{ id: string }>(
    ex,
    sql`SELECT v.id FROM (${visibleFlowsSql(s)}) v WHERE v.id IN (${idList(flowIds)})`,
  );
  return new Set(found.map((r) => r.id));
}

/** Every party of the flows, by flow (launch order). */
export async function partiesOfFlows(ex: Exec, flowIds: string[]): Promise<Map<string, Party[]>> {
  const out = new Map<string, Party[]>();
  if (flowIds.length === 0) return out;
  const list = await camelRows<Party>(
    ex,
    sql`SELECT * FROM flow_parties WHERE flow_id IN (${idList(flowIds)}) ORDER BY step_index, ord`,
  );
  for (const p of list) out.set(p.flowId, [...(out.get(p.flowId) ?? []), p]);
  return out;
}

/** Senders (launching users) and templates of the flows the account launched. */
export async function sendersAndTemplates(ex: Exec, a: CentreAccount) {
  const senders = await camelRows<{ userId: string; name: string | null }>(
    ex,
    sql`SELECT initiator_user_id AS user_id, max(initiator_name) AS name FROM flows
        WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} GROUP BY initiator_user_id`,
  );
  const templates = await camelRows<{ templateId: string; name: string }>(
    ex,
    sql`SELECT t.id AS template_id, t.name FROM templates t
        WHERE t.id IN (SELECT DISTINCT template_id FROM flows
          WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND template_id IS NOT NULL)
        ORDER BY t.name`,
  );
  return { senders, templates };
}

// ---------------------------------------------------------------------------------------------------------
// tags and folders

export type TagRow = { id: string; name: string; colour: string };
export type FolderRow = { id: string; name: string };

export async function tagsOf(ex: Exec, a: CentreAccount): Promise<TagRow[]> {
  return camelRows<TagRow>(
    ex,
    sql`SELECT id, name, colour FROM centre_tags WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        ORDER BY name`,
  );
}

export async function foldersOf(ex: Exec, a: CentreAccount): Promise<FolderRow[]> {
  return camelRows<FolderRow>(
    ex,
    sql`SELECT id, name FROM centre_folders WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        ORDER BY name`,
  );
}

/** Which of the ids are tags (or folders) of the account. */
export async function ownLabelIds(
  ex: Exec,
  a: CentreAccount,
  table: 'tags' | 'folders',
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const t = table === 'tags' ? sql`centre_tags` : sql`centre_folders`;
  const found = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM ${t} WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        AND id IN (${idList(ids)})`,
  );
  return new Set(found.map((r) => r.id));
}

/** Inserts or updates a tag of the account; undefined when the name is taken (or the id is not its own). */
export async function upsertTag(
  ex: Exec,
  a: CentreAccount,
  t: { id: string; isNew: boolean; name: string; colour: string; now: Date },
): Promise<TagRow | undefined> {
  if (t.isNew)
    return camelOne<TagRow>(
      ex,
      sql`INSERT INTO centre_tags (id, owner_type, owner_id, name, colour, created_at)
          VALUES (${t.id}, ${a.ownerType}, ${a.ownerId}, ${t.name}, ${t.colour}, ${ts(t.now)})
          ON CONFLICT (owner_type, owner_id, name) DO NOTHING RETURNING id, name, colour`,
    );
  return camelOne<TagRow>(
    ex,
    sql`UPDATE centre_tags SET name = ${t.name}, colour = ${t.colour}
        WHERE id = ${t.id} AND owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        AND NOT EXISTS (SELECT 1 FROM centre_tags o WHERE o.owner_type = ${a.ownerType}
          AND o.owner_id = ${a.ownerId} AND o.name = ${t.name} AND o.id <> ${t.id})
        RETURNING id, name, colour`,
  );
}

export async function upsertFolder(
  ex: Exec,
  a: CentreAccount,
  f: { id: string; isNew: boolean; name: string; now: Date },
): Promise<FolderRow | undefined> {
  if (f.isNew)
    return camelOne<FolderRow>(
      ex,
      sql`INSERT INTO centre_folders (id, owner_type, owner_id, name, created_at)
          VALUES (${f.id}, ${a.ownerType}, ${a.ownerId}, ${f.name}, ${ts(f.now)})
          ON CONFLICT (owner_type, owner_id, name) DO NOTHING RETURNING id, name`,
    );
  return camelOne<FolderRow>(
    ex,
    sql`UPDATE centre_folders SET name = ${f.name}
        WHERE id = ${f.id} AND owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        AND NOT EXISTS (SELECT 1 FROM centre_folders o WHERE o.owner_type = ${a.ownerType}
          AND o.owner_id = ${a.ownerId} AND o.name = ${f.name} AND o.id <> ${f.id})
        RETURNING id, name`,
  );
}

/** Deletes a tag or folder of the account (its assignments go with it); false when not its own. */
export async function deleteLabel(
  ex: Exec,
  a: CentreAccount,
  table: 'tags' | 'folders',
  id: string,
): Promise<boolean> {
  const t = table === 'tags' ? sql`centre_tags` : sql`centre_folders`;
  const gone = await rows<{ id: string }>(
    ex,
    sql`DELETE FROM ${t} WHERE id = ${id} AND owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        RETURNING id`,
  );
  return gone.length > 0;
}

export async function setTag(ex: Exec, tagId: string, flowIds: string[], isOn: boolean, now: Date) {
  const changed = isOn
    ? await rows<{ flowId: string }>(
        ex,
        sql`INSERT INTO centre_flow_tags (tag_id, flow_id, created_at)
            SELECT ${tagId}, x.id::uuid, ${ts(now)} FROM unnest(${sql`ARRAY[${idList(flowIds)}]`}::text[]) AS x(id)
            ON CONFLICT DO NOTHING RETURNING flow_id`,
      )
    : await rows<{ flowId: string }>(
        ex,
        sql`DELETE FROM centre_flow_tags WHERE tag_id = ${tagId} AND flow_id IN (${idList(flowIds)})
            RETURNING flow_id`,
      );
  return changed.length;
}

export async function setFolder(
  ex: Exec,
  a: CentreAccount,
  folderId: string | null,
  flowIds: string[],
  now: Date,
) {
  if (folderId === null) {
    const gone = await rows<{ flowId: string }>(
      ex,
      sql`DELETE FROM centre_flow_folders WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
          AND flow_id IN (${idList(flowIds)}) RETURNING flow_id`,
    );
    return gone.length;
  }
  const moved = await rows<{ flowId: string }>(
    ex,
    sql`INSERT INTO centre_flow_folders (owner_type, owner_id, flow_id, folder_id, created_at)
        SELECT ${a.ownerType}, ${a.ownerId}, x.id::uuid, ${folderId}, ${ts(now)}
        FROM unnest(${sql`ARRAY[${idList(flowIds)}]`}::text[]) AS x(id)
        ON CONFLICT (owner_type, owner_id, flow_id) DO UPDATE SET folder_id = EXCLUDED.folder_id,
          created_at = EXCLUDED.created_at
        RETURNING flow_id`,
  );
  return moved.length;
}

/** The account's tags and folder of each flow. */
export async function labelsOfFlows(ex: Exec, a: CentreAccount, flowIds: string[]) {
  const tags = new Map<string, TagRow[]>();
  const folders = new Map<string, FolderRow>();
  if (flowIds.length === 0) return { tags, folders };
  const tagRows = await camelRows<TagRow & { flowId: string }>(
    ex,
    sql`SELECT tf.flow_id, t.id, t.name, t.colour FROM centre_flow_tags tf JOIN centre_tags t ON t.id = tf.tag_id
        WHERE t.owner_type = ${a.ownerType} AND t.owner_id = ${a.ownerId} AND tf.flow_id IN (${idList(flowIds)})
        ORDER BY t.name`,
  );
  for (const { flowId, ...t } of tagRows) tags.set(flowId, [...(tags.get(flowId) ?? []), t]);
  const folderRows = await camelRows<FolderRow & { flowId: string }>(
    ex,
    sql`SELECT ff.flow_id, c.id, c.name FROM centre_flow_folders ff JOIN centre_folders c ON c.id = ff.folder_id
        WHERE ff.owner_type = ${a.ownerType} AND ff.owner_id = ${a.ownerId} AND ff.flow_id IN (${idList(flowIds)})`,
  );
  for (const { flowId, ...f } of folderRows) folders.set(flowId, f);
  return { tags, folders };
}

// ---------------------------------------------------------------------------------------------------------
// saved views

export type ViewRow = { id: string; name: string; filter: unknown };

export async function viewsOf(ex: Exec, userId: string, a: CentreAccount): Promise<ViewRow[]> {
  return camelRows<ViewRow>(
    ex,
    sql`SELECT id, name, filter FROM centre_views WHERE user_id = ${userId}
        AND owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} ORDER BY name`,
  );
}

/** Saves a view by name (a name used again replaces its filter); an unknown viewId: undefined. */
export async function upsertView(
  ex: Exec,
  userId: string,
  a: CentreAccount,
  v: { id: string; isNew: boolean; name: string; filter: object; now: Date },
): Promise<ViewRow | undefined> {
  const filter = JSON.stringify(v.filter);
  if (v.isNew)
    return camelOne<ViewRow>(
      ex,
      sql`INSERT INTO centre_views (id, user_id, owner_type, owner_id, name, filter, created_at)
          VALUES (${v.id}, ${userId}, ${a.ownerType}, ${a.ownerId}, ${v.name}, ${filter}::jsonb, ${ts(v.now)})
          ON CONFLICT (user_id, owner_type, owner_id, name) DO UPDATE SET filter = EXCLUDED.filter
          RETURNING id, name, filter`,
    );
  return camelOne<ViewRow>(
    ex,
    sql`UPDATE centre_views SET name = ${v.name}, filter = ${filter}::jsonb
        WHERE id = ${v.id} AND user_id = ${userId} AND owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
        AND NOT EXISTS (SELECT 1 FROM centre_views o WHERE o.user_id = ${userId} AND o.owner_type = ${a.ownerType}
          AND o.owner_id = ${a.ownerId} AND o.name = ${v.name} AND o.id <> ${v.id})
        RETURNING id, name, filter`,
  );
}

export async function deleteView(ex: Exec, userId: string, id: string): Promise<boolean> {
  const gone = await rows<{ id: string }>(
    ex,
    sql`DELETE FROM centre_views WHERE id = ${id} AND user_id = ${userId} RETURNING id`,
  );
  return gone.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// zips

export type ZipRow = {
  id: string;
  userId: string;
  ownerType: number;
  ownerId: string;
  flowIds: unknown;
  status: 'building' | 'ready' | 'failed' | 'expired';
  total: number;
  done: number;
  blobKey: string | null;
  size: string | number | null;
  createdAt: unknown;
  finishedAt: unknown;
};

export async function insertZip(
  ex: Exec,
  z: { id: string; userId: string; account: CentreAccount; flowIds: string[]; now: Date },
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO centre_zips (id, user_id, owner_type, owner_id, flow_ids, status, total, created_at)
        VALUES (${z.id}, ${z.userId}, ${z.account.ownerType}, ${z.account.ownerId},
          ${JSON.stringify(z.flowIds)}::jsonb, 'building', ${z.flowIds.length}, ${ts(z.now)})`,
  );
}

export async function findZip(ex: Exec, id: string): Promise<ZipRow | undefined> {
  return camelOne<ZipRow>(ex, sql`SELECT * FROM centre_zips WHERE id = ${id}`);
}

export async function zipProgress(ex: Exec, id: string, done: number): Promise<void> {
  await ex.execute(sql`UPDATE centre_zips SET done = ${done} WHERE id = ${id} AND status = 'building'`);
}

/** Settles a zip once (ready with its blob, or failed); false when it was settled already. */
export async function finishZip(
  ex: Exec,
  id: string,
  r: { status: 'ready' | 'failed'; blobKey: string | null; size: number | null; now: Date },
): Promise<boolean> {
  const done = await rows<{ id: string }>(
    ex,
    sql`UPDATE centre_zips SET status = ${r.status}, blob_key = ${r.blobKey}, size = ${r.size},
          done = CASE WHEN ${r.status} = 'ready' THEN total ELSE done END, finished_at = ${ts(r.now)}
        WHERE id = ${id} AND status = 'building' RETURNING id`,
  );
  return done.length > 0;
}

/**
 * Expires the ready zips finished before `before` (one conditional UPDATE, so overlapping sweeps expire each
 * once): the blob keys no zip still ready uses, for the caller to remove (the store is content-addressed).
 */
export async function expireZips(ex: Exec, before: Date): Promise<string[]> {
  const gone = await camelRows<{ blobKey: string }>(
    ex,
    sql`UPDATE centre_zips SET status = 'expired'
        WHERE status = 'ready' AND finished_at < ${ts(before)} RETURNING blob_key`,
  );
  const keys = [...new Set(gone.map((g) => g.blobKey).filter(Boolean))];
  if (keys.length === 0) return [];
  const kept = await camelRows<{ blobKey: string }>(
    ex,
    sql`SELECT DISTINCT blob_key FROM centre_zips WHERE status = 'ready' AND blob_key IN (${idList(keys)})`,
  );
  const keep = new Set(kept.map((k) => k.blobKey));
  return keys.filter((k) => !keep.has(k));
}
