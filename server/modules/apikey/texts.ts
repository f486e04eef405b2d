import type { Text } from '../../http/texts.ts';

/** Texts of the API-key module and of the integrator API's key checks, in both languages. */
export const K = {
  keyNotFound: { en: 'API key not found', zh: 'API 密钥不存在' },
  tooManyKeys: (max: number): Text => ({
    en: `an account may have at most ${max} live API keys; revoke one first`,
    zh: `每个账户最多有 ${max} 个有效的 API 密钥，请先吊销一个`,
  }),
  alreadyRevoked: { en: 'this API key is already revoked', zh: '该 API 密钥已吊销' },
  keyMissing: {
    en: 'send an API key: Authorization: Bearer esk_live_…',
    zh: '请提供 API 密钥：Authorization: Bearer esk_live_…',
  },
  keyUnknown: { en: 'the API key is unknown or revoked', zh: 'API 密钥无效或已吊销' },
  keyOwnerGone: {
    en: 'the API key can no longer act: its account is disabled, or its creator is no longer an administrator',
    zh: 'API 密钥已不可用：账户已停用，或创建者已不是管理员',
  },
  scopeMissing: (scope: string): Text => ({
    en: `the API key lacks the scope ${scope}`,
    zh: `API 密钥缺少权限 ${scope}`,
  }),
  idempotencyConflict: {
    en: 'this Idempotency-Key was already used with a different request',
    zh: '该 Idempotency-Key 已用于另一个不同的请求',
  },
  idempotencyInProgress: {
    en: 'the first request with this Idempotency-Key is still running; try again shortly',
    zh: '使用该 Idempotency-Key 的首个请求仍在处理中，请稍后重试',
  },
  idempotencyKeyBad: {
    en: 'an Idempotency-Key is 1 to 200 visible ASCII characters',
    zh: 'Idempotency-Key 须为 1–200 个可见 ASCII 字符',
  },
} as const;
