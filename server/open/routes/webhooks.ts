// Webhook endpoints of the key's account and their deliveries (scope webhooks:manage): the webhook module's
// own services, the ones the workspace screen calls, so a key manages exactly the account's endpoints.
import {
  zCreateWebhookBody,
  zListDeliveriesQuery,
  zWebhookDelivery,
  zWebhookDeliveryPage,
  zWebhookDeliveryParams,
  zWebhookEndpointList,
  zWebhookEndpointParams,
  zWebhookEndpointWithSecret,
} from '#contract/open/v1.ts';
import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
} from '../../modules/webhook/index.ts';
import { defineOpenRoute } from '../route.ts';

export const webhookRoutes = [
  defineOpenRoute({
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhook',
    tag: 'webhooks',
    summary: 'Adds a webhook endpoint; answers it with its signing secret, shown this once. Status 201.',
    description:
      'The URL must be https (plain http only outside production). Each delivery is a POST signed with ' +
      '`X-Esign-Signature: v1=<hex HMAC-SHA256(secret, X-Esign-Timestamp + "." + body)>`; see the README, "Webhooks".',
    scope: 'webhooks:manage',
    body: zCreateWebhookBody,
    response: zWebhookEndpointWithSecret,
    status: 201,
    handler: ({ deps, caller, body }) => createEndpoint(deps, caller.actor, body),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/webhooks',
    operationId: 'listWebhooks',
    tag: 'webhooks',
    summary: 'The account’s webhook endpoints, newest first (never their secrets).',
    scope: 'webhooks:manage',
    response: zWebhookEndpointList,
    handler: ({ deps, caller }) => listEndpoints(deps, caller.actor),
  }),
  defineOpenRoute({
    method: 'DELETE',
    path: '/webhooks/:endpointId',
    operationId: 'deleteWebhook',
    tag: 'webhooks',
    summary: 'Deletes an endpoint and its delivery log (another account’s: 404).',
    scope: 'webhooks:manage',
    params: zWebhookEndpointParams,
    response: z.null(),
    handler: async ({ deps, caller, params }) => {
      await deleteEndpoint(deps, caller.actor, params.endpointId);
      return null;
    },
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/webhooks/:endpointId/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'webhooks',
    summary: 'An endpoint’s deliveries, newest first, each with every attempt (time, HTTP code, error).',
    scope: 'webhooks:manage',
    params: zWebhookEndpointParams,
    query: zListDeliveriesQuery,
    response: zWebhookDeliveryPage,
    handler: ({ deps, caller, params, query }) =>
      listDeliveries(deps, caller.actor, { endpointId: params.endpointId, ...query }),
  }),
  defineOpenRoute({
    method: 'POST',
    path: '/webhooks/deliveries/:deliveryId/redeliver',
    operationId: 'redeliverWebhook',
    tag: 'webhooks',
    summary:
      'Sends a delivery again now: the same event id and body, signed afresh; answers it with the new attempt.',
    scope: 'webhooks:manage',
    params: zWebhookDeliveryParams,
    response: zWebhookDelivery,
    handler: ({ deps, caller, params }) => redeliver(deps, caller.actor, params.deliveryId),
  }),
];
