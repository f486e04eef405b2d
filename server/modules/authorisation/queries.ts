// SQL of authorisation_letters (migration 155). Every read is scoped by the company that issued the letter or
// the one it was granted to; answers camelCase records.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';

/** A named id kept on the letter as issued (a seal, a template, an API key): names do not change the letter. */
export type Named = { id: string; name: string; sealType?: number | null };

export type LetterRow = {
  id: string;
  number: string;
  companyId: string;
  kind: 'member' | 'auto_sign' | 'company';
  granteeUserId: string | null;
  granteeCompanyId: string | null;
  sealIds: Named[];
  purpose: string;
  templateIds: Named[];
  apiKeyIds: Named[];
  validFrom: Date | string;
  validTo: Date | string;
  maxUses: number | null;
  usedCount: number;
  status: 'pending' | 'active' | 'revoked';
  pdfKey: string;
  pdfSha256: string;
  issuedBy: string;
  intent: Record<string, unknown>;
  sealAuthorisationId: string | null;
  createdAt: Date | string;
  acceptedAt: Date | string | null;
  acceptedBy: string | null;
  revokedAt: Date | string | null;
  revokedBy: string | null;
  revokeReason: string | null;
};

const json = (v: unknown) => JSON.stringify(v);

/** The next letter number of the year: SQ-<year>-<6 digits>. */
export async function nextNumber(ex: Exec, year: number): Promise<string> {
  const row = await camelOne<{ n: string | number }>(
    ex,
    sql`SELECT nextval('authorisation_letter_seq') AS n`,
  );
  return `SQ-${year}-${String(row?.n ?? 0).padStart(6, '0')}`;
}

export async function insertLetter(
  ex: Exec,
  v: Omit<
    LetterRow,
    | 'usedCount'
    | 'acceptedAt'
    | 'acceptedBy'
    | 'revokedAt'
    | 'revokedBy'
    | 'revokeReason'
    | 'validFrom'
    | 'validTo'
    | 'createdAt'
  > & { validFrom: Date; validTo: Date; createdAt: Date },
): Promise<LetterRow> {
  const row = await camelOne<LetterRow>(
    ex,
    sql`INSERT INTO authorisation_letters (id, number, company_id, kind, grantee_user_id, grantee_company_id,
          seal_ids, purpose, template_ids, api_key_ids, valid_from, valid_to, max_uses, status, pdf_key,
          pdf_sha256, issued_by, intent, seal_authorisation_id, created_at)
        VALUES (${v.id}, ${v.number}, ${v.companyId}, ${v.kind}, ${v.granteeUserId}, ${v.granteeCompanyId},
          ${json(v.sealIds)}::jsonb, ${v.purpose}, ${json(v.templateIds)}::jsonb, ${json(v.apiKeyIds)}::jsonb,
          ${ts(v.validFrom)}, ${ts(v.validTo)}, ${v.maxUses}, ${v.status}, ${v.pdfKey}, ${v.pdfSha256},
          ${v.issuedBy}, ${json(v.intent)}::jsonb, ${v.sealAuthorisationId}, ${ts(v.createdAt)})
        RETURNING *`,
  );
  if (!row) throw new Error('letter not stored');
  return row;
}

