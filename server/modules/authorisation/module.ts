import {
  acceptAuthorisationLetter,
  authoriseSealWithLetters,
  getAuthorisationLetter,
  issueAuthorisationLetter,
  listAuthorisationLetters,
  revokeAuthorisationLetter,
  sendLetterSmsCode,
} from '#contract/calls/authorisation.ts';
import { authorisationLetterPdf } from '#contract/paths/authorisation.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { sendPdf } from '../../http/send-pdf.ts';
import { autoSignCover, memberLetterCover, useLetter } from '../flow/index.ts';
import { sealAuthorisationEnded, sealGrants } from '../seal/index.ts';
import { lookupSession } from '../session/index.ts';
import type { ServerModule } from '../server-module.ts';
import { memberHandover } from '../company/index.ts';
import { revokeForHandover } from './queries.ts';
import * as letters from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Authorisation letters (授权书) and automatic signing's letters (issue 27). */
export const authorisationModule: ServerModule = {
  name: 'authorisation',
  listen(hooks) {
    hooks.on(autoSignCover, ({ deps, ...v }) => letters.autoSignCover(deps, v));
    hooks.on(useLetter, ({ tx, letterId, now }) => letters.useLetter(tx, letterId, now));
    hooks.on(memberLetterCover, ({ deps, ...v }) => letters.memberLetterCover(deps, v));
    hooks.on(sealAuthorisationEnded, ({ deps, ...v }) => letters.sealAuthorisationEnded(deps, v));
    hooks.on(sealGrants, ({ deps, ...v }) => letters.sealGrants(deps, v));
    // A member's hand-over: the letters naming the leaver end with their authorisations (seal moves those).
    hooks.on(memberHandover, async (e) => ({ counts: { memberLetters: await revokeForHandover(e.tx, e) } }));
  },
  register(app, deps) {
    registerCall(app, sendLetterSmsCode, ({ requireSession, req }) =>
      letters.sendIssueCode(deps, requireSession(), req.ip),
    );
    registerCall(app, issueAuthorisationLetter, ({ body, requireSession, req }) =>
      letters.issue(deps, requireSession(), body, req.ip),
    );
    registerCall(app, listAuthorisationLetters, ({ body, requireSession }) =>
      letters.list(deps, requireSession(), body),
    );
    registerCall(app, getAuthorisationLetter, ({ body, requireSession }) =>
      letters.get(deps, requireSession(), body.letterId),
    );
    registerCall(app, revokeAuthorisationLetter, ({ body, requireSession }) =>
      letters.revoke(deps, requireSession(), body.letterId, body.reason),
    );
    registerCall(app, authoriseSealWithLetters, ({ body, requireSession, req }) =>
      letters.authoriseWithLetters(deps, requireSession(), body, req.ip),
    );
    registerCall(app, acceptAuthorisationLetter, ({ body, requireSession }) =>
      letters.accept(deps, requireSession(), body.letterId),
    );
    // The signed letter PDF: `?inline=1` for the viewer, a download otherwise.
    app.get(`${authorisationLetterPdf.path}/:letterId`, async (req, reply) => {
      const { letterId } = req.params as { letterId: string };
      if (!UUID.test(letterId)) throw new AppError(Code.NotFound, { en: 'not found', zh: '不存在' });
      const lookup = await lookupSession(deps, req);
      if (lookup.state !== 'live')
        throw new AppError(Code.NotLoggedIn, { en: 'not logged in', zh: '未登录' });
      const pdf = await letters.letterPdf(deps, lookup.session, letterId);
      const inline = (req.query as Record<string, string | undefined>).inline === '1';
      return sendPdf(reply, pdf.bytes, pdf.filename, inline ? 'inline' : 'attachment');
    });
  },
};
