import type { FastifyRequest } from 'fastify';
import type { Lang, Text } from '../lib/text.ts';

export { type Lang, render, type Text } from '../lib/text.ts';

/**
 * Texts the server itself puts in `msg`, in both languages of the product. The language follows the
 * request's Accept-Language (zh* -> Chinese, anything else -> English); the client may set that header
 * to its chosen language. Field messages of the contract's schemas come from contract/bilingual.ts (the
 * contract's own) or zod's zh-CN locale (error-handler.ts).
 */

export function langOf(req: Pick<FastifyRequest, 'headers'>): Lang {
  const header = req.headers['accept-language'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}

export const T = {
  success: { en: 'success', zh: '成功' },
  notLoggedIn: { en: 'not logged in', zh: '未登录' },
  sessionTimedOut: { en: 'login timed out, please log in again', zh: '登录超时，请重新登录' },
  loggedInElsewhere: {
    en: 'your account has logged in elsewhere, please log in again',
    zh: '您的账号已在别处登录，请重新登录',
  },
  passwordChanged: { en: 'your password was changed, please log in again', zh: '密码已修改，请重新登录' },
  accountDisabled: { en: 'this account is disabled', zh: '该账号已被停用' },
  noPermission: { en: 'user has no permission', zh: '用户没有权限' },
  xsrfRejected: {
    en: 'request rejected: the XSRF token or keySuffix header is missing or does not match the session',
    zh: '请求被拒绝：XSRF 令牌或 keySuffix 请求头缺失或与会话不符',
  },
  userTypeRequired: {
    en: 'userType is required (0 person, 1 company)',
    zh: '缺少 userType（0 个人，1 企业）',
  },
  userTypeNegative: { en: 'userType must be 0 or greater', zh: 'userType 不能小于 0' },
  userTypeInvalid: {
    en: 'userType must be 0 (person) or 1 (company)',
    zh: 'userType 只能是 0（个人）或 1（企业）',
  },
  bodyNotJson: { en: 'request body is not valid JSON', zh: '请求体不是有效的 JSON' },
  bodyEmpty: { en: 'request body is empty', zh: '请求体为空' },
  bodyNotObject: { en: 'request body must be a JSON object', zh: '请求体必须是 JSON 对象' },
  contentType: { en: 'content-type must be application/json', zh: 'content-type 必须是 application/json' },
  badRequest: { en: 'bad request', zh: '请求无效' },
  payloadTooLarge: { en: 'request body is too large', zh: '请求体过大' },
  unknownCall: { en: 'unknown call', zh: '未知的接口' },
  notFound: { en: 'not found', zh: '未找到' },
  rateLimited: { en: 'too many requests, please try again later', zh: '请求过于频繁，请稍后再试' },
  internal: { en: 'internal server error, please try again later', zh: '服务器内部错误，请稍后再试' },
} satisfies Record<string, Text>;
