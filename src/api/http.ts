import { Code, HttpStatus, SESSION_CLEARING_CODES } from '#contract/codes.ts';
import type { Envelope } from '#contract/envelope.ts';
import {
  KEY_SUFFIX_HEADER,
  keySuffixOf,
  REQUEST_TIMEOUT_MS,
  TOKEN_COOKIE,
  XSRF_HEADER,
} from '#contract/transport.ts';
import { t, useI18nStore } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { getCookie } from '@/lib/cookies.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { notify } from '@/lib/notify.ts';
import { currentUserType, useSessionStore } from '@/session/session-store.ts';

// The one transport of the app. It is a small XMLHttpRequest client rather than axios: every screen's first
// paint waits for it (the login page asks isHyCenterLogin on load, SPEC §6), and axios weighed 20 kB gzipped
// of the login page's 200 kB budget for the few features used here. XMLHttpRequest rather than fetch because
// uploads report their progress. Screens never call it directly: they call src/api/<domain>.ts.

/** SPEC §9: how long an error message stays, and the delay before re-login or redirect. */
export const ERROR_MESSAGE_MS = 2000;
export const RELOGIN_DELAY_MS = 1500;

/**
 * A call that did not succeed. `handled` is true when the catalogue already told the user (session codes,
 * HTTP errors), so a screen shows `msg` itself only for unhandled business refusals.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number | undefined;
  readonly handled: boolean;
  constructor(code: number, msg: string, handled: boolean, status?: number) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.handled = handled;
    this.status = status;
  }
}

/** What a caller may add to a request. */
export type RequestConfig = {
  /** Query parameters (a GET also gets `ts`). */
  params?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Progress of the request body going out (uploads). */
  onUploadProgress?: (event: { loaded: number; total?: number }) => void;
};

type Request = {
  method: 'GET' | 'POST';
  path: string;
  data?: unknown;
  params: Record<string, string | number | undefined>;
  headers: Record<string, string>;
};

/** An answer: HTTP status and the parsed body (JSON when it is JSON, else the text). */
export type HttpAnswer<T = unknown> = { status: number; data: T };

/** No answer (network, time-out) or an HTTP status outside 2xx; the catalogue turns it into an ApiError. */
class HttpFailure extends Error {
  readonly status: number | undefined;
  constructor(status: number | undefined) {
    super(status === undefined ? 'no response' : `HTTP ${status}`);
    this.status = status;
  }
}

function withUserType(data: unknown): unknown {
  const userType = currentUserType();
  if (data === undefined || data === null) return { userType };
  if (typeof FormData !== 'undefined' && data instanceof FormData) {
    if (!data.has('userType')) data.append('userType', String(userType));
    return data;
  }
  if (typeof data === 'object' && !Array.isArray(data) && !('userType' in data)) return { ...data, userType };
  return data;
}

function applyTransportRules(request: Request): Request {
  const headers = { ...request.headers };
  const token = getCookie(TOKEN_COOKIE);
  if (token) {
    // The server compares these with the session (XSRF): a cross-site form cannot read the cookie.
    headers[XSRF_HEADER] = token;
    headers[KEY_SUFFIX_HEADER] = keySuffixOf(token);
  }
  // The server writes its msg in the language the user chose here, not the browser's default.
  headers['Accept-Language'] = useI18nStore.getState().locale;
  let { params, data } = request;
  // A random ts defeats caches that would otherwise serve a stale download or list.
  if (request.method === 'GET') params = { ...params, ts: Math.random().toString(36).slice(2) + Date.now() };
  if (request.method === 'POST') data = withUserType(data);
  return { ...request, headers, params, data };
}

const isEnvelope = (body: unknown): body is Envelope<unknown> =>
  typeof body === 'object' &&
  body !== null &&
  'code' in body &&
  typeof (body as { code: unknown }).code === 'number';

let baseUrl: string | undefined;

/** What every request uses (read by send; tests read it too). */
const defaults = {
  withCredentials: true,
  timeout: REQUEST_TIMEOUT_MS,
  /** The page's origin ('') unless the build's settings name an API host for this hostname. */
  get baseURL(): string {
    baseUrl ??= apiBaseUrl(typeof window === 'undefined' ? '' : window.location.hostname, readEnv());
    return baseUrl;
  },
};

