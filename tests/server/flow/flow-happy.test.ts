// A contract from upload to completion through HTTP: a company (operator, contract seal) then a person
// (link login, own seal), each signature one incremental update; the result passes pdfsig with only the
// platform root trusted, qpdf --check and the platform verifier; the audit trail is intact.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { AUDIT_REPORT_PATH, SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import {
  type FlowDetail,
  getAuditTrail,
  getFlowDetail,
  getQuota,
  getSigningRoom,
  launchFlow,
} from '#contract/calls/flow.ts';
import { getVerificationInfo } from '#contract/calls/document.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { appForFile } from '../helper.ts';
import {
  hasTool,
  nssDb,
  run,
  signaturesOf,
  verifyDocumentTimestamp,
  verifySignatureTimestamp,
} from '../fixtures/pdf-signing.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  getBytes,
  ok,
  pendingRoom,
  personWithCert,
  sign,
  signByLink,
  uploadPdf,
} from '../fixtures/flow.ts';

const TOOLS = ['pdfsig', 'qpdf', 'certutil'];
const withTools = TOOLS.every(hasTool) ? test : test.skip;

const t = appForFile();
let company: TestCompany;
let buyer: Signer;
let flowId: string;
let documentId: string;
const versions: Uint8Array[] = [];
let dir: string;

const isPrefix = (a: Uint8Array, b: Uint8Array) =>
  b.length > a.length && Buffer.from(b.subarray(0, a.length)).equals(Buffer.from(a));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-happy-'));
  company = await companyWithSeals(t);
  buyer = await personWithCert(t, '李四');
}, 120_000);

