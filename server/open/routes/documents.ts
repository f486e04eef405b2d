// Documents: upload a PDF to launch with, download a document (current or original), a completed flow's
// signed PDF and its audit report. Who may read what is the flow module's rule (documentAccess,
// flowAccess); each download of a launched document is an audit entry, as in the workspace.
import {
  zDocumentIdParams,
  zDocumentInfo,
  zDocumentQuery,
  zFlowDocumentParams,
  zFlowIdParams,
  zUploadDocumentBody,
} from '#contract/open/v1.ts';
import { z } from 'zod';
import { Code } from '#contract/codes.ts';
import { largestUploadBodyBytes } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import { D, uploadDocument } from '../../modules/document/index.ts';
import { downloadAuditReport, downloadDocument, downloadSignedPdf } from '../../modules/flow/index.ts';
import { defineOpenRoute } from '../route.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const documentRoutes = [
  defineOpenRoute({
    method: 'POST',
    path: '/documents',
    operationId: 'uploadDocument',
    tag: 'documents',
    summary: 'Uploads a PDF (base64) as a document of the key’s account, to launch a flow with (status 201).',
    description:
      'The PDF is checked as in the workspace: not encrypted, not damaged, not empty, within the upload limit. ' +
      'Uploads in flight are limited per key (HTTP 429) and in total (HTTP 503), both with Retry-After.',
    scope: 'flows:write',
    body: zUploadDocumentBody,
    response: zDocumentInfo,
    status: 201,
    bodyLimit: (deps) => largestUploadBodyBytes(deps.config.uploadLimitBytes),
    upload: true,
    handler: async ({ deps, caller, body }) => {
      const text = body.contentBase64.replace(/\s+/g, '');
      if (!BASE64.test(text)) throw new AppError(Code.DocumentRejected, D.notPdf);
      // The decoded Buffer itself when it has its memory to itself (any large one), not a second copy; a small
      // one sits in Node's shared pool and is copied out of it.
      const decoded = Buffer.from(text, 'base64');
      const bytes =
        decoded.byteLength === decoded.buffer.byteLength
          ? new Uint8Array(decoded.buffer, 0, decoded.byteLength)
          : new Uint8Array(decoded);
      // the body limit leaves room for base64; the PDF itself keeps the workspace's upload limit
      if (bytes.length > deps.config.uploadLimitBytes)
        throw new AppError(
          Code.PayloadTooLarge,
          D.uploadTooLarge(Math.round(deps.config.uploadLimitBytes / 1024 / 1024)),
        );
      if (bytes.length === 0) throw new AppError(Code.DocumentRejected, D.empty);
      return uploadDocument(deps, caller.actor, { bytes, filename: body.filename });
    },
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/documents/:documentId/pdf',
    operationId: 'downloadDocument',
    tag: 'documents',
    summary: 'A document’s PDF: the current version (signatures so far) or the original.',
    scope: 'documents:read',
    params: zDocumentIdParams,
    query: zDocumentQuery,
    response: z.null(),
    pdf: true,
    handler: ({ deps, caller, params, query, ctx }) =>
      downloadDocument(deps, { session: caller.actor }, params.documentId, query.version === 'original', ctx),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/flows/:flowId/documents/:documentId/signed-pdf',
    operationId: 'downloadSignedPdf',
    tag: 'documents',
    summary: 'The signed PDF of a document of a completed flow (before completion: 422, code 1100).',
    scope: 'documents:read',
    params: zFlowDocumentParams,
    response: z.null(),
    pdf: true,
    handler: ({ deps, caller, params, ctx }) =>
      downloadSignedPdf(deps, { session: caller.actor }, params.flowId, params.documentId, ctx),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/flows/:flowId/audit-report',
    operationId: 'downloadAuditReport',
    tag: 'documents',
    summary: 'The audit report (certificate of completion, platform-signed PDF) of a completed flow.',
    scope: 'documents:read',
    params: zFlowIdParams,
    response: z.null(),
    pdf: true,
    handler: ({ deps, caller, params, ctx }) =>
      downloadAuditReport(deps, { session: caller.actor }, params.flowId, ctx),
  }),
];
