import { Code, HttpStatus, SESSION_CLEARING_CODES } from '#contract/codes.ts';
import type { CallKind, CallPath } from '#contract/call-path.ts';
import type { CallDef, CallRequest, CallResponse, Envelope } from '#contract/envelope.ts';
import {
  FRAME_SESSION_HEADER,
  KEY_SUFFIX_HEADER,
  keySuffixOf,
  REQUEST_TIMEOUT_MS,
  XSRF_HEADER,
} from '#contract/transport.ts';
import type { AxiosInstance, AxiosRequestConfig, InternalAxiosRequestConfig } from 'axios';
import { t, useI18nStore } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { notify } from '@/lib/notify.ts';
import { frameHeaders, keepFrameSession } from '@/session/frame-session.ts';
import { currentUserType, getToken, useSessionStore } from '@/session/session-store.ts';

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
  /** The refusal's own `data` (e.g. `{ retryAfterSeconds }` of an SMS resend wait), else null. */
  readonly data: Record<string, unknown> | null;
  constructor(
    code: number,
    msg: string,
    handled: boolean,
    status?: number,
    data: Record<string, unknown> | null = null,
  ) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.handled = handled;
    this.status = status;
    this.data = data;
  }
}

/** Seconds to wait before asking again, when a refusal says so (an SMS code's resend wait). */
export function retryAfterSecondsOf(error: unknown): number | null {
  const s = error instanceof ApiError ? error.data?.retryAfterSeconds : undefined;
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : null;
}

/**
 * After a failed call: shows a business refusal the HTTP layer has not already shown (session codes and
 * HTTP errors it shows itself), and returns the failure's text for an inline alert. Anything that is not an
 * ApiError is not shown here (no toast): its message is returned for the screen to show where it wants.
 */
