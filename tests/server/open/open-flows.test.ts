// Flows through the integrator API with a person's key: a flow launched from an uploaded PDF and one from a
// template, both seen by the workspace's own calls; list, read with each party's status, remind, cancel;
// the downloads (current PDF, signed PDF, audit report) once signed; and another account's key, which
// finds none of it (404 with no data).
import { beforeAll, describe, expect, test } from 'vitest';
import { type FlowDetail, getFlowDetail, listLaunchedFlows } from '#contract/calls/flow.ts';
import { type Template, saveTemplate } from '#contract/calls/template.ts';
import { appForFile } from '../helper.ts';
import {
  type Signer,
  contractPdf,
  ok,
  openByLink,
  personWithCert,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';
import { templateSourcePdf } from '../fixtures/template.ts';
import { makeKey, open } from '../fixtures/open.ts';

const t = appForFile();
let launcher: Signer;
let signer: Signer;
let key: string;
let otherKey: string;
let flowId: string;
let documentId: string;

const ALL = ['flows:read', 'flows:write', 'templates:read', 'documents:read'] as const;

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
  signer = await personWithCert(t, '李四');
  const other = await personWithCert(t, '王五', { seal: false, cert: false });
  key = (await makeKey(launcher.agent, [...ALL])).secret;
  otherKey = (await makeKey(other.agent, [...ALL])).secret;
}, 120_000);

describe('a flow from an uploaded PDF', () => {
  test('upload, then launch with a keyword position and an intent check: 201, seen by the workspace', async () => {
    const pdf = Buffer.from(await contractPdf(2)).toString('base64');
    const up = await open<{ documentId: string; pages: number }>(t, 'POST', '/documents', {
      key,
      body: { filename: '采购合同.pdf', contentBase64: pdf },
    });
    expect(up.status).toBe(201);
    expect(up.body.data.pages).toBe(2);
    documentId = up.body.data.documentId;
    const launched = await open<{ flowId: string; status: string }>(t, 'POST', '/flows', {
      key,
      headers: { 'idempotency-key': 'launch-1' },
      body: {
        from: 'documents',
        title: '采购合同 API',
        documentIds: [documentId],
        message: 'please sign',
        steps: [
          {
            parties: [
              {
                kind: 'person',
                name: signer.name,
                phone: signer.phone,
                intent: 'sms',
                positions: [{ documentId, keyword: 'Party B (signature):' }],
              },
            ],
          },
        ],
      },
    });
    expect(launched.status).toBe(201);
    expect(launched.body.data.status).toBe('signing');
    flowId = launched.body.data.flowId;

    const spa = ok(
      await launcher.agent.call<{ list: { flowId: string; title: string }[] }>(listLaunchedFlows, {
        userType: 0,
      }),
      'list',
    );
    expect(spa.list.map((f) => f.flowId)).toContain(flowId);
    const detail = ok(
      await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }),
      'detail',
    );
    expect(detail.title).toBe('采购合同 API');
    expect(detail.steps[0].parties[0].intent).toBe('sms');
  });

  test('a keyword not in the PDF is refused by the same rule as the workspace (422)', async () => {
    const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
      key,
      body: { filename: 'x.pdf', contentBase64: Buffer.from(await contractPdf(1)).toString('base64') },
    });
    const res = await open(t, 'POST', '/flows', {
      key,
      body: {
        from: 'documents',
        title: 'x',
        documentIds: [up.body.data.documentId],
        steps: [
          {
            parties: [
              {
                kind: 'person',
                name: signer.name,
                phone: signer.phone,
                positions: [{ documentId: up.body.data.documentId, keyword: 'No such words' }],
              },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.msg).toContain('No such words');
  });

  test('list and read with each party’s status', async () => {
    const list = await open<{ list: { flowId: string }[]; total: number }>(
      t,
      'GET',
      '/flows?status=signing',
      {
        key,
      },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((f) => f.flowId)).toContain(flowId);
    const one = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key });
    expect(one.status).toBe(200);
    expect(one.body.data.steps[0].parties[0]).toMatchObject({ name: '李四', status: 'pending' });
  });

  test('another account’s key: 404 for the flow, its documents, cancel and remind, never its data', async () => {
    for (const [method, path] of [
      ['GET', `/flows/${flowId}`],
      ['GET', `/documents/${documentId}/pdf`],
      ['POST', `/flows/${flowId}/cancel`],
      ['POST', `/flows/${flowId}/remind`],
    ] as const) {
      const res = await open(t, method, path, {
        key: otherKey,
        body: method === 'POST' ? (path.endsWith('cancel') ? { reason: 'mine now' } : {}) : undefined,
      });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe(1101);
      expect(res.body.data).toBeNull();
      expect(JSON.stringify(res.body)).not.toContain('采购合同');
    }
    const theirs = await open<{ total: number }>(t, 'GET', '/flows', { key: otherKey });
    expect(theirs.body.data.total).toBe(0);
  });

  test('remind: the party gets the link again; again at once is refused; ten minutes later it works', async () => {
    const first = await open<{ reminded: number }>(t, 'POST', `/flows/${flowId}/remind`, { key, body: {} });
    expect(first.status).toBe(200);
    expect(first.body.data.reminded).toBe(1);
    const soon = await open(t, 'POST', `/flows/${flowId}/remind`, { key, body: {} });
    expect(soon.status).toBe(422);
    expect(soon.body.code).toBe(1100);
    t.clock.advance(11 * 60_000);
    const later = await open<{ reminded: number }>(t, 'POST', `/flows/${flowId}/remind`, { key, body: {} });
    expect(later.status).toBe(200);
    expect(later.body.data.reminded).toBe(1);
  });

  test('downloads: the current PDF now; the signed PDF and the audit report once completed', async () => {
    const current = await open(t, 'GET', `/documents/${documentId}/pdf`, { key });
    expect(current.status).toBe(200);
    expect(current.headers['content-type']).toBe('application/pdf');
    expect(current.raw.subarray(0, 5).toString()).toBe('%PDF-');
    const early = await open(t, 'GET', `/flows/${flowId}/documents/${documentId}/signed-pdf`, { key });
    expect(early.status).toBe(422);

    const room = await openByLink(t, signer.agent, signer.phone);
    const signed = await sign(t, signer.agent, room, signer.phone, { personSealId: signer.sealId! });
    expect(signed.body.code).toBe(0);

    const done = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key });
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.steps[0].parties[0].status).toBe('signed');
    const signedPdf = await open(t, 'GET', `/flows/${flowId}/documents/${documentId}/signed-pdf`, { key });
    expect(signedPdf.status).toBe(200);
    expect(signedPdf.raw.length).toBeGreaterThan(current.raw.length);
    expect(signedPdf.raw.includes(Buffer.from('/ByteRange'))).toBe(true);
    const report = await open(t, 'GET', `/flows/${flowId}/audit-report`, { key });
    expect(report.status).toBe(200);
    expect(report.raw.subarray(0, 5).toString()).toBe('%PDF-');
    // A key without documents:read may not download.
    const narrow = (await makeKey(launcher.agent, ['flows:read'])).secret;
    expect((await open(t, 'GET', `/flows/${flowId}/audit-report`, { key: narrow })).status).toBe(403);
  });
});

