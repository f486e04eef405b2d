import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import { WEBHOOK_EVENTS } from '../enums.ts';
import * as P from '../paths/webhook.ts';

export { WEBHOOK_EVENTS };

// Webhook endpoints (issue 13): an account (a person, or a company through its administrators) names URLs
// that are told, by a signed POST, when its flows move. Each endpoint has its own signing secret, shown
// when the endpoint is made and when it is rotated, never again. Every delivery attempt is logged.

export const zWebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof zWebhookEvent>;

/** The signature headers of every delivery (README "Webhooks": how a receiver checks them). */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-esign-timestamp',
  signature: 'x-esign-signature',
  eventId: 'x-esign-event-id',
} as const;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const zWebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    message: bi('enter an http(s) URL', '请输入 http(s) 地址'),
  });

export const zWebhookEndpoint = z.object({
  endpointId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(zWebhookEvent),
  enabled: z.boolean(),
  createdAt: z.string(),
  /** The latest attempt of any delivery, to show at a glance. */
  lastAttempt: z.object({ at: z.string(), ok: z.boolean(), responseCode: z.number().nullable() }).nullable(),
});
export type WebhookEndpoint = z.infer<typeof zWebhookEndpoint>;

/** An endpoint with its secret: answered only when it is made or its secret rotated. */
export const zWebhookEndpointWithSecret = zWebhookEndpoint.extend({ secret: z.string() });

export const zWebhookAttempt = z.object({
  at: z.string(),
  ok: z.boolean(),
  responseCode: z.number().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  manual: z.boolean(),
});

export const zWebhookDelivery = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  type: z.string(),
  createdAt: z.string(),
  /** pending: a (re)try is due at nextAttemptAt; failed: given up after 24 hours. */
  state: z.enum(['pending', 'delivered', 'failed']),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(zWebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof zWebhookDelivery>;

export const createWebhookEndpoint = defineCall({
  call: P.createWebhookEndpoint,
  auth: true,
  summary:
    'Adds a webhook endpoint to the caller account (a company: administrators only). The URL must be https to a ' +
    'host that is and resolves to public addresses (loopback, private, link-local and reserved ones are refused, ' +
    'again at every delivery); any http(s) URL where local receivers are allowed (outside production by default). ' +
    'Answers the endpoint with its signing secret, shown this once.',
  request: zBase.extend({
    url: zWebhookUrl,
    description: z.string().trim().max(200).optional(),
    events: z.array(zWebhookEvent).min(1, bi('choose at least one event', '请至少选择一个事件')),
  }),
  response: zWebhookEndpointWithSecret,
});

export const listWebhookEndpoints = defineCall({
  call: P.listWebhookEndpoints,
  auth: true,
  summary: 'The webhook endpoints of the caller account, newest first (never their secrets).',
  request: zBase,
  response: z.array(zWebhookEndpoint),
});

export const setWebhookEndpointEnabled = defineCall({
  call: P.setWebhookEndpointEnabled,
  auth: true,
  summary: 'Turns an endpoint on or off; a disabled endpoint is sent nothing new. Another account’s: 1101.',
  request: zBase.extend({ endpointId: zId, enabled: z.boolean() }),
  response: zWebhookEndpoint,
});

export const rotateWebhookSecret = defineCall({
  call: P.rotateWebhookSecret,
  auth: true,
  summary:
    'Replaces the endpoint’s signing secret and answers the new one (shown this once); deliveries from now on ' +
    'are signed with it.',
  request: zBase.extend({ endpointId: zId }),
  response: zWebhookEndpointWithSecret,
});

export const deleteWebhookEndpoint = defineCall({
  call: P.deleteWebhookEndpoint,
  auth: true,
  summary: 'Deletes an endpoint with its delivery log. Another account’s: 1101.',
  request: zBase.extend({ endpointId: zId }),
  response: z.null(),
});

export const listWebhookDeliveries = defineCall({
  call: P.listWebhookDeliveries,
  auth: true,
  summary: 'The deliveries of one endpoint, newest first, each with every attempt (time, result, HTTP code).',
  request: zBase.extend({ endpointId: zId }).extend(zPageRequest.shape),
  response: zPage(zWebhookDelivery),
});

export const redeliverWebhook = defineCall({
  call: P.redeliverWebhook,
  auth: true,
  summary:
    'Sends a delivery again now (the same event id and body, signed afresh) and answers it with the new attempt.',
  request: zBase.extend({ deliveryId: zId }),
  response: zWebhookDelivery,
});

export const sendWebhookTestEvent = defineCall({
  call: P.sendWebhookTestEvent,
  auth: true,
  summary:
    'Sends a `webhook.test` event to the endpoint now (also when disabled) and answers the delivery with its attempt.',
  request: zBase.extend({ endpointId: zId }),
  response: zWebhookDelivery,
});

export const webhookCalls = [
  createWebhookEndpoint,
  listWebhookEndpoints,
  setWebhookEndpointEnabled,
  rotateWebhookSecret,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhook,
  sendWebhookTestEvent,
] as const;
