import { bigint, customType, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/010_pki.sql; the SQL file is the source of truth for the database.

/** bytea as Uint8Array on both engines (pg hands out Buffer, PGlite Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => new Uint8Array(v),
  toDriver: (v) => Buffer.from(v),
});

export const pkiCertificates = pgTable('pki_certificates', {
  serial: text('serial').primaryKey(),
  userType: integer('user_type').notNull(),
  accountId: uuid('account_id').notNull(),
  subject: text('subject').notNull(),
  notBefore: timestamp('not_before', { withTimezone: true }).notNull(),
  notAfter: timestamp('not_after', { withTimezone: true }).notNull(),
  pem: text('pem').notNull(),
  encryptedKey: bytea('encrypted_key').notNull(),
  status: text('status').$type<'good' | 'revoked'>().notNull().default('good'),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revocationReason: integer('revocation_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});
