// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts. The open
// API (/open/v1/webhooks) uses the services from here.
export {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  storeEventMessages as storeAccountEvent,
} from './service.ts';
export { signatureOf } from './signature.ts';
