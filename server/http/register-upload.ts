import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { Code } from '#contract/codes.ts';
import { type CallDefOfKind, callPath, zEnvelope } from '#contract/envelope.ts';
import { KEY_SUFFIX_HEADER, SESSION_COOKIE, TOKEN_COOKIE, XSRF_HEADER } from '#contract/transport.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from './app-error.ts';
import { checkUserType } from './register-call.ts';
import { type LiveSession, sessionGateOf } from './session-gate.ts';
import { type Lang, type Text, langOf } from './texts.ts';
import { type UploadTicket, admitUpload, releaseUpload } from './upload-budget.ts';

/** The one file of an upload, read into memory (bounded by `maxFileBytes`). */
type UploadedFile = { bytes: Uint8Array; filename: string; mimetype: string };

type UploadContext = {
  /** Text fields of the form; `userType` already checked. */
  fields: Record<string, string>;
  file: UploadedFile | null;
  deps: AppDeps;
  lang: Lang;
  /** The live session (uploads always need one). */
  session: LiveSession;
};

const NOT_MULTIPART: Text = {
  en: 'this call takes multipart/form-data with the file in the field "file"',
  zh: '该接口需要 multipart/form-data，文件放在 file 字段中',
};

const hasXsrfMaterial = (headers: Record<string, unknown>, cookies: Record<string, unknown>) =>
  cookies[TOKEN_COOKIE] !== undefined ||
  headers[XSRF_HEADER] !== undefined ||
  headers[KEY_SUFFIX_HEADER] !== undefined;

/**
 * Registers a contract call that takes multipart/form-data (registerCall is JSON-only): POST at
 * callPath(def), text fields plus at most one file part named `file`, answered with the same
 * `{code, msg, data}` envelope. The same rules as registerCall apply, in the same order: userType first
 * then a live session (these calls
 * always need one) and its XSRF headers; for multipart the session is checked before the file is read.
 * A JSON body is checked like any call's, then refused as not multipart. A file over `maxFileBytes` is refused with
 * `tooLarge` before more than that is read. Before the form is read the upload is admitted by the app's upload
 * budget (upload-budget.ts): per person (HTTP 429) and in total (HTTP 503), released when the exchange ends.
 */
export function registerUpload<D extends CallDefOfKind<'upload'>>(
  app: FastifyInstance,
  def: D,
  options: { maxFileBytes: number; tooLarge: Text },
  handler: (ctx: UploadContext) => Promise<unknown>,
): void {
  const deps = app.deps;
  app.route({
    method: 'POST',
    url: callPath(def),
    schema: {
      operationId: def.name,
      summary: def.summary,
      tags: ['needs login', 'upload'],
      consumes: ['multipart/form-data'],
      response: { 200: zEnvelope(def.response) },
    },
    onResponse: releaseUpload,
    onRequestAbort: releaseUpload,
    handler: async (req, reply) => {
      const authenticate = async (): Promise<LiveSession> => {
        const gate = sessionGateOf(app);
        let lookup = await gate.lookup(deps, req);
        if (lookup.state === 'live' && !hasXsrfMaterial(req.headers, req.cookies)) lookup = { state: 'none' };
        if (lookup.state !== 'live') {
          if (req.cookies[SESSION_COOKIE]) gate.clearCookies(deps, reply);
          throw gate.refusal(lookup);
        }
        gate.checkXsrf(req, lookup.session);
        return lookup.session;
      };
      if (!req.isMultipart()) {
        // A JSON body gets the transport's own answers first (userType, session), as from any call; a
        // well-formed one is then told to send multipart.
        checkUserType(req.body);
        await authenticate();
        throw new AppError(Code.BadRequest, NOT_MULTIPART);
      }
      // The session is known from cookies and headers alone: no file is read for a caller who may not upload.
      const session = await authenticate();
      // Its share of the upload budget before any of the form is read: the form's length as declared (at most
      // the file limit and room for the fields), or, sent without one, the file's bytes as they arrive.
      const ticket = admitUpload(
        deps,
        req,
        reply,
        accountOf(session),
        options.maxFileBytes + FORM_OVERHEAD_BYTES,
      );
      const fields: Record<string, string> = {};
      let file: UploadedFile | null = null;
      for await (const part of req.parts({ limits: { fileSize: options.maxFileBytes } })) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        file = await readFile(part, options.tooLarge, ticket);
      }
      checkUserType(fieldsAsBody(fields));
      const data = await handler({ fields, file, deps, lang: langOf(req), session });
      return { code: Code.Ok, msg: 'success', data };
    },
  });
}

