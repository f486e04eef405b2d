/**
 * Where each call of the contract lives, without zod: the client (src/api/) and the server (the zod defs of
 * contract/calls/, every registerCall/registerUpload/GET route) take a call's path from ONE constant of
 * contract/paths/<domain>.ts, so renaming a call is one edit and the client bundle carries no schema.
 */

/** Prefix of the e-signature calls (SPEC §7). */
export const CSIGN_PREFIX = '/v1/account/api/csign';
/** Prefix of the partner (central platform) login calls (SPEC §7). */
export const JINSHANG_PREFIX = '/v1/jinshang/login/api/csign';
export type CallPrefix = typeof CSIGN_PREFIX | typeof JINSHANG_PREFIX;

/**
 * How a call travels: `json` a POST of a JSON body answered `{code, msg, data}`; `upload` a POST of
 * multipart/form-data (text fields, then one part `file`) answered the same way; `download` a GET of bytes
 * at `${path}/<id>...` (a file, not an envelope).
 */
export type CallKind = 'json' | 'upload' | 'download';

/** One call's address: its name as the spec spells it, prefix, full path, HTTP method and kind. */
export type CallPath<N extends string = string, K extends CallKind = CallKind> = {
  readonly name: N;
  readonly prefix: CallPrefix;
  readonly path: `${CallPrefix}/${N}`;
  readonly method: K extends 'download' ? 'GET' : 'POST';
  readonly kind: K;
};

const at = <N extends string, K extends CallKind>(prefix: CallPrefix, name: N, kind: K): CallPath<N, K> =>
  ({
    name,
    prefix,
    path: `${prefix}/${name}`,
    method: kind === 'download' ? 'GET' : 'POST',
    kind,
  }) as CallPath<N, K>;

// The constants are written `/* @__PURE__ */ csign(...)`, so the client's bundler drops the ones a chunk
// does not use.

/** A call under CSIGN_PREFIX (default kind `json`). */
export const csign = <const N extends string, const K extends CallKind = 'json'>(
  name: N,
  kind: K = 'json' as K,
): CallPath<N, K> => at(CSIGN_PREFIX, name, kind);

/** A call under JINSHANG_PREFIX (partner login), always `json`. */
export const jinshang = <const N extends string>(name: N): CallPath<N, 'json'> =>
  at(JINSHANG_PREFIX, name, 'json');
