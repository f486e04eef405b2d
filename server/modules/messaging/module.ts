import {
  type NoticeEmailSettings,
  adminGetMessageFailures,
  getNoticeEmail,
  setNoticeEmail,
} from '#contract/calls/messaging.ts';
import type { Db } from '../../db/database.ts';
import { registerCall } from '../../http/register-call.ts';
import {
  REDELIVER_JOB,
  type Redelivery,
  listDeliveryFailures,
} from '../../messaging/delivering-messenger.ts';
import type { ServerModule } from '../server-module.ts';
import { requirePlatformAdmin } from '../package/index.ts';
import { noticeEmailOf, setNoticeEmail as saveNoticeEmail } from '../session/index.ts';

async function readSettings(db: Db, userId: string, isMailConfigured: boolean): Promise<NoticeEmailSettings> {
  const u = await noticeEmailOf(db, userId);
  return { email: u?.email ?? null, lang: u?.lang ?? 'zh', isMailConfigured };
}

/** Message delivery: a person's notice e-mail, and the administrator's view of failed deliveries. */
export const messagingModule: ServerModule = {
  name: 'messaging',
  jobs: [
    {
      // A notice whose SMS or e-mail failed for a reason that may pass (the provider's trouble, its
      // per-phone limit, an SMTP 4xx): the first retry a minute later, then up to 8 more with doubling waits
      // (pg-boss's backoff with jitter: 1-2, 2-4, ... 128-256 minutes); each attempt is counted on its
      // delivery row, which the administrator's failures card shows until one succeeds.
      name: REDELIVER_JOB,
      retryLimit: 8,
      retryDelaySeconds: 60,
      retryBackoff: true,
      async handler(job, deps) {
        await deps.messenger.redeliver?.(job.data as Redelivery);
      },
    },
  ],
  register(app, deps) {
    const isMailConfigured = deps.config.mail !== undefined;

    registerCall(app, getNoticeEmail, async ({ requireSession }) =>
      readSettings(deps.db, requireSession().userId, isMailConfigured),
    );

    registerCall(app, setNoticeEmail, async ({ body, requireSession }) => {
      const { userId } = requireSession();
      await saveNoticeEmail(deps.db, userId, {
        email: body.email || null,
        lang: body.lang,
        platform: body.fromPtCode ?? null,
      });
      return readSettings(deps.db, userId, isMailConfigured);
    });

    registerCall(app, adminGetMessageFailures, async ({ body, requireSession }) => {
      await requirePlatformAdmin(deps, requireSession());
      return {
        smsProvider: deps.config.smsGateway.provider,
        isMailConfigured,
        failures: await listDeliveryFailures(deps.db, body.limit ?? 50),
      };
    });
  },
};
