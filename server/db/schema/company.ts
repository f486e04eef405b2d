import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// Mirrors migrations/030_company.sql; the SQL file is the source of truth for the database.

export const CompanyStatus = { Pending: 'pending', Verified: 'verified', Rejected: 'rejected' } as const;
export type CompanyStatus = (typeof CompanyStatus)[keyof typeof CompanyStatus];

export const ApplicantRole = { LegalRep: 'legal_rep', Agent: 'agent' } as const;
export type ApplicantRole = (typeof ApplicantRole)[keyof typeof ApplicantRole];

export const MemberRole = { Admin: 'admin', Operator: 'operator' } as const;
export type MemberRole = (typeof MemberRole)[keyof typeof MemberRole];

export const MemberStatus = {
  Pending: 'pending',
  Active: 'active',
  Disabled: 'disabled',
  Rejected: 'rejected',
  Removed: 'removed',
} as const;
export type MemberStatus = (typeof MemberStatus)[keyof typeof MemberStatus];

export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  creditCode: text('credit_code').notNull(),
  legalRepName: text('legal_rep_name').notNull(),
  applicantUserId: uuid('applicant_user_id')
    .notNull()
    .references(() => users.id),
  applicantRole: text('applicant_role').$type<ApplicantRole>().notNull(),
  poaBlobKey: text('poa_blob_key'),
  poaMime: text('poa_mime'),
  status: text('status').$type<CompanyStatus>().notNull().default(CompanyStatus.Pending),
  paymentAmountHash: text('payment_amount_hash'),
  paymentAttempts: integer('payment_attempts').notNull().default(0),
  paymentSentAt: timestamp('payment_sent_at', { withTimezone: true }),
  inviteCode: text('invite_code').unique(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const companyMembers = pgTable('company_members', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').$type<MemberRole>().notNull(),
  status: text('status').$type<MemberStatus>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
