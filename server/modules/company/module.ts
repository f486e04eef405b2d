import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  POWER_OF_ATTORNEY_FILE_PATH,
  POWER_OF_ATTORNEY_MAX_BYTES,
  addCompanyOperator,
  answerCompanyInvitation,
  applyCompanyEsign,
  approveJoinCompany,
  cancelJoinCompany,
  chooseUserList,
  chooseUserOperatorList,
  confirmCompanyMicroPayment,
  disableCompanyOperator,
  enableCompanyOperator,
  getCompanyAccountInfo,
  getCompanyApply,
  getCompanyAuditTrail,
  setCompanyMemberRoles,
  getCompanyCaCert,
  getCompanyInvitation,
  getCompanyInvitationList,
  getCompanyMemberList,
  getCompanyStaffList,
  getExclusiveCode,
  getMyCompanyInvitations,
  getMyCompanyList,
  getSwitchableAccounts,
  handOverMember,
  joinCompany,
  previewHandover,
  removeCompanyOperator,
  resendCompanyInvitation,
  searchCompanyOperator,
  searchCompanyToJoin,
  sendCompanyMicroPayment,
  switchAccount,
  transferCompanyAdmin,
  uploadPowerOfAttorney,
  withdrawCompanyInvitation,
} from '#contract/calls/company.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { registerUpload } from '../../http/register-upload.ts';
import type { ServerModule } from '../server-module.ts';
import { actingCompanies, loginFacts, lookupSession, refusalFor } from '../session/index.ts';
import { activeCompaniesOf, companyLoginFlags } from './membership.ts';
import * as handover from './handover.ts';
import * as invitations from './invitations.ts';
import * as roles from './roles.ts';
import * as svc from './service.ts';
import { C } from './texts.ts';

