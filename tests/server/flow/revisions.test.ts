// Revised documents (issue 29) through HTTP: the launcher revises before any signature (a new current file,
// positions found again, everyone told), after a signature only with the confirmation (signatures withdrawn,
// kept, the party asked again), a garbage file or a page gone refused with nothing lost, another account 1101,
// the comparison of two revisions line by line, every revision downloadable, and the final version signed by
// everyone: only the new file's signatures in it, all valid (platform verifier, pdfsig).
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { SIGNED_PDF_PATH, getDocumentInfo, getVerificationInfo } from '#contract/calls/document.ts';
import {
  type FlowDetail,
  getAuditTrail,
  getFlowDetail,
  launchFlow,
  listMessages,
} from '#contract/calls/flow.ts';
import { compareFlowRevisions, listFlowRevisions, reviseFlowDocument } from '#contract/calls/revisions.ts';
import { callPath } from '#contract/envelope.ts';
import { createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { blobKeyOf } from '#server/storage/blob-store.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';
import {
  type Signer,
  contractPdf,
  expectAllPassed,
  getBytes,
  linkFor,
  ok,
  personWithCert,
  signByLink,
  uploadPdf,
} from '../fixtures/flow.ts';
import { type Agent, appForFile } from '../helper.ts';

const t = appForFile();
let launcher: Signer;
let buyer: Signer;
let seller: Signer;
let outsider: Signer;
let flowId: string;
let documentId: string;

type Revisions = {
  currentRevision: number;
  items: { revision: number; documentId: string; sha256: string; note: string | null; downloadUrl: string }[];
};

/** A contract whose clause 1.2 says `clause` and whose signing lines are on its last page. */
async function revisedPdf(pages: number, clause: string): Promise<Uint8Array> {
  const base = await PDFDocument.load(await contractPdf(pages));
  const font = await base.embedFont(StandardFonts.Helvetica);
  base.getPage(0).drawText(clause, { x: 72, y: 100, size: 10, font });
  return base.save({ useObjectStreams: false });
}

const revise = (agent: Agent, bytes: Uint8Array, fields: Record<string, string> = {}) =>
  agent.upload<{ revision: number; withdrawn: string[] }>(
    callPath(reviseFlowDocument),
    { userType: '0', flowId, documentId, ...fields },
    { bytes, filename: 'revised.pdf', type: 'application/pdf' },
  );

const revisions = async (agent: Agent = launcher.agent) =>
  ok(await agent.call<Revisions>(listFlowRevisions, { userType: 0, flowId }), 'revisions');

const detail = async () => {
  const d = ok(await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');
  return Object.assign(d, { parties: d.steps.flatMap((s) => s.parties) });
};

const B_LINE = 'Party B (signature):';
const A_LINE = 'Party A (seal):';
const buyerParty = (positions: object[]) => ({
  kind: 'person',
  name: '李买方',
  phone: buyer.phone,
  positions,
});
const sellerParty = (positions: object[]) => ({
  kind: 'person',
  name: '赵卖方',
  phone: seller.phone,
  positions,
});

/** Launches the launcher's documents for the parties of each step: the flow's id. */
async function launchSteps(title: string, documentIds: string[], steps: object[][]): Promise<string> {
  const res = await launcher.agent.call<{ flowId: string }>(launchFlow, {
    userType: 0,
    title,
    documentIds,
    steps: steps.map((parties) => ({ parties })),
  });
  return ok(res, title).flowId;
}

beforeAll(async () => {
  launcher = await personWithCert(t, '王发起');
  buyer = await personWithCert(t, '李买方');
  seller = await personWithCert(t, '赵卖方');
  outsider = await personWithCert(t, '钱路人');
  const up = ok(await uploadPdf(launcher.agent, await contractPdf(2)), 'upload');
  documentId = up.documentId;
  // The launcher's webhook endpoint takes flow.revised (its deliveries are not the point here).
  ok(
    await launcher.agent.call(createWebhookEndpoint, {
      userType: 0,
      url: 'https://partner.example/hooks',
      events: ['flow.revised'],
    }),
    'webhook endpoint',
  );
  flowId = await launchSteps(
    'Revised contract',
    [documentId],
    [
      [buyerParty([{ documentId, keyword: B_LINE }])],
      [sellerParty([{ documentId, page: 2, mm: { left: 20, top: 200, width: 36, height: 18 } }])],
    ],
  );
}, 180_000);

describe('revised documents', () => {
  test('before any signature: the revision becomes current, positions found again, revision 1 kept', async () => {
    const before = await detail();
    const buyerBox = before.parties[0].positions[0];
    // The signing lines move to page 3 in the revised file.
    const res = await revise(launcher.agent, await revisedPdf(3, 'Clause 9: delivery within 30 days.'), {
      note: 'delivery term added',
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data).toEqual({ revision: 2, withdrawn: [] });
    const after = await detail();
    expect(after.parties[0].positions[0].page).toBe(3);
    expect(buyerBox.page).toBe(2);
    // The fixed box of the seller stays where it was (page 2 still exists).
    expect(after.parties[1].positions[0]).toEqual(before.parties[1].positions[0]);
    const list = await revisions();
    expect(list.currentRevision).toBe(2);
    expect(list.items.map((i) => i.revision)).toEqual([2, 1]);
    expect(list.items[0].note).toBe('delivery term added');
    // Each revision downloadable, its bytes those listed.
    for (const item of list.items) {
      const file = await getBytes(launcher.agent, item.downloadUrl);
      expect(file.status).toBe(200);
      expect(blobKeyOf(file.bytes)).toBe(item.sha256);
    }
    // The signers read them too; an outsider does not.
    expect((await getBytes(buyer.agent, list.items[1].downloadUrl)).status).toBe(200);
    const denied = await outsider.agent.call(listFlowRevisions, { userType: 0, flowId });
    expect(denied.body.code).toBe(1101);
    // Everyone told; the audit names the revision and its note.
    const notices = await listOutbox(t.db, { to: seller.phone, limit: 10 });
    expect(notices.some((m) => m.text.includes('revision 2'))).toBe(true);
    const events = (
      (await t.db.execute(
        sql`SELECT type, body FROM webhook_messages WHERE type = 'flow.revised'`,
      )) as unknown as { rows: { type: string; body: string }[] }
    ).rows;
    expect(events).toHaveLength(1);
    expect(events[0].body).toContain(flowId);
    const messages = ok(
      await seller.agent.call<{ list: { kind: string; flowId: string | null }[] }>(listMessages, {
        userType: 0,
        pageNum: 1,
        pageSize: 20,
      }),
      'messages',
    );
    expect(messages.list).toContainEqual(expect.objectContaining({ kind: 'revised', flowId }));
    const audit = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'audit',
    );
    const entry = audit.entries.find((e) => e.event === 'revise');
    expect(entry?.detail).toContain('revision 2');
    expect(entry?.detail).toContain('delivery term added');
  }, 120_000);

  test('compare: the added clause and the new page, line by line', async () => {
    const res = await buyer.agent.call<{
      pages: { page: number; olderText: string; newerText: string; lines: { op: string; text: string }[] }[];
    }>(compareFlowRevisions, { userType: 0, flowId, documentId, older: 1, newer: 2 });
    const data = ok(res, 'compare');
    expect(data.pages.length).toBe(3);
    expect(data.pages[0].lines).toContainEqual({ op: 'added', text: 'Clause 9: delivery within 30 days.' });
    expect(data.pages[0].lines.some((l) => l.op === 'removed')).toBe(false);
    expect(data.pages[2].olderText).toBe('missing');
    expect(data.pages[2].lines.every((l) => l.op === 'added')).toBe(true);
    // Page 2 lost its signing lines (they moved to page 3).
    expect(data.pages[1].lines).toContainEqual({
      op: 'removed',
      text: 'Party A (seal): Party B (signature):',
    });
  }, 60_000);

  test('refused: another account 1101, a signer 1101, a garbage file 1100, a fixed box on a page gone', async () => {
    const other = await revise(outsider.agent, await contractPdf(3));
    expect(other.body.code).toBe(1101);
    const signer = await revise(buyer.agent, await contractPdf(3));
    expect(signer.body.code).toBe(1101);
    const garbage = await revise(launcher.agent, new TextEncoder().encode('%PDF-1.7 not really'));
    expect(garbage.body.code, garbage.body.msg).toBe(1100);
    // The seller's fixed box is on page 2: a one-page file is refused naming the seller.
    const short = await revise(launcher.agent, await contractPdf(1));
    expect(short.body.code).toBe(1100);
    expect(short.body.msg).toContain('赵卖方');
    const list = await revisions();
    expect(list.currentRevision).toBe(2);
    expect(list.items.length).toBe(2);
  }, 60_000);

  test('after a signature: refused without the confirmation, then withdrawn and asked again', async () => {
    const signed = await signByLink(t, buyer.agent, buyer);
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect((await detail()).parties[0].status).toBe('signed');
    const bytes = await revisedPdf(3, 'Clause 9: delivery within 20 days.');
    const unconfirmed = await revise(launcher.agent, bytes, { note: 'shorter delivery' });
    expect(unconfirmed.body.code).toBe(1100);
    expect((unconfirmed.body.data as unknown as { signedParties: string[] }).signedParties).toEqual([
      '李买方',
    ]);
    expect((await revisions()).currentRevision).toBe(2);
    const linkBefore = await linkFor(t, buyer.phone);
    const confirmed = await revise(launcher.agent, bytes, {
      note: 'shorter delivery',
      withdrawSignatures: 'true',
    });
    expect(confirmed.body.code, confirmed.body.msg).toBe(0);
    expect(confirmed.body.data).toEqual({ revision: 3, withdrawn: ['李买方'] });
    const d = await detail();
    expect(d.parties.map((p) => p.status)).toEqual(['pending', 'waiting']);
    expect(d.currentStep).toBe(0);
    // The signature row is kept, marked withdrawn.
    const rows = (
      (await t.db.execute(
        sql`SELECT withdrawn_at, revision FROM party_signatures WHERE party_id = ${d.parties[0].partyId}`,
      )) as unknown as { rows: { withdrawn_at: unknown; revision: number }[] }
    ).rows;
    expect(rows.length).toBe(1);
    expect(rows[0].withdrawn_at).not.toBeNull();
    expect(rows[0].revision).toBe(2);
    // A new link, and a notice saying to sign again.
    expect(await linkFor(t, buyer.phone)).not.toEqual(linkBefore);
    const notices = await listOutbox(t.db, { to: buyer.phone, limit: 10 });
    expect(notices.some((m) => m.text.includes('signs again'))).toBe(true);
  }, 120_000);

  test('both sign the final version: only its signatures, all valid; an ended flow is not revised', async () => {
    expect(ok(await signByLink(t, buyer.agent, buyer), 'buyer').partyStatus).toBe('signed');
    const last = ok(await signByLink(t, seller.agent, seller), 'seller');
    expect(last.flowStatus).toBe('completed');
    const list = await revisions();
    const final = await getBytes(launcher.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(final.status).toBe(200);
    // The signed file grows from revision 3: the withdrawn signature (made on revision 2) is not in it.
    const r3 = await getBytes(launcher.agent, list.items[0].downloadUrl);
    expect(Buffer.from(final.bytes.subarray(0, r3.bytes.length)).equals(Buffer.from(r3.bytes))).toBe(true);
    const { report, pki } = await expectAllPassed(t, final.bytes);
    // two parties' signatures and the completion's document time-stamp
    expect(report.signatures.length).toBe(3);
    const out = pdfsigReport(final.bytes, pki.rootPem, 'revised-final.pdf');
    if (out !== null) {
      expect(out, out).not.toContain('Signature is Invalid');
      // the two parties' (poppler does not validate the document time-stamp; the verifier above does)
      expect(out.match(/Signature is Valid\./g)?.length, out).toBe(2);
    }
    const d = await detail();
    const info = await launcher.agent.call<{ signatures: unknown[] }>(getVerificationInfo, {
      userType: 0,
      code: d.documents[0].verificationCode,
    });
    expect(ok(info, 'verification').signatures.length).toBe(2);
    // Earlier revisions stay listed and downloadable.
    expect(list.items.map((i) => i.revision)).toEqual([3, 2, 1]);
    expect((await getBytes(seller.agent, list.items[2].downloadUrl)).status).toBe(200);
    const ended = await revise(launcher.agent, await contractPdf(3), { withdrawSignatures: 'true' });
    expect(ended.body.code).toBe(1311);
  }, 180_000);

  test('two documents: withdrawing puts the other signed document back to its unsigned file', async () => {
    const a = ok(await uploadPdf(launcher.agent, await contractPdf(1)), 'upload a').documentId;
    const b = ok(await uploadPdf(launcher.agent, await contractPdf(1, 'Annex')), 'upload b').documentId;
    const id = await launchSteps(
      'Two documents',
      [a, b],
      [[buyerParty([a, b].map((doc) => ({ documentId: doc, keyword: B_LINE })))]],
    );
    expect(ok(await signByLink(t, buyer.agent, buyer), 'first signature').flowStatus).toBe('completed');
    const ended = await revise(launcher.agent, await contractPdf(1), {
      flowId: id,
      documentId: a,
      withdrawSignatures: 'true',
    });
    expect(ended.body.code).toBe(1311);
    // A second flow, signed by one of two parties, is revised: both documents lose that signature.
    const c = ok(await uploadPdf(launcher.agent, await contractPdf(1)), 'upload c').documentId;
    const d = ok(await uploadPdf(launcher.agent, await contractPdf(1, 'Annex')), 'upload d').documentId;
    const flow2 = await launchSteps(
      'Two documents, two steps',
      [c, d],
      [
        [buyerParty([c, d].map((doc) => ({ documentId: doc, keyword: B_LINE })))],
        [sellerParty([c, d].map((doc) => ({ documentId: doc, keyword: A_LINE })))],
      ],
    );
    ok(await signByLink(t, buyer.agent, buyer), 'buyer signs both');
    const res = await revise(launcher.agent, await revisedPdf(1, 'Clause 9: changed.'), {
      flowId: flow2,
      documentId: c,
      withdrawSignatures: 'true',
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const list = ok(
      await launcher.agent.call<Revisions>(listFlowRevisions, { userType: 0, flowId: flow2 }),
      'list',
    );
    const annex = list.items.find((i) => i.documentId === d && i.revision === 1)!;
    const info = ok(
      await launcher.agent.call<{ sha256: string; signatureCount: number }>(getDocumentInfo, {
        userType: 0,
        documentId: d,
      }),
      'info',
    );
    expect(info).toMatchObject({ sha256: annex.sha256, signatureCount: 0 });
    // Both sign again: each file carries its parties' signatures of this round only.
    ok(await signByLink(t, buyer.agent, buyer), 'buyer again');
    expect(ok(await signByLink(t, seller.agent, seller), 'seller').flowStatus).toBe('completed');
    for (const doc of [c, d]) {
      const pdf = await getBytes(launcher.agent, `${SIGNED_PDF_PATH}/${flow2}/${doc}`);
      const { report } = await expectAllPassed(t, pdf.bytes);
      expect(report.signatures.length).toBe(3);
    }
  }, 240_000);
});
