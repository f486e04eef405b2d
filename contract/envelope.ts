import { z } from 'zod';

/** The answer of every call: `{code, msg, data}`; `code` 0 is success (contract/codes.ts). */
export type Envelope<T> = { code: number; msg: string; data: T };

export const zEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

/** Prefix of the e-signature calls (SPEC §7). */
export const CSIGN_PREFIX = '/v1/account/api/csign';
/** Prefix of the partner (central platform) login calls (SPEC §7). */
export const JINSHANG_PREFIX = '/v1/jinshang/login/api/csign';

/**
 * `userType` travels with every call (SPEC §3): 0 person, 1 company.
 * Missing or below 0 is rejected by the server with Code.UserTypeInvalid before any schema runs.
 */
export const zUserType = z.number().int().min(0).max(1);
export const zBase = z.object({ userType: zUserType });

/** One call of the contract: its name as the spec spells it, where it lives, what it takes and returns. */
export type CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> = {
  name: string;
  prefix: typeof CSIGN_PREFIX | typeof JINSHANG_PREFIX;
  request: Req;
  /** Schema of `data` in a successful answer. */
  response: Res;
  /** Whether the call needs a logged-in session. */
  auth: boolean;
  summary: string;
};

export const defineCall = <Req extends z.ZodType, Res extends z.ZodType>(def: CallDef<Req, Res>) => def;

export const callPath = (def: Pick<CallDef, 'name' | 'prefix'>) => `${def.prefix}/${def.name}`;

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
