import { Code } from '#contract/codes.ts';
import { deleteDocument, findDocumentKeyword, uploadDocument } from '#contract/calls/document.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { registerUpload } from '../../http/register-upload.ts';
import type { ServerModule } from '../server-module.ts';
import { registerPdfJsAssets } from './pdfjs-assets.ts';
import { findKeyword, preferredKeywordHit } from '../../pdf/compose/pdf-tools.ts';
import * as documents from './service.ts';
import { D } from './texts.ts';

/**
 * Documents: upload, keyword search, delete (an account's own, not yet launched). Reading a launched document
 * (info, downloads, verification facts) goes through its flow: flow/documents.ts.
 */
export const documentModule: ServerModule = {
  name: 'document',
  register(app, deps) {
    registerPdfJsAssets(app);
    const mb = Math.round(deps.config.uploadLimitBytes / 1024 / 1024);
    registerUpload(
      app,
      uploadDocument,
      { maxFileBytes: deps.config.uploadLimitBytes, tooLarge: D.uploadTooLarge(mb) },
      async ({ file, session }) => {
        if (!file || file.bytes.length === 0)
          throw new AppError(Code.DocumentRejected, file ? D.empty : D.noFile);
        return documents.uploadDocument(deps, session, file);
      },
    );

    registerCall(app, findDocumentKeyword, async ({ body, requireSession }) => {
      const account = await documents.accountOf(deps, requireSession());
      const doc = await documents.ownDocument(deps, account, body.documentId);
      const hits = await findKeyword(await documents.blobBytes(deps, doc.originalKey), body.keyword);
      const preferred = preferredKeywordHit(hits);
      return hits.map((h, i) => ({ ...h, isPreferred: i === preferred }));
    });

    registerCall(app, deleteDocument, async ({ body, requireSession }) => {
      await documents.deleteDocument(deps, requireSession(), body.documentId);
      return null;
    });
  },
};
