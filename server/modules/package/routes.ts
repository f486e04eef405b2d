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
} from '#contract/calls/package.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../module.ts';
import { accountOfSession } from './quota.ts';
import * as svc from './service.ts';

/** Packages, orders (checkout, payment notes, confirmation by platform administrators) and usage detail. */
export const packageModule: ServerModule = {
  name: 'package',
  register(app, deps) {
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
      return svc.refundOrder(deps, body.orderNo, body.reason ?? 'refunded by a platform administrator');
    });
  },
};
