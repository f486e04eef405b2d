import type { CallDef } from '../envelope.ts';
import { certCalls } from './cert.ts';
import { companyCalls } from './company.ts';
import { partnerCalls } from './partner.ts';
import { personCalls } from './person.ts';
import { sealCalls } from './seal.ts';
import { sessionCalls } from './session.ts';
import { documentCalls } from './document.ts';
import { flowCalls } from './flow.ts';
import { verifyCalls } from './verify.ts';
import { monitorCalls } from './monitor.ts';
import { platformCalls } from './platform.ts';
import { packageCalls } from './package.ts';
import { signConfigCalls } from './sign-config.ts';
import { templateCalls } from './template.ts';
import { messagingCalls } from './messaging.ts';
import { apiKeyCalls } from './apikey.ts';
import { webhookCalls } from './webhook.ts';
import { approvalCalls } from './approval.ts';
import { authorisationCalls } from './authorisation.ts';
import { batchCalls } from './batch.ts';
import { bulkCalls } from './bulk.ts';
import { fieldCalls } from './fields.ts';
import { commentCalls } from './comments.ts';
import { ccCalls } from './cc.ts';
import { centreCalls } from './centre.ts';
import { reassignCalls } from './reassign.ts';
import { rescissionCalls } from './rescission.ts';
import { revisionCalls } from './revisions.ts';
import { termCalls } from './term.ts';
import { draftCalls } from './drafts.ts';

/**
 * Every call of the contract, for the server to register and for OpenAPI.
 * A domain adds its `<domain>Calls` array here when it arrives.
 */
export const allCalls: readonly CallDef[] = [
  ...sessionCalls,
  ...partnerCalls,
  ...personCalls,
  ...sealCalls,
  ...companyCalls,
  ...documentCalls,
  ...flowCalls,
  ...monitorCalls,
  ...platformCalls,
  ...certCalls,
  ...verifyCalls,
  ...packageCalls,
  ...signConfigCalls,
  ...templateCalls,
  ...messagingCalls,
  ...apiKeyCalls,
  ...webhookCalls,
  ...approvalCalls,
  ...authorisationCalls,
  ...batchCalls,
  ...bulkCalls,
  ...fieldCalls,
  ...commentCalls,
  ...ccCalls,
  ...centreCalls,
  ...reassignCalls,
  ...rescissionCalls,
  ...revisionCalls,
  ...termCalls,
  ...draftCalls,
];
