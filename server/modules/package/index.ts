// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { seedCatalogue } from './catalogue.ts';
export {
  consumeUnit,
  quotaOf,
  releaseUnit,
  reserveUnit,
} from './quota.ts';
// The platform administrators' tools (npm run admin) manage packages and orders with these.
export {
  cancelOrder,
  listAllPackages,
  listOrders,
  markOrderPaid,
  refundOrder,
  requirePlatformAdmin,
  savePackage,
} from './service.ts';
