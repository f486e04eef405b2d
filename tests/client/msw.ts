import Cookies from 'js-cookie';
import type { LoginInfo } from '#contract/calls/session.ts';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * One msw server for the client tests; each test adds the handlers it needs with server.use(). The one
 * default: the login page asks isHyCenterLogin on every visit (SPEC §6), answered 0 (no central login).
 */
export const server = setupServer(
  http.post('/v1/account/api/csign/isHyCenterLogin', () =>
    HttpResponse.json({ code: 0, msg: 'ok', data: 0 }),
  ),
  // The code fields ask, on a loopback page, whether the development outbox exists: not here.
  http.get('/v1/dev/outbox', () => new HttpResponse(null, { status: 404 })),
  // The workspace layout asks whether to show the administrators' menu entry: not an administrator.
  http.post('/v1/account/api/csign/getPlatformAdminInfo', () =>
    HttpResponse.json({ code: 0, msg: 'ok', data: { isPlatformAdmin: false } }),
  ),
);

export const CSIGN = '/v1/account/api/csign';
export const JINSHANG = '/v1/jinshang/login/api/csign';

export const ok = <T>(data: T) => HttpResponse.json({ code: 0, msg: 'ok', data });
export const fail = (code: number, msg: string) => HttpResponse.json({ code, msg, data: null });

export const loginInfo = (over: Partial<LoginInfo> = {}): LoginInfo => ({
  userId: 'u1',
  userType: 0,
  loginState: 11,
  phone: '13812345678',
  name: null,
  companyId: null,
  companyName: null,
  isAdmin: false,
  hasCaCert: false,
  hasSeal: false,
  hasOperator: false,
  salePackageProductTypeList: [],
  totalQuantitySum: 0,
  totalReserveQuantity: 0,
  totalUseQuantity: 0,
  remainQuantity: 0,
  ...over,
});

/** Answer getEsignLoginInfo with the given data and count the calls. */
export function loginInfoHandler(data: LoginInfo | null) {
  const calls: unknown[] = [];
  server.use(
    http.post(`${JINSHANG}/getEsignLoginInfo`, async ({ request }) => {
      calls.push(await request.json());
      return ok(data);
    }),
  );
  return calls;
}

/** Put the session's readable token cookie in place, as the server's login would. */
export const setToken = (value: string) => Cookies.set('token', value, { path: '/' });
