import { z } from 'zod';
import type { CallKind, CallPath, CallPrefix } from './call-path.ts';

/** The answer of every call: `{code, msg, data}`; `code` 0 is success (contract/codes.ts). */
export type Envelope<T> = { code: number; msg: string; data: T };

export const zEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

export { CSIGN_PREFIX, JINSHANG_PREFIX } from './call-path.ts';

/**
 * `userType` travels with every call (SPEC §3): 0 person, 1 company.
 * Missing or below 0 is rejected by the server with Code.UserTypeInvalid before any schema runs.
 */
const zUserType = z.number().int().min(0).max(1);
export const zBase = z.object({ userType: zUserType });

/**
 * One call of the contract: where it lives (`call`, its zod-free constant of contract/paths/, which the
 * client uses too; `name` and `prefix` are copied from it), what it takes and returns.
 */
export type CallDef<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  P extends CallPath = CallPath,
> = {
  call: P;
  name: P['name'];
  prefix: CallPrefix;
  request: Req;
  /** Schema of `data` in a successful answer. */
  response: Res;
  /** Whether the call needs a logged-in session. */
  auth: boolean;
  summary: string;
};

/** A call def whose address is `call` (a constant of contract/paths/, never a string written here). */
export const defineCall = <Req extends z.ZodType, Res extends z.ZodType, P extends CallPath>(
  def: Omit<CallDef<Req, Res, P>, 'name' | 'prefix'>,
): CallDef<Req, Res, P> => ({ ...def, name: def.call.name, prefix: def.call.prefix });

/** A call def that travels as `kind` (registerCall takes `json` defs, registerUpload `upload` defs). */
export type CallDefOfKind<K extends CallKind> = CallDef<z.ZodType, z.ZodType, CallPath<string, K>>;

/** A def's path (equal to `def.call.path`: defineCall copies name and prefix from the constant). */
export const callPath = (def: Pick<CallDef, 'name' | 'prefix'>): string => `${def.prefix}/${def.name}`;

export type CallRequest<D> = D extends CallDef<infer Req, z.ZodType> ? z.input<Req> : never;
export type CallResponse<D> = D extends CallDef<z.ZodType, infer Res> ? z.output<Res> : never;

/** Pagination in list calls (SPEC §9: default page size 10). */
export const DEFAULT_PAGE_SIZE = 10;
export const zPageRequest = z.object({
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export const zPage = <T extends z.ZodType>(item: T) =>
  z.object({
    list: z.array(item),
    total: z.number().int(),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
  });
