// The module's public face (server/README.md, "Layers"). The open API (/open/v1/webhooks) and the job
// system use the services and the delivery functions from here.
export { deliverDue, deliverMessage } from './deliver.ts';
export {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
} from './service.ts';
export { signatureOf } from './signature.ts';
