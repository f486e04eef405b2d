// Seal-use approval, the journey of issue 27 on the server: the administrator requires approval of the contract
// seal by approver A; the handler's seal is refused until approved; in the room the handler asks; A reads the
// request (the bound contract) and rejects with a comment; the handler reads why, asks again; A approves; the
// handler seals; the signed PDF is valid (platform verifier and pdfsig); the flow's audit trail names the
// approval; the company's audit trail has the policy change, the requests and decisions.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type ApprovalDetail,
  type SealPolicy,
  getApproval,
  getSealPolicy,
  listApprovals,
} from '#contract/calls/approval.ts';
import { getCompanyAuditTrail } from '#contract/calls/company.ts';
import { AUDIT_REPORT_PATH, SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { getAuditTrail, listMessages } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { appForFile } from '../helper.ts';
import * as ap from '../fixtures/approval.ts';
import { expectAllPassed, getBytes, ok, sign } from '../fixtures/flow.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';

const t = appForFile();
let company: ap.ApprovalCompany;
let flowId: string;
let documentId: string;
let roomToken: string;
let first: ApprovalDetail;
let second: ApprovalDetail;

beforeAll(async () => {
  company = await ap.companyWithApprovers(t, ['钱审批']);
}, 120_000);

const approverA = () => company.approvers[0];

describe('a contract seal that needs approval by approver A', () => {
  test('the administrator requires approval; the policy names A', async () => {
    // Only members holding the approver role may be named.
    const notApprover = await ap.savePolicy(company.admin.agent, {
      sealId: company.contractSealId,
      mode: 'one',
      approverIds: [company.operator.userId],
    });
    expect(notApprover.body.code).toBe(Code.Refused);
    expect(notApprover.body.msg).toContain(company.operator.name);
    const saved = await ap.savePolicy(company.admin.agent, {
      sealId: company.contractSealId,
      mode: 'one',
      approverIds: [approverA().userId],
    });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect(saved.body.data.mode).toBe('one');
    expect(saved.body.data.approvers).toEqual([
      expect.objectContaining({ userId: approverA().userId, isApprover: true }),
    ]);
    // A handler is not the policy's manager.
    const byHandler = await ap.savePolicy(company.operator.agent, {
      sealId: company.contractSealId,
      mode: 'none',
    });
    expect(byHandler.status).toBe(602);
    // The approver reads the policy; a handler without a governance role may not.
    const read = await company.approvers[0].agent.call<SealPolicy>(getSealPolicy, {
      userType: 1,
      sealId: company.contractSealId,
    });
    expect(read.body.data.candidates.map((c) => c.userId)).toEqual([approverA().userId]);
    expect(
      (await company.operator.agent.call(getSealPolicy, { userType: 1, sealId: company.contractSealId }))
        .status,
    ).toBe(602);
  });

  test('the handler cannot seal without approval (1330, no request yet)', async () => {
    ({ flowId, documentId } = await ap.launchForCompany(company));
    const room = await ap.handlerRoom(company, flowId);
    roomToken = room.roomToken;
    const state = ok(await ap.roomApprovals(company.operator.agent, roomToken), 'room approvals');
    expect(state.seals).toEqual([{ sealId: company.contractSealId, needsApproval: true, latest: null }]);
    const signed = await sign(t, company.operator.agent, room, company.operator.phone, {
      companySealId: company.contractSealId,
    });
    expect(signed.body.code).toBe(Code.SealApprovalRequired);
  }, 60_000);

  test('the handler asks; A is told (message, SMS) and sees the contract; asking again answers the same request', async () => {
    const asked = await ap.askApproval(company.operator.agent, roomToken, company.contractSealId);
    expect(asked.body.code, asked.body.msg).toBe(0);
    first = asked.body.data;
    expect(first).toMatchObject({
      status: 'pending',
      flowId,
      sealId: company.contractSealId,
      canDecide: false,
    });
    expect(first.approvers).toEqual([
      expect.objectContaining({ userId: approverA().userId, state: 'waiting' }),
    ]);
    const again = ok(
      await ap.askApproval(company.operator.agent, roomToken, company.contractSealId),
      'again',
    );
    expect(again.approvalId).toBe(first.approvalId);

    const sms = (await listOutbox(t.db, { to: approverA().phone, limit: 5 })).find((m) =>
      m.text.includes(`/mobile/approvals/${first.approvalId}`),
    );
    expect(sms?.text).toContain('请查看合同并审批');
    const messages = ok(
      await approverA().agent.call<{ list: { kind: string; link: string | null }[] }>(listMessages, {
        userType: 1,
      }),
      'messages',
    );
    expect(messages.list).toContainEqual(
      expect.objectContaining({ kind: 'approval_requested', link: `/mobile/approvals/${first.approvalId}` }),
    );

    const toMe = ok(
      await approverA().agent.call<{ list: { approvalId: string; canDecide: boolean }[] }>(listApprovals, {
        userType: 1,
        scope: 'toMe',
      }),
      'to me',
    );
    expect(toMe.list).toEqual([expect.objectContaining({ approvalId: first.approvalId, canDecide: true })]);
    const detail = ok(
      await approverA().agent.call<ApprovalDetail>(getApproval, {
        userType: 1,
        approvalId: first.approvalId,
      }),
      'detail',
    );
    expect(detail.documents).toHaveLength(1);
    const pdf = await getBytes(approverA().agent, detail.documents[0].url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // The handler reads it from the room; a stranger gets nothing.
    expect((await getBytes(t.agent(), `${detail.documents[0].url}?roomToken=${roomToken}`)).status).toBe(200);
    expect((await getBytes(t.agent(), detail.documents[0].url)).status).toBe(404);
  });

  test('A rejects: a comment is required; the handler reads why and still cannot seal', async () => {
    const bare = await ap.decide(approverA().agent, first.approvalId, 'reject');
    expect(bare.body.code).toBe(Code.Refused);
    const rejected = await ap.decide(approverA().agent, first.approvalId, 'reject', '金额与报价单不符');
    expect(rejected.body.code, rejected.body.msg).toBe(0);
    expect(rejected.body.data.status).toBe('rejected');
    const state = ok(await ap.roomApprovals(company.operator.agent, roomToken), 'room approvals');
    expect(state.seals[0].needsApproval).toBe(true);
    expect(state.seals[0].latest?.status).toBe('rejected');
    expect(state.seals[0].latest?.decisions).toEqual([
      expect.objectContaining({
        userId: approverA().userId,
        decision: 'reject',
        comment: '金额与报价单不符',
      }),
    ]);
    const messages = ok(
      await company.operator.agent.call<{ list: { kind: string; text: string }[] }>(listMessages, {
        userType: 1,
      }),
      'messages',
    );
    expect(messages.list).toContainEqual(
      expect.objectContaining({
        kind: 'approval_decided',
        text: expect.stringContaining('金额与报价单不符'),
      }),
    );
    // A decided request is refused again, with its status.
    const late = await ap.decide(approverA().agent, first.approvalId, 'approve');
    expect(late.body.code).toBe(Code.Refused);
  });

  test('the handler asks again; A approves; the handler seals; the signed PDF is valid', async () => {
    second = ok(await ap.askApproval(company.operator.agent, roomToken, company.contractSealId), 'ask again');
    expect(second.approvalId).not.toBe(first.approvalId);
    const approved = await ap.decide(approverA().agent, second.approvalId, 'approve');
    expect(approved.body.code, approved.body.msg).toBe(0);
    expect(approved.body.data.status).toBe('approved');
    const state = ok(await ap.roomApprovals(company.operator.agent, roomToken), 'room approvals');
    expect(state.seals[0]).toMatchObject({ needsApproval: false, latest: { status: 'approved' } });

    const room = { ...(await ap.handlerRoom(company, flowId)) };
    const signed = await sign(t, company.operator.agent, room, company.operator.phone, {
      companySealId: company.contractSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    const used = ok(
      await approverA().agent.call<ApprovalDetail>(getApproval, {
        userType: 1,
        approvalId: second.approvalId,
      }),
      'used',
    );
    expect(used.status).toBe('used');

    const bytes = (await getBytes(company.admin.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`)).bytes;
    const { pki } = await expectAllPassed(t, bytes);
    const out = pdfsigReport(bytes, pki.rootPem, 'approved-seal.pdf');
    if (out !== null) {
      expect(out, out).toContain('Signature is Valid.');
      expect(out, out).not.toContain('Signature is Invalid');
    }
  }, 60_000);

  test("the flow's audit trail names the requests, the decisions and the approval the seal was used under", async () => {
    const trail = ok(
      await company.admin.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 1,
        flowId,
      }),
      'trail',
    );
    const events = trail.entries.map((e) => e.event);
    expect(events.filter((e) => e === 'approval_requested')).toHaveLength(2);
    expect(events.filter((e) => e === 'approval_decided')).toHaveLength(2);
    const signEntry = trail.entries.find((e) => e.event === 'sign');
    expect(signEntry?.detail).toContain(second.approvalId);
    // The handler's own requests, the administrator's view of all; a handler may not list all.
    type Page = { list: { approvalId: string; status: string }[] };
    const mine = ok(
      await company.operator.agent.call<Page>(listApprovals, { userType: 1, scope: 'mine' }),
      'mine',
    );
    expect(mine.list.map((a) => [a.approvalId, a.status])).toEqual([
      [second.approvalId, 'used'],
      [first.approvalId, 'rejected'],
    ]);
    const all = ok(await company.admin.agent.call<Page>(listApprovals, { userType: 1, scope: 'all' }), 'all');
    expect(all.list).toHaveLength(2);
    expect((await company.operator.agent.call(listApprovals, { userType: 1, scope: 'all' })).status).toBe(
      602,
    );
    const company_trail = ok(
      await company.admin.agent.call<{ list: { kind: string }[] }>(getCompanyAuditTrail, { userType: 1 }),
      'company trail',
    );
    const kinds = company_trail.list.map((e) => e.kind);
    expect(kinds).toContain('seal_policy_changed');
    expect(kinds.filter((k) => k === 'approval_requested')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'approval_decided')).toHaveLength(2);
  });

  test.skipIf(!existsSync('/usr/bin/pdftotext'))(
    'the evidence (the audit report) names the approval the seal was used under',
    async () => {
      await t.runDueJobs();
      const report = await getBytes(company.admin.agent, `${AUDIT_REPORT_PATH}/${flowId}`);
      expect(report.status).toBe(200);
      const text = execFileSync('pdftotext', ['-layout', '-', '-'], {
        input: report.bytes,
        encoding: 'utf8',
      });
      // The signature's entry (its Chinese half; lines wrap at spaces) and the decision's, both languages.
      expect(text).toContain(`用印审批 ${second.approvalId}`);
      expect(text).toContain('用印审批 seal approval decided');
    },
    60_000,
  );
});
