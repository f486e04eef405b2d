// The paths of contract/calls/webhook.ts (zod-free: src/api/webhook.ts imports them).
import { csign } from '../call-path.ts';

export const createWebhookEndpoint = /* @__PURE__ */ csign('createWebhookEndpoint');
export const listWebhookEndpoints = /* @__PURE__ */ csign('listWebhookEndpoints');
export const setWebhookEndpointEnabled = /* @__PURE__ */ csign('setWebhookEndpointEnabled');
export const rotateWebhookSecret = /* @__PURE__ */ csign('rotateWebhookSecret');
export const deleteWebhookEndpoint = /* @__PURE__ */ csign('deleteWebhookEndpoint');
export const listWebhookDeliveries = /* @__PURE__ */ csign('listWebhookDeliveries');
export const redeliverWebhook = /* @__PURE__ */ csign('redeliverWebhook');
export const sendWebhookTestEvent = /* @__PURE__ */ csign('sendWebhookTestEvent');
