import {
  SEAL_IMAGE_PATH,
  authoriseSeal,
  checkAntiCounterfeitNo,
  deleteSeal,
  getUserCertSealList,
  listSealOperators,
  previewSeal,
  revokeSealAuthorisation,
  saveCompanyCustomizeSeal,
  saveCompanySeal,
  savePersonImageSeal,
  savePersonSeal,
  setSealKeepers,
  setSealStatus,
} from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { SEAL_TYPES, SealKind } from '#contract/enums.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { registerUpload } from '../../http/register-upload.ts';
import { MAX_UPLOAD_BYTES } from '../../seal/uploaded-seal.ts';
import { memberHandover } from '../company/index.ts';
import type { ServerModule } from '../server-module.ts';
import { loginFacts, lookupSession } from '../session/index.ts';
import { roomTokenUser } from './hooks.ts';
import * as seals from './service.ts';
import { findSealAnyOwner } from './queries.ts';
import { S } from './texts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// One byte over the engine's limit is enough for it to say "over 5 MB"; nothing more is read.
const UPLOAD = { maxFileBytes: MAX_UPLOAD_BYTES + 1, tooLarge: S.uploadTooLarge };

/** Seals: the calls of contract/calls/seal.ts and the seal image downloads. */
export const sealModule: ServerModule = {
  name: 'seal',
  listen(hooks) {
    // The login info's hasSeal: the session has a seal it may use.
    hooks.on(loginFacts, async ({ deps, actor }) => ({
      hasSeal: await seals.hasUsableSeal(deps, actor),
    }));
    // A member's hand-over: their live seal authorisations and keepings become the receiver's.
    hooks.on(memberHandover, (e) => seals.handOverSeals(e));
  },
  register(app, deps) {
    registerCall(app, getUserCertSealList, async ({ requireSession }) => {
      const caller = await seals.callerOf(deps, requireSession());
      const [cert, list] = await Promise.all([
        seals.certSummaryOf(deps, caller),
        seals.listForCaller(deps, caller),
      ]);
      return { cert, seals: list, role: caller.kind === 'company' ? caller.access.role : null };
    });

    registerCall(app, savePersonSeal, ({ requireSession }) => seals.savePersonSeal(deps, requireSession()));

    registerCall(app, saveCompanySeal, ({ body, requireSession }) =>
      seals.saveCompanySeal(deps, requireSession(), body.sealDTO),
    );

    registerCall(app, previewSeal, ({ body, requireSession }) =>
      seals.previewSeal(deps, requireSession(), body.sealDTO),
    );

    registerCall(app, setSealStatus, ({ body, requireSession }) =>
      seals.setSealStatus(deps, requireSession(), body.sealId, body.status),
    );

    registerCall(app, deleteSeal, async ({ body, requireSession }) => {
      await seals.deleteSeal(deps, requireSession(), body.sealId);
      return null;
    });

    registerCall(app, authoriseSeal, ({ body, requireSession }) =>
      seals.authoriseSeal(deps, requireSession(), body),
    );

    registerCall(app, revokeSealAuthorisation, ({ body, requireSession }) =>
      seals.revokeSealAuthorisation(deps, requireSession(), body.authorisationId),
    );

    registerCall(app, listSealOperators, ({ requireSession }) =>
      seals.listSealOperators(deps, requireSession()),
    );

    registerCall(app, setSealKeepers, ({ body, requireSession }) =>
      seals.setSealKeepers(deps, requireSession(), body),
    );

    registerCall(app, checkAntiCounterfeitNo, ({ body }) => seals.checkAntiCounterfeitNo(deps, body.no));

    registerUpload(app, savePersonImageSeal, UPLOAD, async ({ fields, file, session }) => {
      if (!file) throw new AppError(Code.BadRequest, S.uploadNoFile);
      const kind = fields.kind === SealKind.Drawn ? SealKind.Drawn : SealKind.Uploaded;
      return seals.saveUploadedSeal(deps, session, { bytes: file.bytes, owner: 'person', kind });
    });

    registerUpload(app, saveCompanyCustomizeSeal, UPLOAD, async ({ fields, file, session }) => {
      const sealType = Number(fields.sealType);
      if (!(SEAL_TYPES as readonly number[]).includes(sealType))
        throw new AppError(Code.BadRequest, S.sealTypeMissing);
      if (!file) throw new AppError(Code.BadRequest, S.uploadNoFile);
      return seals.saveUploadedSeal(deps, session, {
        bytes: file.bytes,
        owner: 'company',
        kind: SealKind.Uploaded,
        sealType,
        sealName: fields.sealName?.slice(0, 20),
      });
    });

    // Seal images for <img> tags (GET, so no XSRF header: reading cannot change anything). The client adds a
    // random `ts` parameter to GETs, which is ignored. Only the owner person or a member of the owning
    // company gets the bytes; in a signing room opened by its link, `roomToken` names that person.
    app.get<{ Params: { file: string } }>(
      `${SEAL_IMAGE_PATH}/:file`,
      { schema: { hide: true } },
      async (req, reply) => {
        const m = /^(.+)\.(svg|png)$/.exec(req.params.file);
        if (!m || !UUID.test(m[1])) throw new AppError(Code.NotFound, S.sealNotFound, { status: 404 });
        const row = await findSealAnyOwner(deps.db, m[1]);
        if (!row) throw new AppError(Code.NotFound, S.sealNotFound, { status: 404 });
        // Who looks: the session's user, or in a room opened by its link (no session) the room's person.
        const lookup = await lookupSession(deps, req);
        const roomToken = (req.query as Record<string, unknown>).roomToken;
        const userId =
          lookup.state === 'live'
            ? lookup.session.userId
            : typeof roomToken === 'string' && roomToken
              ? ((await deps.hooks.collect(roomTokenUser, { deps, roomToken })).find((u) => u !== null) ??
                null)
              : null;
        await seals.requireImageAccess(deps, userId, row);
        const key = m[2] === 'svg' ? row.svgKey : row.pngKey;
        if (!key) throw new AppError(Code.NotFound, S.sealNotFound, { status: 404 });
        const bytes = await deps.storage.get(key);
        if (!bytes) throw new Error(`seal ${row.id} names a missing blob`);
        return (
          reply
            .header('content-type', m[2] === 'svg' ? 'image/svg+xml' : 'image/png')
            // Private: the image is only for the owner; blobs never change, so the browser may keep it a while.
            .header('cache-control', 'private, max-age=300')
            // An SVG opened directly must not run anything.
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
            .send(Buffer.from(bytes))
        );
      },
    );
  },
};
