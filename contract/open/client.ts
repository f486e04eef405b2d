// A small typed client of the integrator REST API (/open/v1) for Node 18+ and browsers (fetch). Thin by
// design: one method per route, the request and answer types taken from the very zod schemas the server
// validates with (contract/open/v1.ts, as types only: this file pulls no zod into a bundle), every refusal
// thrown as an OpenApiError carrying the stable code and the HTTP status. Example: scripts/open-api-example.ts.
import type { z } from 'zod';
import type {
  LaunchFlowBody,
  zCancelFlowBody,
  zDocumentInfo,
  zFlowDetail,
  zFlowPage,
  zLaunched,
  zListFlowsQuery,
  zListTemplatesQuery,
  zRemindBody,
  zReminded,
  zTemplate,
  zTemplatePage,
  zUploadDocumentBody,
} from './v1.ts';

export type FlowDetail = z.output<typeof zFlowDetail>;
export type FlowPage = z.output<typeof zFlowPage>;
export type Launched = z.output<typeof zLaunched>;
export type Template = z.output<typeof zTemplate>;
export type TemplatePage = z.output<typeof zTemplatePage>;
export type DocumentInfo = z.output<typeof zDocumentInfo>;
export type { LaunchFlowBody };

/** A refusal of the API: `code` is stable (see the reference's Error schema), `status` the HTTP status. */
export class OpenApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: unknown;
  constructor(status: number, code: number, message: string, data: unknown) {
    super(message);
    this.name = 'OpenApiError';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

export type OpenClientOptions = {
  /** The product's address, e.g. https://esign.example.com (the client adds /open/v1). */
  baseUrl: string;
  /** An API key secret (esk_live_…). */
  apiKey: string;
  /** 'zh-CN' for Chinese messages (default English). */
  language?: string;
  /** Another fetch (tests, proxies). */
  fetch?: typeof fetch;
};

type Query = Record<string, unknown>;
/** Paging of the list routes. */
type Paging = { pageNum?: number; pageSize?: number };

/** Makes a client. Every POST may take an idempotency key: a retry with it never does the work twice. */
export function openClient(options: OpenClientOptions) {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/open/v1`;
  const doFetch = options.fetch ?? fetch;

  async function send(
    method: 'GET' | 'POST',
    path: string,
    opts: { query?: Query; body?: unknown; idempotencyKey?: string } = {},
  ): Promise<Response> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
    if (options.language) headers['accept-language'] = options.language;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const res = await doFetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    if (res.ok) return res;
    const answer = (await res.json().catch(() => null)) as {
      code?: number;
      msg?: string;
      data?: unknown;
    } | null;
    throw new OpenApiError(
      res.status,
      answer?.code ?? 5000,
      answer?.msg ?? res.statusText,
      answer?.data ?? null,
    );
  }

  async function json<T>(
    method: 'GET' | 'POST',
    path: string,
    opts?: { query?: Query; body?: unknown; idempotencyKey?: string },
  ): Promise<T> {
    const answer = (await (await send(method, path, opts)).json()) as { data: T };
    return answer.data;
  }

  const pdf = async (path: string, query?: Query) =>
    new Uint8Array(await (await send('GET', path, { query })).arrayBuffer());

  return {
    listTemplates: (query: Omit<z.input<typeof zListTemplatesQuery>, keyof Paging> & Paging = {}) =>
      json<TemplatePage>('GET', '/templates', { query }),
    getTemplate: (templateId: string) =>
      json<Template>('GET', `/templates/${encodeURIComponent(templateId)}`),

    /** Uploads a PDF to launch with (bytes, sent as base64). */
    uploadDocument: (file: { filename: string; bytes: Uint8Array }, idempotencyKey?: string) =>
      json<DocumentInfo>('POST', '/documents', {
        body: {
          filename: file.filename,
          contentBase64: bytesToBase64(file.bytes),
        } satisfies z.input<typeof zUploadDocumentBody>,
        idempotencyKey,
      }),
    launchFlow: (body: LaunchFlowBody, idempotencyKey?: string) =>
      json<Launched>('POST', '/flows', { body, idempotencyKey }),
    listFlows: (query: Omit<z.input<typeof zListFlowsQuery>, keyof Paging> & Paging = {}) =>
      json<FlowPage>('GET', '/flows', { query }),
    getFlow: (flowId: string) => json<FlowDetail>('GET', `/flows/${encodeURIComponent(flowId)}`),
    cancelFlow: (flowId: string, body: z.input<typeof zCancelFlowBody>, idempotencyKey?: string) =>
      json<FlowDetail>('POST', `/flows/${encodeURIComponent(flowId)}/cancel`, { body, idempotencyKey }),
    remindSigners: (flowId: string, body: z.input<typeof zRemindBody> = {}, idempotencyKey?: string) =>
      json<z.output<typeof zReminded>>('POST', `/flows/${encodeURIComponent(flowId)}/remind`, {
        body,
        idempotencyKey,
      }),

    downloadDocument: (documentId: string, version: 'current' | 'original' = 'current') =>
      pdf(`/documents/${encodeURIComponent(documentId)}/pdf`, { version }),
    downloadSignedPdf: (flowId: string, documentId: string) =>
      pdf(`/flows/${encodeURIComponent(flowId)}/documents/${encodeURIComponent(documentId)}/signed-pdf`),
    downloadAuditReport: (flowId: string) => pdf(`/flows/${encodeURIComponent(flowId)}/audit-report`),
  };
}

export type OpenClient = ReturnType<typeof openClient>;

function bytesToBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
