import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/002_outbox_rate_limits.sql.

export const outbox = pgTable('outbox', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  channel: text('channel').$type<'sms' | 'notice'>().notNull(),
  toAddr: text('to_addr').notNull(),
  purpose: text('purpose').notNull(),
  text: text('text').notNull(),
  code: text('code'),
  userId: uuid('user_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

// Mirrors migrations/115_message_deliveries.sql.
export const messageDeliveries = pgTable('message_deliveries', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  channel: text('channel').$type<'sms' | 'email'>().notNull(),
  provider: text('provider').notNull(),
  toAddr: text('to_addr').notNull(),
  purpose: text('purpose').notNull(),
  status: text('status').$type<'sent' | 'failed'>().notNull(),
  failureKind: text('failure_kind'),
  attempts: integer('attempts').notNull(),
  messageId: text('message_id'),
  requestId: text('request_id'),
  errorCode: text('error_code'),
  errorMessage: text('error_message'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
});
