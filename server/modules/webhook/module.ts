import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  setWebhookEndpointEnabled,
} from '#contract/calls/webhook.ts';
import { registerCall } from '../../http/register-call.ts';
import { approvalEvent } from '../approval/index.ts';
import { flowEvent } from '../flow/index.ts';
import type { ServerModule } from '../server-module.ts';
import { DELIVER_JOB, attemptAndSchedule, deliverDue } from './deliver.ts';
import * as webhooks from './service.ts';

/** Webhook endpoints of an account and their deliveries (issue 13); listens to flow's events. */
export const webhookModule: ServerModule = {
  name: 'webhook',
  register(app, deps) {
    registerCall(app, createWebhookEndpoint, async ({ body, requireSession }) =>
      webhooks.createEndpoint(deps, requireSession(), body),
    );
    registerCall(app, listWebhookEndpoints, async ({ requireSession }) =>
      webhooks.listEndpoints(deps, requireSession()),
    );
    registerCall(app, setWebhookEndpointEnabled, async ({ body, requireSession }) =>
      webhooks.setEndpointEnabled(deps, requireSession(), body.endpointId, body.enabled),
    );
    registerCall(app, rotateWebhookSecret, async ({ body, requireSession }) =>
      webhooks.rotateSecret(deps, requireSession(), body.endpointId),
    );
    registerCall(app, deleteWebhookEndpoint, async ({ body, requireSession }) => {
      await webhooks.deleteEndpoint(deps, requireSession(), body.endpointId);
      return null;
    });
    registerCall(app, listWebhookDeliveries, async ({ body, requireSession }) =>
      webhooks.listDeliveries(deps, requireSession(), body),
    );
    registerCall(app, redeliverWebhook, async ({ body, requireSession }) =>
      webhooks.redeliver(deps, requireSession(), body.deliveryId),
    );
    registerCall(app, sendWebhookTestEvent, async ({ body, requireSession }) =>
      webhooks.sendTestEvent(deps, requireSession(), body.endpointId),
    );
  },
  jobs: [
    {
      name: DELIVER_JOB,
      // The retry schedule is the module's own (deliver.ts: each attempt queues the next); the job system
      // retries only an attempt that could not run at all (e.g. the database was unreachable).
      retryLimit: 3,
      retryDelaySeconds: 30,
      async handler(job: { data: { messageId: string } }, deps) {
        await attemptAndSchedule(deps, job.data.messageId);
      },
    },
    {
      name: 'webhook.sweep',
      cron: '* * * * *',
      retryLimit: 0,
      async handler(_job, deps) {
        await deliverDue(deps);
      },
    },
  ],
  listen(h) {
    // Inside the flow change's transaction: the messages are stored with it (an outbox); their first
    // attempts are queued once it has committed.
    h.on(flowEvent, ({ deps, tx, event }) => webhooks.storeFlowEventMessages(deps, tx, event));
    // The same for seal-use approvals (issue 27): to the seal company's endpoints.
    h.on(approvalEvent, ({ deps, tx, event }) => webhooks.storeApprovalEventMessages(deps, tx, event));
  },
};
