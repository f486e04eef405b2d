// SQL of the fields the signer fills (issue 28): `flow_fields` (migration 159). Rows come back camelCase.
// Values change only while the field is not signed (`signed_at IS NULL`): a field filled and signed is never
// changed afterwards.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';

export type FieldRow = {
  id: string;
  flowId: string;
  partyId: string;
  documentId: string;
  ord: number;
  key: string;
  label: string;
  kind: string;
  isRequired: boolean;
  options: unknown;
  page: number;
  rect: unknown;
  pdfName: string;
  value: string | null;
  attachmentKey: string | null;
  attachmentName: string | null;
  attachmentType: string | null;
  attachmentSize: number | null;
  attachmentSha256: string | null;
  savedAt: unknown;
  signedAt: unknown;
};

export type NewFieldRow = {
  id: string;
  partyId: string;
  documentId: string;
  ord: number;
  key: string;
  label: string;
  kind: string;
  isRequired: boolean;
  options: string[] | null;
  page: number;
  rect: [number, number, number, number];
  pdfName: string;
};

export async function insertFields(ex: Exec, flowId: string, fields: NewFieldRow[]): Promise<void> {
  for (const f of fields)
    await ex.execute(sql`
      INSERT INTO flow_fields (id, flow_id, party_id, document_id, ord, key, label, kind, is_required, options,
        page, rect, pdf_name)
      VALUES (${f.id}, ${flowId}, ${f.partyId}, ${f.documentId}, ${f.ord}, ${f.key}, ${f.label}, ${f.kind},
        ${f.isRequired}, ${f.options ? JSON.stringify(f.options) : null}::jsonb, ${f.page},
        ${JSON.stringify(f.rect)}::jsonb, ${f.pdfName})`);
}

export async function fieldsOfFlow(ex: Exec, flowId: string): Promise<FieldRow[]> {
  return camelRows<FieldRow>(ex, sql`SELECT * FROM flow_fields WHERE flow_id = ${flowId} ORDER BY ord`);
}

export async function fieldsOfParty(ex: Exec, partyId: string): Promise<FieldRow[]> {
  return camelRows<FieldRow>(ex, sql`SELECT * FROM flow_fields WHERE party_id = ${partyId} ORDER BY ord`);
}

/** Fields of many flows (the launched list's export), in order. */
export async function fieldsOfFlows(ex: Exec, flowIds: string[]): Promise<FieldRow[]> {
  if (flowIds.length === 0) return [];
  return camelRows<FieldRow>(
    ex,
    sql`SELECT * FROM flow_fields WHERE flow_id IN (${sql.join(
      flowIds.map((id) => sql`${id}`),
      sql`, `,
    )}) ORDER BY flow_id, ord`,
  );
}

export async function findField(ex: Exec, id: string): Promise<FieldRow | undefined> {
  return camelOne<FieldRow>(ex, sql`SELECT * FROM flow_fields WHERE id = ${id}`);
}

/** Saves a draft value of a party's field not signed yet; false when the field is signed (or not the party's). */
export async function saveValue(
  ex: Exec,
  partyId: string,
  fieldId: string,
  value: string | null,
  now: Date,
): Promise<boolean> {
  const r = await camelRows<{ id: string }>(
    ex,
    sql`UPDATE flow_fields SET value = ${value}, saved_at = ${ts(now)}
        WHERE id = ${fieldId} AND party_id = ${partyId} AND signed_at IS NULL RETURNING id`,
  );
  return r.length === 1;
}

export type AttachmentRow = { key: string; name: string; mediaType: string; size: number; sha256: string };

/**
 * Sets (or with null removes) the attachment of a party's field not signed yet; the row as it was before
 * (its earlier attachment) and after, or undefined when the field is signed or not the party's.
 */
export async function setAttachment(
  ex: Exec,
  partyId: string,
  fieldId: string,
  a: AttachmentRow | null,
  now: Date,
): Promise<FieldRow | undefined> {
  return camelOne<FieldRow>(
    ex,
    sql`UPDATE flow_fields SET attachment_key = ${a?.key ?? null}, attachment_name = ${a?.name ?? null},
          attachment_type = ${a?.mediaType ?? null}, attachment_size = ${a?.size ?? null},
          attachment_sha256 = ${a?.sha256 ?? null}, value = ${a?.name ?? null}, saved_at = ${ts(now)}
        WHERE id = ${fieldId} AND party_id = ${partyId} AND signed_at IS NULL RETURNING *`,
  );
}

/** The values written into a document with the party's signature (in the signing transaction). */
export async function markSigned(
  ex: Exec,
  values: { id: string; value: string | null }[],
  now: Date,
): Promise<void> {
  for (const v of values)
    await ex.execute(
      sql`UPDATE flow_fields SET value = ${v.value}, signed_at = ${ts(now)}, saved_at = coalesce(saved_at, ${ts(now)})
          WHERE id = ${v.id} AND signed_at IS NULL`,
    );
}
