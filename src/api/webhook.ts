// Typed client of contract/calls/webhook.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/webhook.ts';
import * as P from '#contract/paths/webhook.ts';
import { call } from './http.ts';

export type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#contract/calls/webhook.ts';

export const createWebhookEndpoint = call<typeof calls.createWebhookEndpoint>(P.createWebhookEndpoint);
export const listWebhookEndpoints = call<typeof calls.listWebhookEndpoints>(P.listWebhookEndpoints);
export const setWebhookEndpointEnabled = call<typeof calls.setWebhookEndpointEnabled>(
  P.setWebhookEndpointEnabled,
);
export const rotateWebhookSecret = call<typeof calls.rotateWebhookSecret>(P.rotateWebhookSecret);
export const deleteWebhookEndpoint = call<typeof calls.deleteWebhookEndpoint>(P.deleteWebhookEndpoint);
export const listWebhookDeliveries = call<typeof calls.listWebhookDeliveries>(P.listWebhookDeliveries);
export const redeliverWebhook = call<typeof calls.redeliverWebhook>(P.redeliverWebhook);
export const sendWebhookTestEvent = call<typeof calls.sendWebhookTestEvent>(P.sendWebhookTestEvent);