/** What a form holds besides its file (boundaries, part headers, text fields), in the budget's share. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Whose uploads count together: the person uploading (whichever account they act for), so that the operators of
 * one company do not queue behind each other, while one browser or script cannot hold many bodies at once.
 */
const accountOf = (session: LiveSession): string => `user:${session.userId}`;

function fieldsAsBody(fields: Record<string, string>): Record<string, unknown> {
  const userType = fields.userType;
  return { userType: userType === undefined || userType.trim() === '' ? undefined : Number(userType) };
}

async function readFile(part: MultipartFile, tooLarge: Text, ticket: UploadTicket): Promise<UploadedFile> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) {
    // a form sent without Content-Length: counted as it arrives (503 beyond the budget)
    ticket.count((chunk as Buffer).length);
    chunks.push(chunk as Buffer);
  }
  // @fastify/multipart stops reading at the limit and marks the stream truncated.
  if (part.file.truncated) throw new AppError(Code.Refused, tooLarge);
  const buf = Buffer.concat(chunks);
  return {
    bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength),
    filename: part.filename,
    mimetype: part.mimetype,
  };
}

/**
 * An upload a signing room makes (no session: the room's token is a text field of the form, sent before the
 * file). The token is checked by `authorize` when the file part arrives, before any of the file is read; a
 * form without a file is authorized at its end. The budget counts the caller by IP (a room has no user yet).
 */
export function registerRoomUpload<D extends CallDefOfKind<'upload'>, R>(
  app: FastifyInstance,
  def: D,
  /** `tooLarge` may name what the upload is for, from what `authorize` answered. */
  options: { maxFileBytes: number; tooLarge: Text | ((room: NoInfer<R>) => Text) },
  authorize: (fields: Record<string, string>) => Promise<R>,
  handler: (ctx: {
    fields: Record<string, string>;
    file: UploadedFile | null;
    deps: AppDeps;
    lang: Lang;
    room: R;
  }) => Promise<unknown>,
): void {
  const deps = app.deps;
  app.route({
    method: 'POST',
    url: callPath(def),
    schema: {
      operationId: def.name,
      summary: def.summary,
      tags: ['signing room', 'upload'],
      consumes: ['multipart/form-data'],
      response: { 200: zEnvelope(def.response) },
    },
    onResponse: releaseUpload,
    onRequestAbort: releaseUpload,
    handler: async (req, reply) => {
      if (!req.isMultipart()) {
        checkUserType(req.body);
        throw new AppError(Code.BadRequest, NOT_MULTIPART);
      }
      const ticket = admitUpload(
        deps,
        req,
        reply,
        `ip:${req.ip}`,
        options.maxFileBytes + FORM_OVERHEAD_BYTES,
      );
      const fields: Record<string, string> = {};
      let file: UploadedFile | null = null;
      let room: { value: R } | null = null;
      for await (const part of req.parts({ limits: { fileSize: options.maxFileBytes } })) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        room ??= { value: await authorize(fields) };
        const tooLarge =
          typeof options.tooLarge === 'function' ? options.tooLarge(room.value) : options.tooLarge;
        file = await readFile(part, tooLarge, ticket);
      }
      checkUserType(fieldsAsBody(fields));
      room ??= { value: await authorize(fields) };
      const data = await handler({ fields, file, deps, lang: langOf(req), room: room.value });
      return { code: Code.Ok, msg: 'success', data };
    },
  });
}
