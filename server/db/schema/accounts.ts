import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/001_accounts_sessions.sql; the SQL file is the source of truth for the database.

export const UserStatus = { Active: 'active', Disabled: 'disabled' } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  name: text('name'),
  status: text('status').$type<UserStatus>().notNull().default(UserStatus.Active),
  /** Notices are also e-mailed here (migrations/115), in emailLang with emailPlatform's brand. */
  email: text('email'),
  emailLang: text('email_lang').$type<'zh' | 'en'>(),
  emailPlatform: text('email_platform'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const SessionEndReason = {
  Logout: 'logout',
  Evicted: 'evicted',
  PasswordReset: 'password_reset',
  Disabled: 'disabled',
  Timeout: 'timeout',
} as const;
export type SessionEndReason = (typeof SessionEndReason)[keyof typeof SessionEndReason];

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  sidHash: text('sid_hash').notNull().unique(),
  token: text('token').notNull(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  userType: integer('user_type').notNull(),
  companyId: uuid('company_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  endedReason: text('ended_reason').$type<SessionEndReason>(),
});

export const smsCodes = pgTable('sms_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull(),
  purpose: text('purpose').notNull(),
  codeHash: text('code_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
});

// sms_locks as reshaped by migrations/113_sms_locks_per_purpose.sql.
export const smsLocks = pgTable(
  'sms_locks',
  {
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    client: text('client').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.phone, t.purpose, t.client] })],
);