/** The letter's type from its first bytes: a renamed file of another kind is refused. */
function sniffLetterType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'application/pdf' | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/** Company accounts, membership, operators, account switch and signer pickers (contract/calls/company.ts). */
export const companyModule: ServerModule = {
  name: 'company',
  listen(hooks) {
    // The login info of a company session: company name, administrator, the company's certificate, operator.
    hooks.on(loginFacts, ({ deps, actor }) =>
      actor.userType === UserType.Company ? companyLoginFlags(deps, actor) : {},
    );
    // The companies a user may log into as operator: verified ones where the user is an active member.
    hooks.on(actingCompanies, ({ deps, userId }) => activeCompaniesOf(deps, userId));
  },
  register(app, deps) {
    registerCall(app, applyCompanyEsign, ({ body, requireSession }) =>
      svc.applyCompany(deps, requireSession(), body),
    );
    registerCall(app, getCompanyApply, ({ body, requireSession }) =>
      svc.getApply(deps, requireSession(), body.companyId),
    );
    registerCall(app, sendCompanyMicroPayment, ({ body, requireSession }) =>
      svc.sendMicroPayment(deps, requireSession(), body.companyId),
    );
    registerCall(app, confirmCompanyMicroPayment, ({ body, requireSession }) =>
      svc.confirmMicroPayment(deps, requireSession(), body.companyId, body.amount),
    );

    registerUpload(
      app,
      uploadPowerOfAttorney,
      {
        maxFileBytes: Math.min(POWER_OF_ATTORNEY_MAX_BYTES, deps.config.uploadLimitBytes),
        tooLarge: C.fileTooLarge,
      },
      async ({ fields, file, session }) => {
        const companyId = z.uuid().safeParse(fields.companyId);
        if (!companyId.success) throw new AppError(Code.BadRequest, 'companyId: not a valid id');
        const target = await svc.letterTargetForWrite(deps, session, companyId.data);
        if (!file || file.bytes.length === 0) throw new AppError(Code.BadRequest, C.fileRequired);
        const mime = sniffLetterType(file.bytes);
        if (!mime) throw new AppError(Code.Refused, C.fileType);
        await svc.storeLetter(deps, target.id, file.bytes, mime);
        return svc.applyView(deps, target.id);
      },
    );

    // The letter's bytes for <img>/download: GET with the session cookie. A GET changes nothing, so the
    // XSRF headers are not needed; the same access rule as its writing (applicant or company member).
    app.withTypeProvider<ZodTypeProvider>().get(
      `${POWER_OF_ATTORNEY_FILE_PATH}/:companyId`,
      {
        schema: {
          hide: true,
          params: z.object({ companyId: z.uuid() }),
          querystring: z.object({ ts: z.string().optional() }),
        },
      },
      async (req, reply) => {
        const lookup = await lookupSession(deps, req);
        if (lookup.state !== 'live') throw refusalFor(lookup);
        const letter = await svc.readLetter(deps, lookup.session, req.params.companyId);
        reply
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', 'inline')
          .type(letter.mime);
        return Buffer.from(letter.bytes);
      },
    );

    registerCall(app, getCompanyCaCert, ({ requireSession }) => svc.getCompanyCaCert(deps, requireSession()));
    registerCall(app, getCompanyAccountInfo, ({ requireSession }) =>
      svc.getAccountInfo(deps, requireSession()),
    );

    registerCall(app, searchCompanyToJoin, ({ body }) => svc.searchCompanies(deps, body.keyword));
    registerCall(app, joinCompany, ({ body, requireSession }) =>
      svc.joinCompany(deps, requireSession(), body),
    );
    registerCall(app, getMyCompanyList, ({ requireSession }) => svc.myCompanies(deps, requireSession()));
    registerCall(app, cancelJoinCompany, async ({ body, requireSession }) => {
      await svc.cancelJoin(deps, requireSession(), body.memberId);
      return null;
    });

    registerCall(app, getCompanyMemberList, ({ body, requireSession }) =>
      svc.memberList(deps, requireSession(), body),
    );
    registerCall(app, getCompanyStaffList, ({ requireSession }) => svc.staffList(deps, requireSession()));
    registerCall(app, approveJoinCompany, ({ body, requireSession }) =>
      svc.approveJoin(deps, requireSession(), body.memberId, body.isApproved),
    );
    // Operators are invited: the call keeps its name and body, and answers the invitation it made.
    registerCall(app, addCompanyOperator, ({ body, requireSession }) =>
      invitations.inviteOperator(deps, requireSession(), body.phone),
    );
    registerCall(app, getCompanyInvitationList, ({ body, requireSession }) =>
      invitations.listInvitations(deps, requireSession(), body),
    );
    registerCall(app, withdrawCompanyInvitation, ({ body, requireSession }) =>
      invitations.withdraw(deps, requireSession(), body.invitationId),
    );
    registerCall(app, resendCompanyInvitation, ({ body, requireSession }) =>
      invitations.resend(deps, requireSession(), body.invitationId),
    );
    registerCall(app, getMyCompanyInvitations, ({ requireSession }) =>
      invitations.myInvitations(deps, requireSession()),
    );
    registerCall(app, getCompanyInvitation, ({ body, requireSession }) =>
      invitations.myInvitation(deps, requireSession(), body.invitationId),
    );
    registerCall(app, answerCompanyInvitation, ({ body, requireSession }) =>
      invitations.answer(deps, requireSession(), body.invitationId, body.isAccepted),
    );
    registerCall(app, setCompanyMemberRoles, async ({ body, requireSession }) => ({
      userId: body.userId,
      roles: await roles.setMemberRoles(deps, requireSession(), body),
    }));
    registerCall(app, previewHandover, ({ body, requireSession }) =>
      handover.handOverMember(deps, requireSession(), body, true),
    );
    registerCall(app, handOverMember, ({ body, requireSession }) =>
      handover.handOverMember(deps, requireSession(), body, false),
    );
    registerCall(app, getCompanyAuditTrail, ({ body, requireSession }) =>
      invitations.auditTrail(deps, requireSession(), body),
    );
    registerCall(app, disableCompanyOperator, ({ body, requireSession }) =>
      svc.disableOperator(deps, requireSession(), body.memberId),
    );
    registerCall(app, enableCompanyOperator, ({ body, requireSession }) =>
      svc.enableOperator(deps, requireSession(), body.memberId),
    );
    registerCall(app, removeCompanyOperator, async ({ body, requireSession }) => {
      await svc.removeOperator(deps, requireSession(), body.memberId);
      return null;
    });
    registerCall(app, transferCompanyAdmin, ({ body, requireSession }) =>
      svc.transferAdmin(deps, requireSession(), body.memberId),
    );
    registerCall(app, getExclusiveCode, ({ body, requireSession }) =>
      svc.exclusiveCode(deps, requireSession(), body.isRenewed ?? false),
    );

    registerCall(app, searchCompanyOperator, ({ body, requireSession }) =>
      svc.searchCompanyOperator(deps, requireSession(), body),
    );
    registerCall(app, chooseUserList, ({ body, requireSession }) =>
      svc.chooseUsers(deps, requireSession(), body.keyword),
    );
    registerCall(app, chooseUserOperatorList, ({ body, requireSession }) =>
      svc.chooseOperators(deps, requireSession(), body),
    );

    registerCall(app, getSwitchableAccounts, ({ requireSession }) =>
      svc.switchableAccounts(deps, requireSession()),
    );
    registerCall(app, switchAccount, ({ body, requireSession }) =>
      svc.switchAccount(deps, requireSession(), body),
    );
  },
};