export function showApiError(error: unknown): string {
  if (error instanceof ApiError) {
    if (!error.handled) notify.error(error.message, ERROR_MESSAGE_MS);
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
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

function applyTransportRules(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  for (const [name, value] of Object.entries(frameHeaders())) config.headers.set(name, value);
  const token = getToken();
  if (token) {
    // The server compares these with the session (XSRF): a cross-site form cannot read the cookie.
    config.headers.set(XSRF_HEADER, token);
    config.headers.set(KEY_SUFFIX_HEADER, keySuffixOf(token));
  }
  // The server writes its msg in the language the user chose here, not the browser's default.
  config.headers.set('Accept-Language', useI18nStore.getState().locale);
  const method = (config.method ?? 'get').toLowerCase();
  // A random ts defeats caches that would otherwise serve a stale download or list.
  if (method === 'get')
    config.params = { ...config.params, ts: Math.random().toString(36).slice(2) + Date.now() };
  if (method === 'post') config.data = withUserType(config.data);
  return config;
}

const isEnvelope = (body: unknown): body is Envelope<unknown> =>
  typeof body === 'object' &&
  body !== null &&
  'code' in body &&
  typeof (body as { code: unknown }).code === 'number';

let instance: Promise<AxiosInstance> | undefined;

/**
 * The one axios instance, created on the first call. Screens never use axios directly: they call
 * src/api/<domain>.ts. axios loads with the first request, so pages that call nothing before the user acts
 * (the login page) do not download it up front.
 */
export function getHttp(): Promise<AxiosInstance> {
  instance ??= import('axios').then(({ default: axios }) => {
    const http = axios.create({
      baseURL: apiBaseUrl(typeof window === 'undefined' ? '' : window.location.hostname, readEnv()),
      timeout: REQUEST_TIMEOUT_MS,
      withCredentials: true,
      headers: { 'Content-Type': 'application/json' },
    });
    http.interceptors.request.use(applyTransportRules);
    http.interceptors.response.use(onResponse, onFailure(axios.isAxiosError));
    return http;
  });
  return instance;
}

function onResponse<R extends { data: unknown; status: number; headers?: unknown }>(
  response: R,
): R | Promise<never> {
  keepFrameSessionOf(response.headers);
  const body = response.data;
  if (isEnvelope(body) && SESSION_CLEARING_CODES.includes(body.code)) {
    notify.error(body.msg, ERROR_MESSAGE_MS);
    useSessionStore.getState().clearLocalLogin();
    // Logged in elsewhere: after a moment, reload so the route guard sends the user to log in again.
    if (body.code === Code.LoggedInElsewhere) browser.later(() => browser.reload(), RELOGIN_DELAY_MS);
    return Promise.reject(new ApiError(body.code, body.msg, true, response.status));
  }
  return response;
}

/** A framed login answers its session in headers (FRAME_SESSION_HEADER, XSRF_HEADER): keep it in memory. */
function keepFrameSessionOf(headers: unknown): void {
  if (!headers || typeof headers !== 'object' || !browser.isFramed()) return;
  const read = (name: string): unknown => {
    const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
    return typeof h.get === 'function' ? h.get(name) : h[name];
  };
  const sid = read(FRAME_SESSION_HEADER);
  const token = read(XSRF_HEADER);
  if (typeof sid === 'string' && sid && typeof token === 'string' && token) keepFrameSession(sid, token);
}

const onFailure =
  (isAxiosError: (e: unknown) => e is { response?: { status: number } }) =>
  (error: unknown): Promise<never> => {
    if (error instanceof ApiError) return Promise.reject(error);
    const response = isAxiosError(error) ? error.response : undefined;
    let text: string;
    if (!response) text = t('http.cannotConnect');
    else if (response.status === HttpStatus.SessionTimedOut) {
      text = t('http.loginTimedOut');
      browser.later(() => browser.assign(rootUrl()), RELOGIN_DELAY_MS);
    } else if (response.status === HttpStatus.NoPermission) text = t('http.noPermission');
    else text = t('http.connectionError');
    notify.error(text, ERROR_MESSAGE_MS);
    return Promise.reject(new ApiError(Code.Internal, text, true, response?.status));
  };

/** The app's root (the home page of the hash router). */
function rootUrl(): string {
  return `${window.location.origin}${window.location.pathname}#/`;
}

/** POST a call and return its `data`; a non-zero code becomes an ApiError. */
export async function post<T>(
  path: string,
  body?: object | FormData,
  config?: AxiosRequestConfig,
): Promise<T> {
  const http = await getHttp();
  const { data } = await http.post<Envelope<T>>(path, body, config);
  if (!isEnvelope(data)) throw new ApiError(Code.Internal, t('http.connectionError'), false);
  if (data.code !== Code.Ok) {
    const extra = data.data && typeof data.data === 'object' ? (data.data as Record<string, unknown>) : null;
    throw new ApiError(data.code, data.msg, false, undefined, extra);
  }
  return data.data;
}

/** What a client function takes: the call's request, `userType` optional (added from the session when left out). */
export type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
/** What a client function resolves to: the `data` of the call's successful answer. */
export type Res<D> = CallResponse<D>;

/** The path of a call of kind `K`: a constant of contract/paths/ (never a string written in src/). */
export type PathOf<D extends CallDef, K extends CallKind> = D['call'] & CallPath<string, K>;

/**
 * The client function of a JSON call: POST at the call's constant (contract/paths/<domain>.ts), typed by
 * its zod def (types only, no zod in the bundle). `call<typeof calls.x>(paths.x)`: the constant of another
 * call, or of an upload or a download, is a type error. The body may be left out when nothing in it is required.
 */
export const call =
  <D extends CallDef>(at: PathOf<D, 'json'>) =>
  (...[body]: Partial<Req<D>> extends Req<D> ? [body?: Req<D>] : [body: Req<D>]): Promise<Res<D>> =>
    post<Res<D>>(at.path, body ?? {});
