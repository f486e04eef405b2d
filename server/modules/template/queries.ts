import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Account } from '../../lib/account.ts';
import { camelOne, camelRows, type Exec, likePattern, one, rows, ts } from '../../db/sql-helpers.ts';

// SQL of templates and their launch drafts. Every query takes the caller's account and is scoped by it.

export type TemplateRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  name: string;
  description: string | null;
  documentName: string;
  blobKey: string;
  sha256: string;
  pages: number;
  pageSizes: unknown;
  roles: unknown;
  fields: unknown;
  positions: unknown;
  signConfigId: string | null;
  createdBy: string;
  createdAt: unknown;
  updatedAt: unknown;
};

const SELECT = sql`SELECT t.* FROM templates t`;

const own = (account: Account) =>
  sql`t.owner_type = ${account.ownerType} AND t.owner_id = ${account.ownerId} AND t.deleted_at IS NULL`;

export async function findTemplate(
  ex: Exec,
  account: Account,
  id: string,
): Promise<TemplateRecord | undefined> {
  return camelOne<TemplateRecord>(ex, sql`${SELECT} WHERE t.id = ${id} AND ${own(account)}`);
}

type TemplateContent = {
  name: string;
  description: string | null;
  roles: unknown;
  fields: unknown;
  positions: unknown;
  signConfigId: string | null;
};

export async function insertTemplate(
  ex: Exec,
  account: Account,
  v: TemplateContent & {
    documentName: string;
    blobKey: string;
    sha256: string;
    pages: number;
    pageSizes: unknown;
    createdBy: string;
    now: Date;
  },
): Promise<string> {
  const id = randomUUID();
  await ex.execute(sql`
    INSERT INTO templates (id, owner_type, owner_id, name, description, document_name, blob_key, sha256, pages,
      page_sizes, roles, fields, positions, sign_config_id, created_by, created_at, updated_at)
    VALUES (${id}, ${account.ownerType}, ${account.ownerId}, ${v.name}, ${v.description}, ${v.documentName},
      ${v.blobKey}, ${v.sha256}, ${v.pages}, ${JSON.stringify(v.pageSizes)}::jsonb, ${JSON.stringify(v.roles)}::jsonb,
      ${JSON.stringify(v.fields)}::jsonb, ${JSON.stringify(v.positions)}::jsonb, ${v.signConfigId}, ${v.createdBy},
      ${ts(v.now)}, ${ts(v.now)})`);
  return id;
}

export async function updateTemplate(
  ex: Exec,
  account: Account,
  id: string,
  v: TemplateContent & { now: Date },
): Promise<boolean> {
  const done = await rows(
    ex,
    sql`UPDATE templates t SET name = ${v.name}, description = ${v.description},
          roles = ${JSON.stringify(v.roles)}::jsonb, fields = ${JSON.stringify(v.fields)}::jsonb,
          positions = ${JSON.stringify(v.positions)}::jsonb, sign_config_id = ${v.signConfigId},
          updated_at = ${ts(v.now)}
        WHERE t.id = ${id} AND ${own(account)} RETURNING t.id`,
  );
  return done.length === 1;
}

export async function deleteTemplate(ex: Exec, account: Account, id: string, now: Date): Promise<boolean> {
  const done = await rows(
    ex,
    sql`UPDATE templates t SET deleted_at = ${ts(now)} WHERE t.id = ${id} AND ${own(account)} RETURNING t.id`,
  );
  return done.length === 1;
}

export async function listTemplates(
  ex: Exec,
  account: Account,
  f: { pageNum: number; pageSize: number; keyword?: string },
): Promise<{ list: TemplateRecord[]; total: number }> {
  const conds = [own(account)];
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(sql`(lower(t.name) LIKE ${p} OR lower(t.document_name) LIKE ${p})`);
  }
  const where = sql.join(conds, sql` AND `);
  const total =
    (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM templates t WHERE ${where}`))?.n ?? 0;
  const list = await camelRows<TemplateRecord>(
    ex,
    sql`${SELECT} WHERE ${where} ORDER BY t.updated_at DESC, t.id LIMIT ${f.pageSize}
        OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list, total };
}

export type DraftRecord = {
  id: string;
  templateId: string;
  documentId: string;
  title: string;
  fieldValues: unknown;
  assignments: unknown;
  flowId: string | null;
  createdAt: unknown;
  updatedAt: unknown;
};

export async function findDraft(ex: Exec, account: Account, id: string): Promise<DraftRecord | undefined> {
  return camelOne<DraftRecord>(
    ex,
    sql`SELECT * FROM template_drafts WHERE id = ${id} AND owner_type = ${account.ownerType}
        AND owner_id = ${account.ownerId}`,
  );
}

export async function insertDraft(
  ex: Exec,
  account: Account,
  v: {
    templateId: string;
    documentId: string;
    title: string;
    values: unknown;
    assignments: unknown;
    createdBy: string;
    now: Date;
  },
): Promise<string> {
  const id = randomUUID();
  await ex.execute(sql`
    INSERT INTO template_drafts (id, owner_type, owner_id, template_id, document_id, title, field_values, assignments,
      created_by, created_at, updated_at)
    VALUES (${id}, ${account.ownerType}, ${account.ownerId}, ${v.templateId}, ${v.documentId}, ${v.title},
      ${JSON.stringify(v.values)}::jsonb, ${JSON.stringify(v.assignments)}::jsonb, ${v.createdBy}, ${ts(v.now)},
      ${ts(v.now)})`);
  return id;
}

/** Replaces an unlaunched draft's content; false when it was launched (or is not the account's). */
export async function updateDraft(
  ex: Exec,
  account: Account,
  id: string,
  v: { documentId: string; title: string; values: unknown; assignments: unknown; now: Date },
): Promise<boolean> {
  const done = await rows(
    ex,
    sql`UPDATE template_drafts SET document_id = ${v.documentId}, title = ${v.title},
          field_values = ${JSON.stringify(v.values)}::jsonb, assignments = ${JSON.stringify(v.assignments)}::jsonb,
          updated_at = ${ts(v.now)}
        WHERE id = ${id} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
          AND flow_id IS NULL RETURNING id`,
  );
  return done.length === 1;
}

export async function markDraftLaunched(ex: Exec, id: string, flowId: string, now: Date): Promise<void> {
  await ex.execute(
    sql`UPDATE template_drafts SET flow_id = ${flowId}, updated_at = ${ts(now)} WHERE id = ${id} AND flow_id IS NULL`,
  );
}

/** Live templates per sign configuration, for the configurations named. */
export async function templateCountsByConfig(ex: Exec, configIds: string[]): Promise<Map<string, number>> {
  const found = await rows<{ id: string; n: number }>(
    ex,
    sql`SELECT sign_config_id AS id, count(*)::int AS n FROM templates
        WHERE deleted_at IS NULL AND sign_config_id IN (${sql.join(
          configIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        GROUP BY sign_config_id`,
  );
  return new Map(found.map((r) => [r.id, Number(r.n)]));
}

/** A deleted configuration: its templates keep their roles but point at no configuration. */
export async function unlinkConfig(ex: Exec, configId: string): Promise<void> {
  await ex.execute(sql`UPDATE templates SET sign_config_id = NULL WHERE sign_config_id = ${configId}`);
}
