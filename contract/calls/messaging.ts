import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/messaging.ts';
import { PLATFORM_CODES } from '../enums.ts';
import { bi } from '../bilingual.ts';

/** An e-mail address for notices; '' removes it. */
export const zNoticeEmail = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .max(254, bi('the e-mail address is too long', '邮箱地址过长'))
    .email(bi('enter a valid e-mail address', '请输入有效的邮箱地址')),
]);

export const zNoticeEmailSettings = z.object({
  /** null: notices are not e-mailed. */
  email: z.string().nullable(),
  lang: z.enum(['zh', 'en']),
  /** Whether the server sends e-mail at all (SMTP_URL); the address is kept either way. */
  isMailConfigured: z.boolean(),
});
export type NoticeEmailSettings = z.infer<typeof zNoticeEmailSettings>;

export const getNoticeEmail = defineCall({
  call: P.getNoticeEmail,
  auth: true,
  summary: "The logged-in person's e-mail address for notices, and its language.",
  request: zBase,
  response: zNoticeEmailSettings,
});

export const setNoticeEmail = defineCall({
  call: P.setNoticeEmail,
  auth: true,
  summary:
    'Sets (or, with an empty address, removes) where notices (to sign, signed, declined, completed, expired, ' +
    'cancelled) are also e-mailed, in which language, with the brand of the platform variant `fromPtCode`.',
  request: zBase.extend({
    email: zNoticeEmail,
    lang: z.enum(['zh', 'en']),
    fromPtCode: z.enum(PLATFORM_CODES as [string, ...string[]]).optional(),
  }),
  response: zNoticeEmailSettings,
});

export const zMessageFailure = z.object({
  id: z.number().int(),
  channel: z.enum(['sms', 'email']),
  provider: z.string(),
  /** Masked phone or e-mail. */
  to: z.string(),
  purpose: z.string(),
  /** temporary (retried, then given up), throttled, invalid_phone, config (template, signature, keys), rejected. */
  failureKind: z.string().nullable(),
  attempts: z.number().int(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  requestId: z.string().nullable(),
  createdAt: z.string(),
});

export const adminGetMessageFailures = defineCall({
  call: P.adminGetMessageFailures,
  auth: true,
  summary:
    'Platform administrator: the SMS and e-mail providers in use and the latest messages they could not ' +
    'deliver (after retries), newest first.',
  request: zBase.extend({ limit: z.number().int().min(1).max(200).optional() }),
  response: z.object({
    smsProvider: z.string(),
    isMailConfigured: z.boolean(),
    failures: z.array(zMessageFailure),
  }),
});

export const messagingCalls = [getNoticeEmail, setNoticeEmail, adminGetMessageFailures] as const;
