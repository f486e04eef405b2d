import {
  cancelFlow,
  declineFlow,
  getAuditTrail,
  getFlowDetail,
  getQuota,
  getSignerReadiness,
  getSigningRoom,
  launchFlow,
  listLaunchedFlows,
  listMessages,
  listPendingSignatures,
  markMessagesRead,
  remindSigners,
  roomAcceptAgreement,
  roomConfirmCompany,
  roomOpenCompany,
  roomRealName,
  roomProvePhone,
  sendLinkSmsCode,
  sendSignSmsCode,
  setSigningPassword,
  getSigningPassword,
  signDocument,
  signingRoomLogin,
  signingRoomLoginByEmbed,
  signingRoomLoginByLinkCode,
  startRoomFaceAuth,
} from '#contract/calls/flow.ts';
import { getRoomApprovals, requestSealApproval } from '#contract/calls/approval.ts';
import {
  getSignBatch,
  listBatchSignable,
  prepareSignBatch,
  sendSignBatchCode,
  startSignBatch,
  startSignBatchFace,
} from '#contract/calls/batch.ts';
import { Code } from '#contract/codes.ts';
import type { FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import { AppError } from '../../http/app-error.ts';
import { listAudit, presentEntry, verifyChains } from '../audit/index.ts';
import { localiseEntry } from '../audit/index.ts';
import { accountOf } from '../document/index.ts';
import type { ServerModule } from '../server-module.ts';
import { quotaOf } from '../package/index.ts';
import { roomTokenUser, sealInUnfinishedSigning } from '../seal/index.ts';
import { readerOf, registerDocumentReads } from './documents.ts';
import { insertMessage, isSealInUnfinishedFlow } from './queries.ts';
import { companyNotice, memberHandover } from '../company/index.ts';
import { handOverFlows } from './handover.ts';
import { approvalNotice, launchDecided } from '../approval/index.ts';
import { requestRoomApproval, roomApprovalState } from './approvals.ts';
import * as intents from './intent.ts';
import * as onboarding from './onboarding.ts';
import * as rooms from './room.ts';
import { flowAccess } from './access.ts';
import { cancel, decline, sweepExpired } from './end.ts';
import { answerLaunchDecision, launch } from './launch.ts';
import * as query from './query.ts';
import { remind, sendDeadlineNotices, sendDueReminders } from './remind.ts';
import {
  REPORT_JOB,
  buildMissingReport,
  completeStragglers,
  queueMissingReports,
  settleBackgroundWork,
} from './complete.ts';
import { flowRuntimeOf } from './runtime.ts';
import { signAsParty } from './signing.ts';
import { AUTO_SIGN_JOB } from './ask-to-sign.ts';
import { autoSign } from './auto-sign.ts';
import * as batches from './batch.ts';
import { F } from './texts.ts';
import { z } from 'zod';
import type { Actor } from '../../lib/actor.ts';
import { removeRoomAttachment, saveRoomFields, uploadRoomAttachment } from '#contract/calls/fields.ts';
import { FIELD_LIMITS } from '#contract/rules/fields.ts';
import { registerRoomUpload } from '../../http/register-upload.ts';
import * as fieldRooms from './fields-room.ts';
import { registerFieldDownloads } from './documents.ts';
import { addFlowComment, listFlowComments, setCommentThreadResolved } from '#contract/calls/comments.ts';
import * as comments from './comments.ts';
import { ccOnFlowEvent, registerCc } from './cc.ts';
import { flowEvent } from './hooks.ts';
import { centreJobs, registerCentre } from './centre-module.ts';
import { expireZips as expireCentreZips } from './centre.ts';
import { registerReassignCalls } from './reassign-routes.ts';
import { registerRescissionCalls } from './rescission.ts';
import { registerRevisions } from './revisions-routes.ts';
import { registerTermCalls } from './term-routes.ts';
import { sendTermReminders } from './term.ts';

const zUuid = z.uuid();
/** An attachment upload, authorized: the room, its token and the field it is for. */
type AttachmentUpload = { token: string; room: rooms.Room; fieldId: string; label: string };

const ctxOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

/** Signing flows: launch, lists, signing rooms (link and session logins), signing, audit, messages, quota. */
export const flowModule: ServerModule = {
  name: 'flow',
  listen(hooks) {
    // A seal image shown in a signing room opened by link: the user the room token acts as. An unknown or
    // expired token (RoomTokenInvalid, the one expected refusal) is no user; anything else stays a failure.
    hooks.on(roomTokenUser, async ({ deps, roomToken }) => {
      try {
        return (await rooms.roomOf(deps, roomToken)).userId;
      } catch (err) {
        if (err instanceof AppError && err.code === Code.RoomTokenInvalid) return null;
        throw err;
      }
    });
    // Before a seal is deleted: whether a contract still being signed carries it.
    hooks.on(sealInUnfinishedSigning, ({ deps, sealId }) => isSealInUnfinishedFlow(deps.db, sealId));
    // A company's notice to a person (an operator invitation): a row of the person's /message list.
    // A member's hand-over: their open flows and open company parties move to the receiver.
    hooks.on(memberHandover, (e) => handOverFlows(e));
    hooks.on(companyNotice, ({ deps, phone, kind, title, text, link }) =>
      insertMessage(deps.db, {
        phone,
        companyId: null,
        kind,
        title,
        text,
        flowId: null,
        link,
        now: deps.clock.now(),
      }),
    );
    // A launch request's outcome (issue 27): the held flow is sent, or cancelled with the approver's comment.
    hooks.on(launchDecided, (e) => answerLaunchDecision(e));
    // Copy recipients (抄送, issue 29) hear of the launch, each signature and the completion (cc.ts).
    hooks.on(flowEvent, (e) => ccOnFlowEvent(e));
    // A seal-use approval's notice to an approver or the requester, within the seal's company.
    hooks.on(approvalNotice, ({ deps, phone, companyId, kind, title, text, flowId, link }) =>
      insertMessage(deps.db, { phone, companyId, kind, title, text, flowId, link, now: deps.clock.now() }),
    );
  },
  jobs: [
    {
      // Every minute, once across instances (server/jobs): flows past their deadline by the app's clock
      // expire (quota released, parties and launcher told), due "remind every N days" reminders go out,
      // unsigned parties are told a day before the deadline, and flows whose parties all signed but that a crash left uncompleted are completed. Each step is
      // a conditional UPDATE per flow, so a sweep that overlaps another does nothing twice. A failed
      // sweep is not retried: the next minute's does the same work.
      name: 'flow.sweep',
      cron: '* * * * *',
      retryLimit: 0,
      async handler(_job, deps) {
        await sweepExpired(deps);
        await sendDueReminders(deps);
        await sendDeadlineNotices(deps);
        await sendTermReminders(deps);
        await completeStragglers(deps, flowRuntimeOf(deps));
        await queueMissingReports(deps);
        await batches.resumeBatches(deps);
        await expireCentreZips(deps);
      },
    },
    {
      // A completed flow's audit report, built once across instances after the completion commits (and
      // for any completed flow the sweep finds without one); retried after a failure or a killed instance.
      name: REPORT_JOB,
      singleton: true,
      retryLimit: 5,
      retryDelaySeconds: 30,
      async handler(job: { data: { flowId: string } }, deps) {
        await buildMissingReport(deps, job.data.flowId, flowRuntimeOf(deps).reportBuilds);
      },
    },
    {
      // Automatic signing (issue 27): a company party whose turn came under an automatic-signing letter is
      // sealed with nobody in the room, or sent its link when the letter no longer covers it (auto-sign.ts).
      name: AUTO_SIGN_JOB,
      singleton: true,
      retryLimit: 3,
      retryDelaySeconds: 10,
      async handler(job: { data: { flowId: string; partyId: string; letterId: string } }, deps) {
        await autoSign(deps, flowRuntimeOf(deps), job.data);
      },
    },
    {
      // Batch signing (issue 28): the parties of a started batch, signed one by one as their rooms would sign
      // them (batch.ts); each item claimed by a conditional UPDATE, so a run again after a crash signs none twice.
      name: batches.SIGN_BATCH_JOB,
      singleton: true,
      retryLimit: 5,
      retryDelaySeconds: 10,
      async handler(job: { data: { batchId: string } }, deps) {
        await batches.runBatch(deps, flowRuntimeOf(deps), job.data.batchId);
      },
    },
    ...centreJobs,
  ],
  register(app, deps) {
    const rt = flowRuntimeOf(deps);
    registerDocumentReads(app, deps);
    registerCc(app, deps);
    registerCentre(app, deps);

    registerCall(app, launchFlow, async ({ body, requireSession, req }) =>
      launch(deps, requireSession(), body, ctxOf(req)),
    );

    registerCall(app, getFlowDetail, async ({ body, session, requireSession }) =>
      query.detail(deps, await readerOf(deps, body.roomToken, session, requireSession), body.flowId),
    );

    registerCall(app, listLaunchedFlows, async ({ body, requireSession }) =>
      query.listLaunched(deps, requireSession(), body),
    );

    registerCall(app, listPendingSignatures, async ({ body, requireSession }) =>
      query.listPending(deps, requireSession(), body),
    );

    registerCall(app, cancelFlow, async ({ body, requireSession, req }) => {
      await cancel(deps, requireSession(), body.flowId, body.reason, ctxOf(req));
      return null;
    });

    registerCall(app, remindSigners, async ({ body, requireSession, req }) => {
      const reminded = await remind(deps, requireSession(), body.flowId, body.partyIds, ctxOf(req));
      if (reminded === 0) throw new AppError(Code.Refused, F.remindTooSoon);
      return { reminded };
    });

    registerCall(app, signingRoomLogin, async ({ body, requireSession }) =>
      rooms.loginBySession(deps, requireSession(), body.flowId, body.partyId),
    );

    registerCall(app, sendLinkSmsCode, async ({ body, req }) => rooms.sendLinkCode(deps, body, req.ip));

    registerCall(app, signingRoomLoginByEmbed, async ({ body }) => rooms.loginByEmbed(deps, body));

    registerCall(app, signingRoomLoginByLinkCode, async ({ body, req }) =>
      rooms.loginByLink(deps, body, req.ip),
    );

    registerCall(app, getSigningRoom, async ({ body, lang, req }) =>
      rooms.getRoom(deps, await rooms.roomOf(deps, body.roomToken), lang, ctxOf(req), body.roomToken),
    );

    registerCall(app, sendSignSmsCode, async ({ body, req }) =>
      rooms.sendSignCode(deps, await rooms.roomOf(deps, body.roomToken), req.ip, ctxOf(req), body.purpose),
    );

    registerCall(app, signDocument, async ({ body, req }) =>
      signAsParty(deps, rt, await rooms.roomOf(deps, body.roomToken), body, ctxOf(req)),
    );

    // Seal-use approval in the room (issue 27): the approval module decides, the room names flow and party.
    registerCall(app, getRoomApprovals, async ({ body, req }) =>
      roomApprovalState(deps, await rooms.roomOf(deps, body.roomToken), ctxOf(req)),
    );

    registerCall(app, requestSealApproval, async ({ body, req }) =>
      requestRoomApproval(deps, await rooms.roomOf(deps, body.roomToken), body.sealId, ctxOf(req)),
    );

    registerCall(app, startRoomFaceAuth, async ({ body }) =>
      intents.startRoomFace(deps, await rooms.roomOf(deps, body.roomToken), body),
    );

    // With a roomToken: the room's signer; without: the logged-in person (601 when nobody is logged in).
    registerCall(app, setSigningPassword, async ({ body, requireSession, req }) =>
      intents.setSigningPassword(
        deps,
        body.roomToken ? { room: await rooms.roomOf(deps, body.roomToken) } : { session: requireSession() },
        body,
        req.ip,
      ),
    );

    registerCall(app, getSigningPassword, async ({ requireSession }) =>
      intents.signingPasswordStatus(deps, requireSession()),
    );

    registerCall(app, roomRealName, async ({ body }) =>
      onboarding.roomRealName(deps, await rooms.roomOf(deps, body.roomToken), body),
    );

    registerCall(app, roomProvePhone, async ({ body, req }) =>
      onboarding.roomProvePhone(deps, await rooms.roomOf(deps, body.roomToken), body.smsCode, req.ip),
    );

    registerCall(app, roomAcceptAgreement, async ({ body, reply, session }) =>
      onboarding.roomAcceptAgreement(deps, await rooms.roomOf(deps, body.roomToken), body.version, {
        reply,
        session,
      }),
    );

    registerCall(app, roomOpenCompany, async ({ body }) =>
      onboarding.roomOpenCompany(deps, await rooms.roomOf(deps, body.roomToken), body),
    );

    registerCall(app, roomConfirmCompany, async ({ body, reply, session }) =>
      onboarding.roomConfirmCompany(deps, await rooms.roomOf(deps, body.roomToken), body.amount, {
        reply,
        session,
      }),
    );

    registerCall(app, getSignerReadiness, async ({ body, requireSession }) =>
      onboarding.signerReadiness(deps, requireSession(), body.signers),
    );

    registerCall(app, declineFlow, async ({ body, req }) => {
      await decline(deps, await rooms.roomOf(deps, body.roomToken), body.reason, ctxOf(req));
      return null;
    });

    registerCall(app, getAuditTrail, async ({ body, session, requireSession, lang }) => {
      const reader = await readerOf(deps, body.roomToken, session, requireSession);
      await flowAccess(deps, reader, body.flowId);
      const entries = await listAudit(deps.db, body.flowId);
      return {
        entries: entries.map((e) => localiseEntry(presentEntry(e), lang)),
        chains: verifyChains(entries),
      };
    });

    registerCall(app, listMessages, async ({ body, requireSession }) =>
      query.listMessages(deps, requireSession(), body),
    );

    registerCall(app, markMessagesRead, async ({ body, requireSession }) =>
      query.markRead(deps, requireSession(), body.ids),
    );

    registerCall(app, getQuota, async ({ requireSession }) =>
      quotaOf(deps, await accountOf(deps, requireSession())),
    );

    // Batch signing (issue 28).
    registerCall(app, listBatchSignable, async ({ body, requireSession }) =>
      batches.listSignable(deps, requireSession(), body),
    );
    registerCall(app, prepareSignBatch, async ({ body, requireSession, req }) =>
      batches.prepareBatch(deps, requireSession(), body, ctxOf(req)),
    );
    registerCall(app, sendSignBatchCode, async ({ body, requireSession, req }) =>
      batches.sendBatchCode(deps, requireSession(), body.batchId, req.ip),
    );
    registerCall(app, startSignBatchFace, async ({ body, requireSession }) =>
      batches.startBatchFace(deps, requireSession(), body),
    );
    registerCall(app, startSignBatch, async ({ body, requireSession, req, lang }) =>
      batches.startBatch(deps, requireSession(), body, ctxOf(req), lang),
    );
    registerCall(app, getSignBatch, async ({ body, requireSession, lang }) =>
      batches.batchView(deps, requireSession(), body.batchId, lang),
    );

    // Fields the signer fills (issue 28): the room's drafts and attachments, and the attachments' downloads.
    registerCall(app, saveRoomFields, async ({ body }) =>
      fieldRooms.saveFields(deps, await rooms.roomOf(deps, body.roomToken), body.values, body.roomToken),
    );
    registerRoomUpload<typeof uploadRoomAttachment, AttachmentUpload>(
      app,
      uploadRoomAttachment,
      {
        maxFileBytes: FIELD_LIMITS.attachmentBytes,
        // A file over the limit is refused before more of it is read, naming the field it was for.
        tooLarge: ({ label }) =>
          F.aboutField(label, F.attachmentTooLarge(FIELD_LIMITS.attachmentBytes / 1024 / 1024)),
      },
      async (fields) => {
        if (!fields.roomToken) throw new AppError(Code.RoomTokenInvalid, F.roomTokenInvalid);
        const room = await rooms.roomOf(deps, fields.roomToken);
        const fieldId = zUuid.safeParse(fields.fieldId);
        if (!fieldId.success) throw new AppError(Code.NotFound, F.fieldNotFound);
        const field = await fieldRooms.ownField(deps, room, fieldId.data);
        return { token: fields.roomToken, room, fieldId: field.id, label: field.label };
      },
      async ({ file, room }) => fieldRooms.uploadAttachment(deps, room.room, room.fieldId, file, room.token),
    );
    registerCall(app, removeRoomAttachment, async ({ body }) =>
      fieldRooms.removeAttachment(
        deps,
        await rooms.roomOf(deps, body.roomToken),
        body.fieldId,
        body.roomToken,
      ),
    );
    registerFieldDownloads(app, deps);
    // Reassign, deadline change, copy link (issue 29).
    registerReassignCalls(app, deps);

    // Comments (issue 29): the flow's readers by session, or a party's signing room by its roomToken.
    const commenter = async (roomToken: string | undefined, requireSession: () => Actor) =>
      roomToken ? { room: await rooms.roomOf(deps, roomToken) } : { session: requireSession() };
    registerCall(app, listFlowComments, async ({ body, requireSession, req }) =>
      comments.listComments(deps, await commenter(body.roomToken, requireSession), body.flowId, ctxOf(req)),
    );
    registerCall(app, addFlowComment, async ({ body, requireSession, req }) =>
      comments.addComment(deps, await commenter(body.roomToken, requireSession), body, ctxOf(req)),
    );
    registerCall(app, setCommentThreadResolved, async ({ body, requireSession, req }) =>
      comments.setResolved(deps, await commenter(body.roomToken, requireSession), body, ctxOf(req)),
    );
    registerRescissionCalls(app, deps);
    // Revised documents (issue 29).
    registerRevisions(app, deps);
    registerTermCalls(app, deps);

    // Deadlines are also checked on every access to a flow; the flow.sweep job above expires the rest.
    app.addHook('onClose', async () => {
      await settleBackgroundWork(rt);
    });
  },
};