function urlOf(request: Request): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(request.params)) if (v !== undefined) query.set(k, String(v));
  const search = query.toString();
  const path = `${defaults.baseURL}${request.path}`;
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(request: Request, onUploadProgress?: RequestConfig['onUploadProgress']): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, urlOf(request));
    xhr.timeout = defaults.timeout;
    xhr.withCredentials = defaults.withCredentials;
    let body: XMLHttpRequestBodyInit | null = null;
    const headers = { ...request.headers };
    if (typeof FormData !== 'undefined' && request.data instanceof FormData) {
      // The browser writes the multipart Content-Type with its boundary.
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'content-type') delete headers[name];
      body = request.data;
    } else if (request.data !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(request.data);
    }
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onUploadProgress) {
      xhr.upload.onprogress = (e) =>
        onUploadProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });
    }
    xhr.onload = () => {
      const answer = { status: xhr.status, data: parseBody(xhr.responseText) };
      if (xhr.status >= 200 && xhr.status < 300) resolve(answer);
      else reject(new HttpFailure(xhr.status));
    };
    xhr.onerror = xhr.ontimeout = xhr.onabort = () => reject(new HttpFailure(undefined));
    xhr.send(body);
  });
}

function onResponse(answer: HttpAnswer): HttpAnswer {
  const body = answer.data;
  if (isEnvelope(body) && SESSION_CLEARING_CODES.includes(body.code)) {
    notify.error(body.msg, ERROR_MESSAGE_MS);
    useSessionStore.getState().clearLocalLogin();
    // Logged in elsewhere: after a moment, reload so the route guard sends the user to log in again.
    if (body.code === Code.LoggedInElsewhere) browser.later(() => browser.reload(), RELOGIN_DELAY_MS);
    throw new ApiError(body.code, body.msg, true, answer.status);
  }
  return answer;
}

function onFailure(error: unknown): never {
  if (error instanceof ApiError) throw error;
  const status = error instanceof HttpFailure ? error.status : undefined;
  let text: string;
  if (status === undefined) text = t('http.cannotConnect');
  else if (status === HttpStatus.SessionTimedOut) {
    text = t('http.loginTimedOut');
    browser.later(() => browser.assign(rootUrl()), RELOGIN_DELAY_MS);
  } else if (status === HttpStatus.NoPermission) text = t('http.noPermission');
  else text = t('http.connectionError');
  notify.error(text, ERROR_MESSAGE_MS);
  throw new ApiError(Code.Internal, text, true, status);
}

/** The app's root (the home page of the hash router). */
function rootUrl(): string {
  return `${window.location.origin}${window.location.pathname}#/`;
}

async function call(request: Request, onUploadProgress?: RequestConfig['onUploadProgress']) {
  try {
    return onResponse(await send(applyTransportRules(request), onUploadProgress));
  } catch (error) {
    return onFailure(error);
  }
}

/**
 * The client: every request gets the transport rules (credentials, XSRF and keySuffix from the token cookie,
 * Accept-Language, `ts` on GET, `userType` on POST, 180000 ms time-out) and the error catalogue (SPEC §8).
 */
export const http = {
  defaults,
  get: (path: string, config: RequestConfig = {}): Promise<HttpAnswer> =>
    call({ method: 'GET', path, params: config.params ?? {}, headers: config.headers ?? {} }),
  post: (path: string, data?: unknown, config: RequestConfig = {}): Promise<HttpAnswer> =>
    call(
      { method: 'POST', path, data, params: config.params ?? {}, headers: config.headers ?? {} },
      config.onUploadProgress,
    ),
};

/** POST a call and return its `data`; a non-zero code becomes an ApiError. */
export async function post<T>(path: string, body?: object | FormData, config?: RequestConfig): Promise<T> {
  const { data } = await http.post(path, body, config);
  if (!isEnvelope(data)) throw new ApiError(Code.Internal, t('http.connectionError'), false);
  if (data.code !== Code.Ok) throw new ApiError(data.code, data.msg, false);
  return data.data as T;
}