/** A letter issued by the company or granted to it; undefined otherwise (another company's is not found). */
export function findLetter(ex: Exec, companyId: string, id: string): Promise<LetterRow | undefined> {
  return camelOne<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters
        WHERE id = ${id} AND (company_id = ${companyId} OR grantee_company_id = ${companyId})`,
  );
}

/** A page of the company's letters (issued, or granted to it), newest first; `userId` keeps a member's own. */
export async function listLetters(
  ex: Exec,
  companyId: string,
  o: { userId?: string; kind?: string; offset: number; limit: number },
): Promise<{ rows: LetterRow[]; total: number }> {
  const where = sql`(company_id = ${companyId} OR grantee_company_id = ${companyId})
    ${o.userId ? sql`AND grantee_user_id = ${o.userId}` : sql``}
    ${o.kind ? sql`AND kind = ${o.kind}` : sql``}`;
  const rows = await camelRows<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters WHERE ${where}
        ORDER BY created_at DESC, number DESC LIMIT ${o.limit} OFFSET ${o.offset}`,
  );
  const count = await camelOne<{ n: string | number }>(
    ex,
    sql`SELECT count(*) AS n FROM authorisation_letters WHERE ${where}`,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** Revokes a letter of the company (not revoked before); the row after, or undefined when nothing changed. */
export function revokeLetter(
  ex: Exec,
  v: { companyId: string; id: string; by: string | null; reason: string; now: Date },
): Promise<LetterRow | undefined> {
  return camelOne<LetterRow>(
    ex,
    sql`UPDATE authorisation_letters SET status = 'revoked', revoked_at = ${ts(v.now)}, revoked_by = ${v.by},
          revoke_reason = ${v.reason}
        WHERE id = ${v.id} AND company_id = ${v.companyId} AND status <> 'revoked' RETURNING *`,
  );
}

/** Accepts a pending company letter granted to `companyId`; the row after, or undefined. */
export function acceptLetter(
  ex: Exec,
  v: { companyId: string; id: string; by: string; now: Date },
): Promise<LetterRow | undefined> {
  return camelOne<LetterRow>(
    ex,
    sql`UPDATE authorisation_letters SET status = 'active', accepted_at = ${ts(v.now)}, accepted_by = ${v.by}
        WHERE id = ${v.id} AND grantee_company_id = ${v.companyId} AND kind = 'company' AND status = 'pending'
        RETURNING *`,
  );
}

/** The condition of a letter in force at `now`: active, within its period, its count not reached. */
const inForce = (now: Date) => sql`status = 'active' AND valid_from <= ${ts(now)} AND valid_to > ${ts(now)}
  AND (max_uses IS NULL OR used_count < max_uses)`;

/**
 * The company's automatic-signing letters in force now that name the template or the API key, oldest first
 * (or only the one named).
 */
export function autoSignLetters(
  ex: Exec,
  v: { companyId: string; templateId: string | null; apiKeyId: string | null; now: Date; letterId?: string },
): Promise<LetterRow[]> {
  const scope = [
    v.templateId ? sql`template_ids @> ${json([{ id: v.templateId }])}::jsonb` : null,
    v.apiKeyId ? sql`api_key_ids @> ${json([{ id: v.apiKeyId }])}::jsonb` : null,
  ].filter((c) => c !== null);
  if (scope.length === 0) return Promise.resolve([]);
  return camelRows<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters
        WHERE company_id = ${v.companyId} AND kind = 'auto_sign' AND ${inForce(v.now)}
          AND (${sql.join(scope, sql` OR `)}) ${v.letterId ? sql`AND id = ${v.letterId}` : sql``}
        ORDER BY created_at, id`,
  );
}

/** Counts one use of a letter still in force; false when it is not (revoked, out of period, count reached). */
export async function useLetter(ex: Exec, id: string, now: Date): Promise<boolean> {
  const rows = await camelRows<{ id: string }>(
    ex,
    sql`UPDATE authorisation_letters SET used_count = used_count + 1 WHERE id = ${id} AND ${inForce(now)}
        RETURNING id`,
  );
  return rows.length === 1;
}

/** The number of a member letter in force now that grants the user one of the seals. */
export async function memberLetterFor(
  ex: Exec,
  v: { companyId: string; userId: string; sealIds: string[]; now: Date },
): Promise<string | null> {
  for (const sealId of v.sealIds) {
    const row = await camelOne<{ number: string }>(
      ex,
      sql`SELECT number FROM authorisation_letters
          WHERE company_id = ${v.companyId} AND kind = 'member' AND grantee_user_id = ${v.userId}
            AND seal_ids @> ${json([{ id: sealId }])}::jsonb AND ${inForce(v.now)}
          ORDER BY created_at DESC LIMIT 1`,
    );
    if (row) return row.number;
  }
  return null;
}

/** The company's accepted `company` letters in force now (cross-company grants), oldest first. */
export function companyGrants(ex: Exec, companyId: string, now: Date): Promise<LetterRow[]> {
  return camelRows<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters
        WHERE company_id = ${companyId} AND kind = 'company' AND ${inForce(now)}
        ORDER BY created_at, id`,
  );
}

/** Live member letters issued with a seal authorisation. */
export function lettersOfSealAuthorisation(ex: Exec, sealAuthorisationId: string): Promise<LetterRow[]> {
  return camelRows<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters
        WHERE seal_authorisation_id = ${sealAuthorisationId} AND status <> 'revoked'`,
  );
}

/** Letters of a member for a seal not revoked yet (a new member letter supersedes them). */
export function liveMemberLetters(
  ex: Exec,
  companyId: string,
  userId: string,
  sealId: string,
): Promise<LetterRow[]> {
  return camelRows<LetterRow>(
    ex,
    sql`SELECT * FROM authorisation_letters
        WHERE company_id = ${companyId} AND kind = 'member' AND grantee_user_id = ${userId}
          AND seal_ids @> ${json([{ id: sealId }])}::jsonb AND status <> 'revoked'`,
  );
}

/**
 * A member's hand-over (company's memberHandover): the member letters naming `from` are revoked (reason
 * `handover`): a letter names one person, so it never passes to another; the seal authorisations themselves move
 * (seal answers), and the administrator issues the receiver letters of their own. A dry run only counts.
 */
export async function revokeForHandover(
  tx: Exec,
  v: { companyId: string; fromUserId: string; byUserId: string; now: Date; dryRun: boolean },
): Promise<number> {
  const rows = v.dryRun
    ? await camelRows<{ id: string }>(
        tx,
        sql`SELECT id FROM authorisation_letters WHERE company_id = ${v.companyId} AND kind = 'member'
              AND grantee_user_id = ${v.fromUserId} AND status <> 'revoked'`,
      )
    : await camelRows<{ id: string }>(
        tx,
        sql`UPDATE authorisation_letters SET status = 'revoked', revoked_at = ${ts(v.now)},
              revoked_by = ${v.byUserId}, revoke_reason = 'handover'
            WHERE company_id = ${v.companyId} AND kind = 'member' AND grantee_user_id = ${v.fromUserId}
              AND status <> 'revoked' RETURNING id`,
      );
  return rows.length;
}
