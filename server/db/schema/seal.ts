import { integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SealKind, SealStatus } from '#contract/enums.ts';
import type { SealDef } from '../../seal/seal-def.ts';

// Mirrors migrations/050_seal.sql; the SQL file is the source of truth for the database.

export const seals = pgTable('seals', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerType: integer('owner_type').notNull(),
  ownerId: uuid('owner_id').notNull(),
  sealType: integer('seal_type'),
  name: text('name').notNull(),
  kind: text('kind').$type<SealKind>().notNull(),
  status: text('status').$type<SealStatus>().notNull().default('enabled'),
  definition: jsonb('definition').$type<SealDef>(),
  svgKey: text('svg_key'),
  pngKey: text('png_key').notNull(),
  pdfKey: text('pdf_key').notNull(),
  widthMm: real('width_mm').notNull(),
  heightMm: real('height_mm').notNull(),
  antiCounterfeitNo: text('anti_counterfeit_no').unique(),
  createdBy: uuid('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});
export type SealRow = typeof seals.$inferSelect;

export const sealAuthorisations = pgTable('seal_authorisations', {
  id: uuid('id').primaryKey().defaultRandom(),
  sealId: uuid('seal_id').notNull(),
  companyId: uuid('company_id').notNull(),
  userId: uuid('user_id').notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
  validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
  createdBy: uuid('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: uuid('revoked_by'),
});
