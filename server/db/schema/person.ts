import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// Mirrors migrations/020_person.sql; the SQL file is the source of truth for the database.

export const personIdentities = pgTable('person_identities', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  realName: text('real_name').notNull(),
  idHash: text('id_hash').notNull().unique(),
  idMasked: text('id_masked').notNull(),
  phoneMasked: text('phone_masked').notNull(),
  provider: text('provider').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  faceVerifiedAt: timestamp('face_verified_at', { withTimezone: true }),
  /** The identity provider's request id of the three-factor check (evidence; migration 112). */
  providerRequestId: text('provider_request_id'),
  /** With a real provider only: the ID number sealed (AES-256-GCM, key derived from the master key). */
  idSealed: text('id_sealed'),
});

export const personAgreements = pgTable(
  'person_agreements',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.version] })],
);

export const FaceStatus = { Pending: 'pending', Passed: 'passed', Failed: 'failed' } as const;
export type FaceStatus = (typeof FaceStatus)[keyof typeof FaceStatus];

export const faceAuthSessions = pgTable('face_auth_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  personCode: text('person_code').notNull().unique(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  openFlag: text('open_flag').notNull(),
  businessCode: text('business_code'),
  deviceType: text('device_type'),
  signUrl: text('sign_url'),
  status: text('status').$type<FaceStatus>().notNull().default(FaceStatus.Pending),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  /** The provider's handle of the attempt (Tencent BizToken, Aliyun CertifyId) and its request id. */
  providerRef: text('provider_ref'),
  providerRequestId: text('provider_request_id'),
});

export const accountRecoveries = pgTable('account_recoveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  ticketHash: text('ticket_hash').notNull().unique(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  newPhone: text('new_phone').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