describe('launch -> company seals -> person signs -> completed', () => {
  test('the company launches a two-step contract', async () => {
    const up = ok(await uploadPdf(company.admin.agent, await contractPdf(3), 1), 'upload');
    expect(up.pages).toBe(3);
    expect(up.pageSizes[0].widthPt).toBeCloseTo(595.28, 1);
    documentId = up.documentId;
    const res = await company.admin.agent.call<{ flowId: string; verificationCodes: string[] }>(launchFlow, {
      userType: 1,
      title: '采购合同 Purchase contract',
      documentIds: [documentId],
      message: 'please sign',
      steps: [
        {
          parties: [
            {
              kind: 'company',
              companyId: company.id,
              operatorPhone: company.operator.phone,
              applies: { companySealType: 102, date: true },
              positions: [{ documentId, keyword: 'Party A (seal):' }],
            },
          ],
        },
        {
          parties: [
            {
              kind: 'person',
              name: '李四',
              phone: buyer.phone,
              positions: [{ documentId, page: 3, mm: { left: 120, top: 220, width: 36, height: 18 } }],
            },
          ],
        },
      ],
    });
    expect(res.body.code, res.body.msg).toBe(0);
    flowId = res.body.data.flowId;
    expect(res.body.data.verificationCodes[0]).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const quota = ok(
      await company.admin.agent.call<{ reserved: number }>(getQuota, { userType: 1 }),
      'quota',
    );
    expect(quota.reserved).toBe(1);
  }, 60_000);

  test('the operator finds it pending, opens the room by session and seals; the file grows by a prefix', async () => {
    const op = company.operator.agent;
    const room = await pendingRoom(op, flowId);
    const view = ok(
      await op.call<{ canSign: boolean; seals: { sealId: string }[] }>(getSigningRoom, {
        userType: 1,
        roomToken: room.roomToken,
      }),
      'room view',
    );
    expect(view.canSign).toBe(true);
    expect(view.seals.map((s) => s.sealId)).toEqual([company.contractSealId]);
    const before = (
      await getBytes(op, `/v1/account/api/csign/downloadDocument/${documentId}?roomToken=${room.roomToken}`)
    ).bytes;
    versions.push(before);
    const signed = await sign(t, op, room, company.operator.phone, { companySealId: company.contractSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const after = (
      await getBytes(op, `/v1/account/api/csign/downloadDocument/${documentId}?roomToken=${room.roomToken}`)
    ).bytes;
    expect(isPrefix(before, after)).toBe(true);
    versions.push(after);
  }, 60_000);

  test('the person opens the link (phone + SMS code) and signs with their seal; the flow completes', async () => {
    const signed = await signByLink(t, t.agent(), buyer);
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    const detail = ok(
      await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    expect(detail.status).toBe('completed');
    const final = await getBytes(company.admin.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(final.status).toBe(200);
    versions.push(final.bytes);
    for (let i = 1; i < versions.length; i++) expect(isPrefix(versions[i - 1], versions[i])).toBe(true);
    const quota = ok(
      await company.admin.agent.call<{ reserved: number; used: number }>(getQuota, { userType: 1 }),
      'quota',
    );
    expect(quota).toMatchObject({ reserved: 0, used: 1 });
  }, 60_000);

  withTools(
    'pdfsig: every signature valid and trusted with only the platform root; qpdf clean',
    async () => {
      const file = join(dir, 'signed.pdf');
      writeFileSync(file, versions[versions.length - 1]);
      const pki = await pkiFor(t.deps);
      const db = nssDb(dir, pki.rootPem);
      const out = run('pdfsig', ['-nssdir', db, '-no-ocsp', file]).out;
      writeFileSync(join(dir, 'pdfsig.txt'), out);
      const valid = out.match(/Signature is Valid/g) ?? [];
      const trusted = out.match(/Certificate is Trusted/g) ?? [];
      // Two parties; poppler does not validate the document time-stamp (the platform verifier above does).
      expect(valid.length, out).toBe(2);
      expect(trusted.length, out).toBe(2);
      expect(out).not.toMatch(/Signature is Invalid|Not Trusted|Unknown issuer/i);
      const q = run('qpdf', ['--check', file]);
      expect(q.status, q.out).toBe(0);
    },
    60_000,
  );

  withTools(
    'openssl: each signature time-stamp and the document time-stamp verify to the platform root',
    async () => {
      const pki = await pkiFor(t.deps);
      const final = versions[versions.length - 1];
      const root = join(dir, 'root-ts.pem');
      writeFileSync(root, pki.rootPem);
      const issuing = join(dir, 'issuing-ts.pem');
      writeFileSync(issuing, run('openssl', ['x509', '-inform', 'DER'], pki.issuingDer).out);
      const sigs = signaturesOf(final);
      expect(sigs).toHaveLength(3);
      for (const [i, s] of sigs.slice(0, 2).entries())
        expect(verifySignatureTimestamp(dir, `party${i}`, s.cms, root, issuing)).toContain(
          'Verification: OK',
        );
      expect(verifyDocumentTimestamp(dir, final, sigs[2], root, issuing)).toContain('Verification: OK');
    },
    60_000,
  );

  test('the platform verifier passes the result', async () => {
    const pki = await pkiFor(t.deps);
    const report = await verifyPdf(versions[versions.length - 1], {
      trustAnchors: [pki.ca.root.der],
      now: t.clock.now(),
    });
    expect(
      report.verdict,
      JSON.stringify(report.signatures.map((s) => [s.indication, s.subIndication])),
    ).toBe('TOTAL_PASSED');
    expect(report.signatures).toHaveLength(3);
  });

  test('audit trail intact; report downloadable; verification info public', async () => {
    const trail = ok(
      await company.admin.agent.call<{ entries: { event: string }[]; chains: { isIntact: boolean }[] }>(
        getAuditTrail,
        { userType: 1, flowId },
      ),
      'trail',
    );
    expect(trail.chains.every((c) => c.isIntact)).toBe(true);
    const events = trail.entries.map((e) => e.event);
    for (const e of ['launch', 'view', 'sms_sent', 'sign', 'complete', 'download'])
      expect(events).toContain(e);
    const report = await getBytes(company.admin.agent, `${AUDIT_REPORT_PATH}/${flowId}`);
    expect(report.status).toBe(200);
    expect(Buffer.from(report.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    writeFileSync(join(dir, 'report.pdf'), report.bytes);
    const detail = ok(
      await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    const info = ok(
      await t.agent().call<{ signatures: unknown[]; isAuditChainIntact: boolean }>(getVerificationInfo, {
        userType: 0,
        code: detail.documents[0].verificationCode,
      }),
      'verify info',
    );
    expect(info.signatures).toHaveLength(2);
    expect(info.isAuditChainIntact).toBe(true);
    console.log('flow-happy files in', dir);
  }, 60_000);
});
