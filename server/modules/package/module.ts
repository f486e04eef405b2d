import {
  MAX_EXPORT_ROWS,
  adminCancelOrder,
  adminConfirmOrder,
  adminGetOrderList,
  adminGetPackageList,
  adminRefundOrder,
  adminSavePackage,
  cancelPackageOrder,
  createGroupOrder,
  createPackageOrder,
  exportUserPackageDetail,
  getPackageList,
  getPackageOrder,
  getPackageOrderList,
  getPlatformAdminInfo,
  getPurchaseEligibility,
  getUserPackageDetail,
  getUserPackageList,
  startOrderPayment,
} from '#contract/calls/package.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import { loginFacts } from '../session/index.ts';
import { PAY_NOTIFY_PATH } from '../../providers/payment/wechat.ts';
import * as pay from './online-payment.ts';
import { accountOfSession, quotaLoginFields, salePackageProductTypes } from './quota.ts';
import * as svc from './service.ts';

/** Packages, orders (checkout, payment notes, confirmation by platform administrators) and usage detail. */
export const packageModule: ServerModule = {
  name: 'package',
  listen(hooks) {
    // The login info's packages: the sale product types of the live packages, and the quota.
    hooks.on(loginFacts, async ({ deps, actor }) => ({
      salePackageProductTypeList: await salePackageProductTypes(deps, actor),
      ...(await quotaLoginFields(deps, actor)),
    }));
  },
  async register(app, deps) {
    registerCall(app, getPackageList, ({ body }) => svc.listOnSale(deps, body.saleProductType));

    registerCall(app, getPurchaseEligibility, ({ requireSession }) =>
      svc.purchaseEligibility(deps, requireSession()),
    );

    registerCall(app, createPackageOrder, ({ body, requireSession }) =>
      svc.createOrder(deps, requireSession(), 'single', body),
    );

    registerCall(app, createGroupOrder, ({ body, requireSession }) =>
      svc.createOrder(deps, requireSession(), 'group', body),
    );

    // The buyer's own orders only: every lookup is scoped by the session's account.
    registerCall(app, getPackageOrder, ({ body, requireSession }) =>
      svc.getOwnOrder(deps, requireSession(), body.orderNo),
    );

    registerCall(app, getPackageOrderList, ({ body, requireSession }) =>
      svc.listOrders(deps, { ...body, account: accountOfSession(requireSession()) }),
    );

    registerCall(app, cancelPackageOrder, ({ body, requireSession }) =>
      svc.cancelOrder(deps, body.orderNo, {
        account: accountOfSession(requireSession()),
        reason: 'cancelled by the buyer',
      }),
    );

    registerCall(app, startOrderPayment, ({ body, req, requireSession }) =>
      pay.startPayment(deps, requireSession(), {
        orderNo: body.orderNo,
        channel: body.channel,
        clientIp: req.ip,
      }),
    );

    // Server-to-server: the payment providers' signed notifications. The exact body bytes are kept
    // (signatures cover them), so this scope parses nothing itself.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
        done(null, body),
      );
      for (const providerId of ['wechat', 'alipay'] as const)
        scope.post(PAY_NOTIFY_PATH[providerId], { schema: { hide: true } }, async (req, reply) => {
          const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const { answer } = await pay.handleNotification(deps, providerId, { headers: req.headers, body });
          return reply.status(answer.status).type(answer.contentType).send(answer.body);
        });
    });

    registerCall(app, getUserPackageList, ({ requireSession }) =>
      svc.accountPackages(deps, requireSession()),
    );

    registerCall(app, getUserPackageDetail, ({ body, requireSession }) => {
      const { pageNum, pageSize, userType: _u, ...filters } = body;
      return svc.usageDetail(deps, requireSession(), filters, { pageNum, pageSize });
    });

    registerCall(app, exportUserPackageDetail, ({ body, requireSession }) => {
      const { userType: _u, ...filters } = body;
      return svc.usageExport(deps, requireSession(), filters, MAX_EXPORT_ROWS);
    });

    registerCall(app, getPlatformAdminInfo, async ({ requireSession }) => ({
      isPlatformAdmin: await svc.isPlatformAdmin(deps, requireSession()),
    }));

    // Platform administration: each handler checks the role first (HTTP 602 otherwise).
    registerCall(app, adminGetPackageList, async ({ requireSession }) => {
      await svc.requirePlatformAdmin(deps, requireSession());
      return svc.listAllPackages(deps);
    });

    registerCall(app, adminSavePackage, async ({ body, requireSession }) => {
      await svc.requirePlatformAdmin(deps, requireSession());
      const { userType: _u, ...input } = body;
      return svc.savePackage(deps, input);
    });

    registerCall(app, adminGetOrderList, async ({ body, requireSession }) => {
      await svc.requirePlatformAdmin(deps, requireSession());
      return svc.listOrders(deps, body);
    });

    registerCall(app, adminConfirmOrder, async ({ body, requireSession }) => {
      const session = requireSession();
      await svc.requirePlatformAdmin(deps, session);
      await pay.requireOfflineOrder(deps, body.orderNo);
      return svc.markOrderPaid(deps, body.orderNo, {
        adminUserId: session.userId,
        reference: body.paymentReference,
      });
    });

    registerCall(app, adminCancelOrder, async ({ body, requireSession }) => {
      await svc.requirePlatformAdmin(deps, requireSession());
      return svc.cancelOrder(deps, body.orderNo, {
        reason: body.reason ?? 'cancelled by a platform administrator',
      });
    });

    registerCall(app, adminRefundOrder, async ({ body, requireSession }) => {
      await svc.requirePlatformAdmin(deps, requireSession());
      const reason = body.reason ?? 'refunded by a platform administrator';
      // An online order's money goes back at the provider first; a refusal there changes nothing here.
      await pay.refundAtProvider(deps, body.orderNo, reason);
      return svc.refundOrder(deps, body.orderNo, reason);
    });
  },
};
