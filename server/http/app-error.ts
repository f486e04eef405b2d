import { Code, HttpStatus } from '#contract/codes.ts';
import { T, type Text } from './texts.ts';

/**
 * The one error type of the server: a contract code, a message for the user (both languages, or one
 * string) and, for the few refusals that have one, an HTTP status (403, 413, 429, 601, 602).
 * The error handler turns it into `{code, msg, data: null}`.
 */
export class AppError extends Error {
  readonly code: number;
  readonly text: Text | string;
  readonly status: number;
  /** What the refusal's envelope carries as `data` (e.g. `{ retryAfterSeconds }`); null when nothing. */
  readonly data: Record<string, unknown> | null;

  constructor(
    code: number,
    text: Text | string,
    options: { status?: number; data?: Record<string, unknown> } = {},
  ) {
    super(typeof text === 'string' ? text : text.en);
    this.name = 'AppError';
    this.code = code;
    this.text = text;
    this.status = options.status ?? 200;
    this.data = options.data ?? null;
  }
}

/** HTTP 602 'user has no permission': for permission refusals (SPEC §8). */
export const noPermission = (): AppError =>
  new AppError(Code.Refused, T.noPermission, { status: HttpStatus.NoPermission });
