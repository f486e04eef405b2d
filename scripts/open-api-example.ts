/**
 * Example of the integrator API with the JavaScript helper (contract/open/client.ts): uploads a PDF,
 * launches a flow for one person who signs where the PDF says the keyword, then shows the flow.
 *
 *   node scripts/open-api-example.ts --base http://localhost:8080 --key esk_live_… \
 *        --pdf contract.pdf --keyword "Party B" --name 李四 --phone 13800000000 [--title 'Contract']
 *
 * Make the key on the workspace's API keys screen (/manage/apiKeys) with flows:write and flows:read.
 * Running it twice with the same PDF and signer launches once: the Idempotency-Key is derived from them.
 */
import './require-node24.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { OpenApiError, openClient } from '../contract/open/client.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://localhost:8080' },
    key: { type: 'string' },
    pdf: { type: 'string' },
    keyword: { type: 'string' },
    name: { type: 'string' },
    phone: { type: 'string' },
    title: { type: 'string' },
  },
});
if (!values.key || !values.pdf || !values.keyword || !values.name || !values.phone) {
  console.error(
    'usage: node scripts/open-api-example.ts --base URL --key esk_live_… --pdf FILE --keyword TEXT --name NAME --phone PHONE',
  );
  process.exit(1);
}

const api = openClient({ baseUrl: values.base!, apiKey: values.key });
const bytes = new Uint8Array(readFileSync(values.pdf));
const idem = createHash('sha256').update(bytes).update(values.phone).digest('hex').slice(0, 32);

try {
  const doc = await api.uploadDocument({ filename: basename(values.pdf), bytes }, `upload-${idem}`);
  const launched = await api.launchFlow(
    {
      from: 'documents',
      title: values.title ?? basename(values.pdf, '.pdf'),
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: values.name,
              phone: values.phone,
              intent: 'sms',
              positions: [{ documentId: doc.documentId, keyword: values.keyword }],
            },
          ],
        },
      ],
    },
    `launch-${idem}`,
  );
  const flow = await api.getFlow(launched.flowId);
  console.log(`flow ${flow.flowId}: ${flow.status}`);
  for (const step of flow.steps)
    for (const party of step.parties) console.log(`  step ${step.index + 1}: ${party.name} ${party.status}`);
} catch (err) {
  if (err instanceof OpenApiError) {
    console.error(`refused: HTTP ${err.status}, code ${err.code}: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
