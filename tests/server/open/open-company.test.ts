// A company's API key: made by its administrator, it acts as the company (flows launched through it are
// the company's, seen by its operator in the workspace), and it stops working when its creator hands the
// administrator role to someone else.
import { beforeAll, describe, expect, test } from 'vitest';
import { getCompanyMemberList, transferCompanyAdmin } from '#contract/calls/company.ts';
import { type FlowDetail, getFlowDetail } from '#contract/calls/flow.ts';
import { appForFile } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  ok,
  personWithCert,
} from '../fixtures/flow.ts';
import { makeKey, open, openLaunchForOne } from '../fixtures/open.ts';

const t = appForFile();
let company: TestCompany;
let signer: Signer;
let key: string;

beforeAll(async () => {
  company = await companyWithSeals(t);
  signer = await personWithCert(t, '李四', { seal: false });
  key = (await makeKey(company.admin.agent, ['flows:read', 'flows:write'], 1)).secret;
}, 120_000);

describe('a company key', () => {
  let flowId: string;

  test('launches as the company: the operator sees the flow in the workspace', async () => {
    const res = await openLaunchForOne(
      t,
      key,
      await contractPdf(1),
      signer,
      { keyword: 'Party B (signature):' },
      '公司合同 API',
    );
    expect(res.status).toBe(201);
    flowId = res.body.data.flowId;
    const seen = ok(
      await company.operator.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'operator detail',
    );
    expect(seen.initiatorCompanyName).toBe(company.name);
    expect(seen.mine.isInitiator).toBe(true);
  });

  test('stops when its creator is no longer the administrator: 401', async () => {
    expect((await open(t, 'GET', `/flows/${flowId}`, { key })).status).toBe(200);
    const members = ok(
      await company.admin.agent.call<{ list: { memberId: string; userId: string }[] }>(getCompanyMemberList, {
        userType: 1,
      }),
      'members',
    );
    const op = members.list.find((m) => m.userId === company.operator.userId)!;
    ok(
      await company.admin.agent.call(transferCompanyAdmin, { userType: 1, memberId: op.memberId }),
      'transfer',
    );
    const res = await open(t, 'GET', `/flows/${flowId}`, { key });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2101);
    expect(res.body.msg).toContain('no longer');
  });
});
