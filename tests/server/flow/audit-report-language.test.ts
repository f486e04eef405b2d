// The audit trail in the reader's language and the audit report's hashes shown whole: one flow launched,
// viewed, signed, completed and downloaded; then the trail read in Chinese and in English, and the
// report's text (pdftotext) searched for every hash of every entry.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { AUDIT_REPORT_PATH } from '#contract/calls/document.ts';
import { type AuditEntry, getAuditTrail, getSigningRoom } from '#contract/calls/flow.ts';
import { wrap } from '#server/modules/flow/testing.ts';
import { appForFile } from '../helper.ts';
import {
  type Signer,
  getBytes,
  launchForOne,
  ok,
  openByLink,
  personWithCert,
  sign,
} from '../fixtures/flow.ts';

const hasPdftotext = existsSync('/usr/bin/pdftotext');
if (process.env.CI && !hasPdftotext) throw new Error('pdftotext (poppler-utils) is required in CI');

const t = appForFile();
let alice: Signer;
let bob: Signer;
let flowId: string;

beforeAll(async () => {
  alice = await personWithCert(t, '李四', { seal: false });
  bob = await personWithCert(t, '王五');
  const launched = await launchForOne(alice.agent, bob, { title: '2026-07' });
  flowId = launched.flowId;
  const room = await openByLink(t, t.agent(), bob.phone);
  ok(await t.agent().call(getSigningRoom, { userType: 0, roomToken: room.roomToken }), 'room');
  const signed = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
  if (signed.body.data?.flowStatus !== 'completed') throw new Error(JSON.stringify(signed.body));
  const dl = await getBytes(
    alice.agent,
    `/v1/account/api/csign/downloadSignedPdf/${flowId}/${launched.documentId}`,
  );
  expect(dl.status).toBe(200);
}, 180_000);

async function trailIn(lang: string): Promise<AuditEntry[]> {
  return ok(
    await alice.agent.call<{ entries: AuditEntry[] }>(
      getAuditTrail,
      { userType: 0, flowId },
      { headers: { 'accept-language': lang } },
    ),
    'trail',
  ).entries;
}

// The platform's own English words; a Chinese reader must meet none of them.
const ENGLISH_WORDS =
  /\b(certificate|seals?|parties|verification|signing|opened|code|validation|added|report|version|original|platform)\b/i;
const CJK = /[\u3400-\u9fff]/;

describe('the audit trail in the reader language', () => {
  test('Chinese: every platform detail and the platform actor in Chinese', async () => {
    const entries = await trailIn('zh-CN');
    const events = new Set(entries.map((e) => e.event));
    for (const ev of ['launch', 'view', 'sms_sent', 'sign', 'complete', 'download'] as const)
      expect(events, ev).toContain(ev);
    for (const e of entries) {
      expect(`${e.event}: ${e.detail ?? ''}`).not.toMatch(ENGLISH_WORDS);
      expect(e.actor).not.toMatch(ENGLISH_WORDS);
    }
    expect(entries.find((e) => e.event === 'complete')?.actor).toBe('平台');
  });

  test('English: no Chinese in the platform details', async () => {
    const entries = await trailIn('en');
    for (const e of entries) {
      expect(e.detail ?? '').not.toMatch(CJK);
      if (e.event === 'complete') expect(e.actor).toBe('platform');
    }
    expect(entries.find((e) => e.event === 'view')?.detail).toBe('opened the signing room');
  });
});

describe('the audit report', () => {
  test('wrap keeps every piece within the width and breaks at spaces', () => {
    const width = (s: string) => s.length;
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    expect(wrap(`${a} -> ${b}`, width, 70)).toEqual([`${a} ->`, b]);
    expect(wrap('x'.repeat(25), width, 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  test.skipIf(!hasPdftotext)(
    'shows every document hash whole (pdftotext)',
    async () => {
      const report = await getBytes(alice.agent, `${AUDIT_REPORT_PATH}/${flowId}`);
      expect(report.status).toBe(200);
      const text = execFileSync('pdftotext', ['-layout', '-', '-'], {
        input: report.bytes,
        encoding: 'utf8',
      });
      // The report is made at completion: the entries up to 'complete' (later downloads come after it).
      const all = await trailIn('en');
      const completeSeq = all.find((e) => e.event === 'complete')!.seq;
      const entries = all.filter((e) => e.seq <= completeSeq);
      const hashes = new Set<string>();
      for (const e of entries) {
        if (e.hashBefore) hashes.add(e.hashBefore);
        if (e.hashAfter) hashes.add(e.hashAfter);
        hashes.add(e.entryHash);
      }
      expect(hashes.size).toBeGreaterThan(3);
      for (const h of hashes) expect(text, h).toContain(h);
      // and the events in both languages
      expect(text).toContain('签署 signed');
    },
    60_000,
  );
});
