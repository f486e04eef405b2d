import { createHash } from 'node:crypto';
import type { AuditEntry } from '#contract/calls/flow.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { lockDocument } from '../document/index.ts';
import * as q from './queries.ts';

// The audit trail: one hash chain per document. Each entry's hash covers the previous entry's hash and
// every field of the entry, so changing, removing or reordering an entry breaks every later link.

export type AuditEvent = AuditEntry['event'];

/** Who did it and from where. */
export type AuditActor = {
  actor: string;
  actorPhone?: string | null;
  actorCompany?: string | null;
  ip?: string | null;
  userAgent?: string | null;
};

type NewAuditEntry = AuditActor & {
  flowId: string;
  documentId: string;
  event: AuditEvent;
  detail?: string | null;
  at: Date;
  hashBefore?: string | null;
  hashAfter?: string | null;
  /** The caller's transaction already holds the document row's lock (e.g. it just updated the row). */
  isDocumentLocked?: boolean;
};

const GENESIS_HASH = '0'.repeat(64);

type Hashed = {
  flowId: string;
  documentId: string;
  seq: number;
  event: string;
  actor: string;
  actorPhone: string | null;
  actorCompany: string | null;
  detail: string | null;
  at: string;
  ip: string | null;
  userAgent: string | null;
  hashBefore: string | null;
  hashAfter: string | null;
};

/** SHA-256 over the previous hash and the entry's fields in a fixed order (JSON of an array). */
function entryHash(prevHash: string, e: Hashed): string {
  const fields = [
    e.flowId,
    e.documentId,
    e.seq,
    e.event,
    e.actor,
    e.actorPhone,
    e.actorCompany,
    e.detail,
    e.at,
    e.ip,
    e.userAgent,
    e.hashBefore,
    e.hashAfter,
  ];
  return createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}

const maskPhone = (p: string | null | undefined) => (p ? `${p.slice(0, 3)}****${p.slice(-4)}` : null);

/**
 * Appends one entry to the document's chain. Call it inside a transaction: the document row is locked
 * first (unless the caller says its transaction holds that lock already), so two appends to one chain
 * never read the same last entry.
 */
export async function appendAudit(ex: Exec, e: NewAuditEntry): Promise<void> {
  if (!e.isDocumentLocked) await lockDocument(ex, e.documentId);
  const last = await q.lastEntryOf(ex, e.documentId);
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.entryHash ?? GENESIS_HASH;
  // Milliseconds: what a Date keeps, so the stored time reads back to the same text.
  const at = new Date(Math.floor(e.at.getTime()));
  const h: Hashed = {
    flowId: e.flowId,
    documentId: e.documentId,
    seq,
    event: e.event,
    actor: e.actor,
    actorPhone: e.actorPhone ?? null,
    actorCompany: e.actorCompany ?? null,
    detail: e.detail ?? null,
    at: at.toISOString(),
    ip: e.ip ?? null,
    userAgent: e.userAgent ? e.userAgent.slice(0, 300) : null,
    hashBefore: e.hashBefore ?? null,
    hashAfter: e.hashAfter ?? null,
  };
  const hash = entryHash(prevHash, h);
  await q.insertEntry(ex, { ...h, at }, prevHash, hash);
}

type StoredEntry = Hashed & { prevHash: string; entryHash: string };

const fromRecord = (r: q.AuditRecord): StoredEntry => ({ ...r, at: r.at.toISOString() });

/** Every entry of a flow, per document in chain order. */
export async function listAudit(ex: Exec, flowId: string): Promise<StoredEntry[]> {
  return (await q.entriesOfFlow(ex, flowId)).map(fromRecord);
}

/**
 * Checks one document's chain: sequence numbers 1..n without gaps, each entry linking to the previous
 * hash, each hash recomputed from the fields. Returns the first broken seq, or null when intact.
 */
export function verifyChain(entries: readonly StoredEntry[]): {
  isIntact: boolean;
  brokenAtSeq: number | null;
} {
  let prev = GENESIS_HASH;
  for (const [i, e] of entries.entries()) {
    if (e.seq !== i + 1 || e.prevHash !== prev || entryHash(prev, e) !== e.entryHash)
      return { isIntact: false, brokenAtSeq: e.seq };
    prev = e.entryHash;
  }
  return { isIntact: true, brokenAtSeq: null };
}

/** Chains of a flow grouped by document, each verified. */
export function verifyChains(entries: readonly StoredEntry[]) {
  const byDoc = new Map<string, StoredEntry[]>();
  for (const e of entries) byDoc.set(e.documentId, [...(byDoc.get(e.documentId) ?? []), e]);
  return [...byDoc].map(([documentId, list]) => ({ documentId, ...verifyChain(list) }));
}

/** An entry as the contract shows it (phone masked). */
export function presentEntry(e: StoredEntry): AuditEntry {
  return {
    seq: e.seq,
    documentId: e.documentId,
    event: e.event as AuditEvent,
    actor: e.actor,
    actorPhoneMasked: maskPhone(e.actorPhone),
    actorCompany: e.actorCompany,
    detail: e.detail,
    at: e.at,
    ip: e.ip,
    userAgent: e.userAgent,
    hashBefore: e.hashBefore,
    hashAfter: e.hashAfter,
    prevHash: e.prevHash,
    entryHash: e.entryHash,
  };
}
