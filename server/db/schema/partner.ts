import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './accounts.ts';

// Mirrors migrations/040_partner.sql; the SQL file is the source of truth for the database.

export const partnerLinks = pgTable(
  'partner_links',
  {
    partnerCode: text('partner_code').notNull(),
    partnerUserId: text('partner_user_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerCode, t.partnerUserId] })],
);

export const partnerTokenUses = pgTable(
  'partner_token_uses',
  {
    partnerCode: text('partner_code').notNull(),
    jti: text('jti').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
    keepUntil: timestamp('keep_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerCode, t.jti] })],
);

export const partnerSessions = pgTable('partner_sessions', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  partnerCode: text('partner_code').notNull(),
  partnerUserId: text('partner_user_id').notNull(),
});

export const OpenedVia = { Partner: 'partner', Central: 'central' } as const;
export type OpenedVia = (typeof OpenedVia)[keyof typeof OpenedVia];

export const externalAccountOpenings = pgTable('external_account_openings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  via: text('via').$type<OpenedVia>().notNull(),
  partnerCode: text('partner_code'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
