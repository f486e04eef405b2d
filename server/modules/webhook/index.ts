// The module's public face (server/README.md, "Layers"). The open API (/open/v1/webhooks) uses the
// services from here.
export { webhookModule } from './routes.ts';
export {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
} from './service.ts';
export { signatureOf } from './signature.ts';