describe('a flow from a template', () => {
  let templateId: string;

  beforeAll(async () => {
    const up = ok(await uploadPdf(launcher.agent, await templateSourcePdf()), 'upload template pdf');
    templateId = ok(
      await launcher.agent.call<Template>(saveTemplate, {
        userType: 0,
        documentId: up.documentId,
        name: '租赁模板',
        roles: [{ key: 'partyB', name: '乙方', kind: 'person', applies: {}, stepIndex: 0 }],
        fields: [
          {
            key: 'buyer',
            label: '乙方姓名',
            type: 'text',
            isRequired: true,
            filler: 'partyB',
            page: 1,
            rect: [130, 692, 400, 712],
          },
        ],
        positions: [{ roleKey: 'partyB', page: 1, rect: [330, 130, 450, 190] }],
      }),
      'save template',
    ).templateId;
  }, 60_000);

  test('templates are listed and read with templates:read', async () => {
    const list = await open<{ list: { templateId: string }[] }>(t, 'GET', '/templates', { key });
    expect(list.body.data.list.map((x) => x.templateId)).toEqual([templateId]);
    const one = await open<Template>(t, 'GET', `/templates/${templateId}`, { key });
    expect(one.body.data.roles.map((r) => r.key)).toEqual(['partyB']);
    expect((await open(t, 'GET', `/templates/${templateId}`, { key: otherKey })).status).toBe(404);
  });

  test('launch from the template, seen by the workspace; a missing field value is the template’s refusal', async () => {
    const body = {
      from: 'template',
      templateId,
      title: '租赁合同 API',
      values: { buyer: '李四' },
      assignments: [{ roleKey: 'partyB', kind: 'person', name: signer.name, phone: signer.phone }],
    };
    const missing = await open(t, 'POST', '/flows', { key, body: { ...body, values: {} } });
    expect(missing.status).toBe(422);
    expect(missing.body.msg).toContain('乙方姓名');
    const res = await open<{ flowId: string }>(t, 'POST', '/flows', { key, body });
    expect(res.status).toBe(201);
    const detail = ok(
      await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId: res.body.data.flowId }),
      'detail',
    );
    expect(detail.title).toBe('租赁合同 API');
    expect(detail.steps[0].parties[0].name).toBe('李四');

    const cancelled = await open<FlowDetail>(t, 'POST', `/flows/${res.body.data.flowId}/cancel`, {
      key,
      body: { reason: 'wrong terms' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    const again = await open(t, 'POST', `/flows/${res.body.data.flowId}/cancel`, {
      key,
      body: { reason: 'x' },
    });
    expect(again.status).toBe(409);
    const spa = ok(
      await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId: res.body.data.flowId }),
      'detail',
    );
    expect(spa.status).toBe('cancelled');
    expect(spa.endReason).toBe('wrong terms');
  });
  test('a template launch takes each role’s intent check; without one the SMS code is asked', async () => {
    const launchWith = async (intent?: string) => {
      const res = await open<{ flowId: string }>(t, 'POST', '/flows', {
        key,
        body: {
          from: 'template',
          templateId,
          title: `intent ${intent ?? 'default'}`,
          values: { buyer: '李四' },
          assignments: [
            {
              roleKey: 'partyB',
              kind: 'person',
              name: signer.name,
              phone: signer.phone,
              ...(intent ? { intent } : {}),
            },
          ],
        },
      });
      expect(res.status).toBe(201);
      return ok(
        await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId: res.body.data.flowId }),
        'detail',
      );
    };
    expect((await launchWith('password')).steps[0].parties[0].intent).toBe('password');
    expect((await launchWith()).steps[0].parties[0].intent).toBe('sms');
    const wrong = await open(t, 'POST', '/flows', {
      key,
      body: {
        from: 'template',
        templateId,
        title: 'x',
        values: { buyer: '李四' },
        assignments: [
          { roleKey: 'partyB', kind: 'person', name: signer.name, phone: signer.phone, intent: 'fax' },
        ],
      },
    });
    expect(wrong.status).toBe(400);
  });
});
