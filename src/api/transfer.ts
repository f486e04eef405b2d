// Files over the API: uploads (multipart POST) and download URLs (GET). Apart from http.ts so that the
// first load (which needs http.ts for the login-state check) does not carry them.
import type { CallPath } from '#contract/call-path.ts';
import type { CallDef } from '#contract/envelope.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { type PathOf, post, type Res } from './http.ts';

/**
 * The client function's POST of an upload call: multipart/form-data (text fields first, then the part
 * `file`, as the server reads them); `onProgress` gets 0..1 as the bytes go out.
 */
export const upload = <D extends CallDef>(
  at: PathOf<D, 'upload'>,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<Res<D>> =>
  post<Res<D>>(at.path, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
    onUploadProgress: (e) => {
      if (onProgress && e.total) onProgress(Math.min(1, e.loaded / e.total));
    },
  });

/**
 * A GET download URL: absolute for the API host, with the transport rule's random `ts` (SPEC §7) and, inside a
 * link-login signing room, the room token (the room needs no cookie).
 */
export function downloadUrl(path: string, params: Record<string, string | undefined> = {}): string {
  const base = typeof window === 'undefined' ? '' : apiBaseUrl(window.location.hostname, readEnv());
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  query.set('ts', Math.random().toString(36).slice(2) + Date.now());
  return `${base}${path}${path.includes('?') ? '&' : '?'}${query.toString()}`;
}

/** The URL of a download call (contract kind `download`): `${path}/<segment>/...`, each segment encoded. */
export const downloadAt = (
  at: CallPath<string, 'download'>,
  segments: readonly string[],
  params: Record<string, string | undefined> = {},
): string => downloadUrl([at.path, ...segments.map(encodeURIComponent)].join('/'), params);
