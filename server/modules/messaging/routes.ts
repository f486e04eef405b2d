import {
  type NoticeEmailSettings,
  adminGetMessageFailures,
  getNoticeEmail,
  setNoticeEmail,
} from '#contract/calls/messaging.ts';
import type { Db } from '../../db/database.ts';
import { registerCall } from '../../http/register-call.ts';
import { listDeliveryFailures } from '../../messaging/delivering-messenger.ts';
import type { ServerModule } from '../module.ts';
import { requirePlatformAdmin } from '../package/index.ts';
import { noticeEmailOf, setNoticeEmail as saveNoticeEmail } from '../session/index.ts';

async function readSettings(db: Db, userId: string, isMailConfigured: boolean): Promise<NoticeEmailSettings> {
  const u = await noticeEmailOf(db, userId);
  return { email: u?.email ?? null, lang: u?.lang ?? 'zh', isMailConfigured };
}

/** Message delivery: a person's notice e-mail, and the administrator's view of failed deliveries. */
export const messagingModule: ServerModule = {
  name: 'messaging',
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
