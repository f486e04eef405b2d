// Templates, signing configurations and launching a contract from a template, through HTTP: the company's
// operator makes a configuration and a template, fills it for a person, and both parties sign; values are
// checked by type, written into the PDF (CJK text extractable by pdftotext, a drawn tick), scoped to the
// account, and the signatures of the template-launched flow verify.
import { beforeAll, describe, expect, test } from 'vitest';
import { AUDIT_REPORT_PATH, SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { type FlowDetail, getFlowDetail } from '#contract/calls/flow.ts';
import {
  type SignConfig,
  deleteSignConfig,
  getSignConfig,
  listSignConfigs,
  saveSignConfig,
} from '#contract/calls/sign-config.ts';
import {
  TEMPLATE_DOWNLOAD_PATH,
  type Template,
  type TemplateDraft,
  deleteTemplate,
  getTemplate,
  getTemplateDraft,
  launchTemplateFlow,
  listTemplates,
  prepareTemplateLaunch,
  saveTemplate,
} from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '#server/db/database.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  getBytes,
  ok,
  pendingRoom,
  personWithCert,
  sign,
  signByLink,
  uploadPdf,
} from '../fixtures/flow.ts';
import { appForFile } from '../helper.ts';
import {
  CONFIG_STEPS,
  FIELDS,
  FIELD_RECTS,
  POSITIONS,
  darkPixels,
  pdfText,
  templateSourcePdf,
} from '../fixtures/template.ts';
import { CYCLIC_CASES } from '../fixtures/cyclic-pdfs.ts';

const t = appForFile();
let company: TestCompany;
let other: TestCompany;
let buyer: Signer;
let config: SignConfig;
let template: Template;
let draft: TemplateDraft;
let flowId: string;

beforeAll(async () => {
  company = await companyWithSeals(t);
  other = await companyWithSeals(t, '钱管理');
  buyer = await personWithCert(t, '李四');
}, 180_000);

const VALUES = { buyer: '张三丰', amount: '12345.67', signedOn: '2025-03-01', agreed: true };
const assignments = () => [
  {
    roleKey: 'partyA',
    kind: 'company',
    companyId: company.id,
    operatorPhone: company.operator.phone,
    operatorName: '赵经办',
  },
  { roleKey: 'partyB', kind: 'person', name: '李四', phone: buyer.phone },
];

describe('signing configurations', () => {
  test('the operator saves a two-step configuration; the administrator of the company sees it', async () => {
    const op = company.operator.agent;
    config = ok(
      await op.call<SignConfig>(saveSignConfig, {
        userType: 1,
        name: '标准买卖 Standard sale',
        steps: CONFIG_STEPS,
      }),
      'save config',
    );
    expect(config.steps.map((s) => s.parties.map((p) => p.name))).toEqual([['甲方'], ['乙方']]);
    // A person role always signs with a person signature.
    expect(config.steps[1].parties[0].applies.personSignature).toBe(true);
    const listed = ok(
      await company.admin.agent.call<{ total: number; list: SignConfig[] }>(listSignConfigs, {
        userType: 1,
        keyword: 'standard',
      }),
      'list',
    );
    expect(listed.list.map((c) => c.configId)).toEqual([config.configId]);
  });

  test('a company role applying nothing and a duplicate role key are refused', async () => {
    const op = company.operator.agent;
    const empty = await op.call(saveSignConfig, {
      userType: 1,
      name: 'x',
      steps: [{ parties: [{ key: 'a', name: '甲方', kind: 'company', applies: {} }] }],
    });
    expect(empty.body.code).toBe(Code.Refused);
    expect(empty.body.msg).toContain('甲方');
    const twice = await op.call(saveSignConfig, {
      userType: 1,
      name: 'x',
      steps: [CONFIG_STEPS[1], { parties: [{ ...CONFIG_STEPS[1].parties[0], name: '丙方' }] }],
    });
    expect(twice.body.code).toBe(Code.Refused);
  });

  test('another company cannot read, change or delete the configuration', async () => {
    const them = other.admin.agent;
    expect((await them.call(getSignConfig, { userType: 1, configId: config.configId })).body.code).toBe(
      Code.NotFound,
    );
    const change = await them.call(saveSignConfig, {
      userType: 1,
      configId: config.configId,
      name: 'stolen',
      steps: CONFIG_STEPS,
    });
    expect(change.body.code).toBe(Code.NotFound);
    expect((await them.call(deleteSignConfig, { userType: 1, configId: config.configId })).body.code).toBe(
      Code.NotFound,
    );
    const mine = ok(
      await company.operator.agent.call<SignConfig>(getSignConfig, {
        userType: 1,
        configId: config.configId,
      }),
      'get',
    );
    expect(mine.name).toBe('标准买卖 Standard sale');
  });
});

describe('templates', () => {
  test('a template made from an upload takes its roles from the configuration', async () => {
    const op = company.operator.agent;
    const up = ok(await uploadPdf(op, await templateSourcePdf(), 1, 'sale.pdf'), 'upload');
    template = ok(
      await op.call<Template>(saveTemplate, {
        userType: 1,
        documentId: up.documentId,
        name: '买卖合同模板',
        signConfigId: config.configId,
        // Ignored: the configuration's roles win.
        roles: [{ key: 'zzz', name: '丁方', kind: 'person', applies: {}, stepIndex: 0 }],
        fields: FIELDS,
        positions: POSITIONS,
      }),
      'save template',
    );
    expect(template.roles.map((r) => [r.key, r.name, r.kind, r.stepIndex])).toEqual([
      ['partyA', '甲方', 'company', 0],
      ['partyB', '乙方', 'person', 1],
    ]);
    expect(template.signConfigName).toBe('标准买卖 Standard sale');
    expect(template.fields.find((f) => f.key === 'address')?.defaultValue).toBe('上海市浦东新区');
    const pdf = await getBytes(op, template.downloadUrl);
    expect(pdf.status).toBe(200);
    expect(pdfText(pdf.bytes)).toContain('Sales contract');
  });

  test('a field off its page, a position of an unknown role and a default of the wrong type are refused', async () => {
    const op = company.operator.agent;
    const base = {
      userType: 1,
      templateId: template.templateId,
      name: 'x',
      signConfigId: config.configId,
      positions: POSITIONS,
    };
    const offPage = await op.call(saveTemplate, {
      ...base,
      fields: [{ ...FIELDS[0], rect: [500, 700, 700, 720] }],
    });
    expect(offPage.body.code).toBe(Code.Refused);
    expect(offPage.body.msg).toContain('乙方姓名');
    const secondPage = await op.call(saveTemplate, { ...base, fields: [{ ...FIELDS[0], page: 2 }] });
    expect(secondPage.body.code).toBe(Code.Refused);
    const unknownRole = await op.call(saveTemplate, {
      ...base,
      fields: [],
      positions: [...POSITIONS, { roleKey: 'nobody', page: 1, rect: [10, 10, 60, 60] }],
    });
    expect(unknownRole.body.code).toBe(Code.Refused);
    const badDefault = await op.call(saveTemplate, {
      ...base,
      fields: [{ ...FIELDS[2], defaultValue: 'twelve' }],
    });
    expect(badDefault.body.code).toBe(Code.Refused);
    expect(badDefault.body.msg).toContain('合同金额');
    // Nothing of the refused saves stuck.
    const now = ok(
      await op.call<Template>(getTemplate, { userType: 1, templateId: template.templateId }),
      'get',
    );
    expect(now.name).toBe('买卖合同模板');
    expect(now.fields).toHaveLength(FIELDS.length);
  });

  test('the company administrator lists it; another company and the personal account of the operator do not', async () => {
    const listed = ok(
      await company.admin.agent.call<{ total: number; list: { templateId: string; roleNames: string[] }[] }>(
        listTemplates,
        { userType: 1, keyword: '买卖' },
      ),
      'list',
    );
    expect(listed.list.map((x) => x.templateId)).toEqual([template.templateId]);
    expect(listed.list[0].roleNames).toEqual(['甲方', '乙方']);
    const them = other.admin.agent;
    expect((await them.call(getTemplate, { userType: 1, templateId: template.templateId })).body.code).toBe(
      Code.NotFound,
    );
    expect(ok(await them.call<{ total: number }>(listTemplates, { userType: 1 }), 'their list').total).toBe(
      0,
    );
    const pdf = await getBytes(them, `${TEMPLATE_DOWNLOAD_PATH}/${template.templateId}`);
    // Errors keep the {code, msg, data} envelope, as for every call.
    expect(pdf.type).not.toContain('pdf');
    expect(JSON.parse(Buffer.from(pdf.bytes).toString('utf8')).code).toBe(Code.NotFound);
    const fill = await them.call(prepareTemplateLaunch, {
      userType: 1,
      templateId: template.templateId,
      title: 'x',
      values: VALUES,
      assignments: assignments(),
    });
    expect(fill.body.code).toBe(Code.NotFound);
    const personal = await buyer.agent.call(getTemplate, { userType: 0, templateId: template.templateId });
    expect(personal.body.code).toBe(Code.NotFound);
  });
});

describe('filling a template', () => {
  const prepare = (values: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    company.operator.agent.call<TemplateDraft>(prepareTemplateLaunch, {
      userType: 1,
      templateId: template.templateId,
      title: '买卖合同 张三丰',
      values,
      assignments: assignments(),
      ...extra,
    });

  test('a number field refuses text, a date field an impossible date, a required field its absence', async () => {
    const text = await prepare({ ...VALUES, amount: '12,5 元' });
    expect(text.body.code).toBe(Code.Refused);
    expect(text.body.msg).toContain('合同金额');
    const date = await prepare({ ...VALUES, signedOn: '2025-02-30' });
    expect(date.body.code).toBe(Code.Refused);
    expect(date.body.msg).toContain('签订日期');
    const missing = await prepare({ ...VALUES, buyer: '   ' });
    expect(missing.body.code).toBe(Code.Refused);
    expect(missing.body.msg).toContain('乙方姓名');
    const unknown = await prepare({ ...VALUES, price: '1' });
    expect(unknown.body.code).toBe(Code.Refused);
    const tickAsText = await prepare({ ...VALUES, buyer: true });
    expect(tickAsText.body.code).toBe(Code.Refused);
  });

  test('a role given the wrong kind of party, or left without one, is refused', async () => {
    const wrongKind = await prepare(VALUES, {
      assignments: [
        { roleKey: 'partyA', kind: 'person', name: '某人', phone: buyer.phone },
        assignments()[1],
      ],
    });
    expect(wrongKind.body.code).toBe(Code.Refused);
    expect(wrongKind.body.msg).toContain('甲方');
    const missing = await prepare(VALUES, { assignments: [assignments()[1]] });
    expect(missing.body.code).toBe(Code.Refused);
    const unknownCompany = await prepare(VALUES, {
      assignments: [
        { ...assignments()[0], companyId: undefined, companyName: '不存在的公司' },
        assignments()[1],
      ],
    });
    expect(unknownCompany.body.code).toBe(Code.Refused);
  });

  test('a template whose PDF the fill cannot rewrite safely (a reference cycle) is refused, named, not a 500', async () => {
    const op = company.operator.agent;
    const cyclic = CYCLIC_CASES.find((c) => c.name === 'page /Resources is the page itself')!;
    const up = ok(await uploadPdf(op, cyclic.bytes(), 1, 'cycle.pdf'), 'upload');
    const broken = ok(
      await op.call<Template>(saveTemplate, {
        userType: 1,
        documentId: up.documentId,
        name: '循环模板',
        signConfigId: config.configId,
        fields: FIELDS,
        positions: POSITIONS,
      }),
      'save template',
    );
    const fill = await op.call(prepareTemplateLaunch, {
      userType: 1,
      templateId: broken.templateId,
      title: '循环',
      values: VALUES,
      assignments: assignments(),
    });
    expect(fill.status).toBe(200);
    expect(fill.body.code).toBe(Code.DocumentRejected);
    expect(fill.body.msg).toMatch(/damaged|损坏/);
    ok(await op.call(deleteTemplate, { userType: 1, templateId: broken.templateId }), 'delete');
  });

  test('the values are written into the PDF: CJK text extractable, the default, the number, the date, a tick', async () => {
    const first = ok(await prepare({ ...VALUES, agreed: false }), 'prepare');
    const unticked = (await getBytes(company.operator.agent, first.document.downloadUrl)).bytes;
    expect(darkPixels(unticked, FIELD_RECTS.agreed, 841.89)).toBe(0);
    // Re-filling the draft (home/tempTemplateDetail) replaces its document.
    draft = ok(await prepare(VALUES, { draftId: first.draftId }), 're-prepare');
    expect(draft.draftId).toBe(first.draftId);
    expect(draft.document.documentId).not.toBe(first.document.documentId);
    expect(draft.values).toMatchObject({ ...VALUES, address: '上海市浦东新区' });
    const bytes = (await getBytes(company.operator.agent, draft.document.downloadUrl)).bytes;
    const text = pdfText(bytes);
    expect(text).toContain('张三丰');
    expect(text).toContain('上海市浦东新区');
    expect(text).toContain('12345.67');
    expect(text).toContain('2025-03-01');
    expect(darkPixels(bytes, FIELD_RECTS.agreed, 841.89)).toBeGreaterThan(10);
    const again = ok(
      await company.operator.agent.call<TemplateDraft>(getTemplateDraft, {
        userType: 1,
        draftId: draft.draftId,
      }),
      'draft',
    );
    expect(again.assignments.map((a) => a.roleKey)).toEqual(['partyA', 'partyB']);
    expect(
      (await other.admin.agent.call(getTemplateDraft, { userType: 1, draftId: draft.draftId })).body.code,
    ).toBe(Code.NotFound);
  }, 60_000);
});

describe('a contract launched from the template', () => {
  test('launches with the template steps and positions, and only once', async () => {
    const res = ok(
      await company.operator.agent.call<{ flowId: string; verificationCodes: string[] }>(launchTemplateFlow, {
        userType: 1,
        draftId: draft.draftId,
        message: '请签署',
      }),
      'launch',
    );
    flowId = res.flowId;
    const detail = ok(
      await company.operator.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    expect(detail.title).toBe('买卖合同 张三丰');
    expect(detail.steps.map((s) => s.parties.map((p) => p.kind))).toEqual([['company'], ['person']]);
    expect(detail.steps[0].parties[0].applies).toMatchObject({ companySealType: 102, date: true });
    expect(detail.steps[1].parties[0].positions[0].rect).toEqual(POSITIONS[1].rect);
    const bytes = (await getBytes(company.operator.agent, detail.documents[0].downloadUrl)).bytes;
    const text = pdfText(bytes);
    // Values and the verification footer are both there before the first signature.
    expect(text).toContain('张三丰');
    expect(text).toContain(res.verificationCodes[0]);
    const twice = await company.operator.agent.call(launchTemplateFlow, {
      userType: 1,
      draftId: draft.draftId,
    });
    expect(twice.body.code).toBe(Code.Refused);
    const after = ok(
      await company.operator.agent.call<TemplateDraft>(getTemplateDraft, {
        userType: 1,
        draftId: draft.draftId,
      }),
      'draft',
    );
    expect(after.flowId).toBe(flowId);
  }, 60_000);

  test('the company seals, the person signs by link; the signed PDF verifies and keeps the values', async () => {
    const op = company.operator.agent;
    const room = await pendingRoom(op, flowId);
    const sealed = await sign(t, op, room, company.operator.phone, { companySealId: company.contractSealId });
    expect(sealed.body.code, sealed.body.msg).toBe(0);
    const signed = await signByLink(t, buyer.agent, buyer);
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    const detail = ok(await op.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }), 'detail');
    const documentId = detail.documents[0].documentId;
    const pdf = await getBytes(op, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(pdf.status).toBe(200);
    const pki = await pkiFor(t.deps);
    const report = await verifyPdf(pdf.bytes, { trustAnchors: [pki.ca.root.der], now: t.clock.now() });
    expect(
      report.verdict,
      JSON.stringify(report.signatures.map((s) => [s.indication, s.subIndication])),
    ).toBe('TOTAL_PASSED');
    expect(report.signatures.length).toBeGreaterThanOrEqual(2);
    expect(pdfText(pdf.bytes)).toContain('张三丰');
    const audit = await getBytes(op, `${AUDIT_REPORT_PATH}/${flowId}`);
    expect(audit.status).toBe(200);
    expect(audit.type).toContain('pdf');
  }, 120_000);
});

describe('deleting', () => {
  test('a configuration counts the live templates that use it (the template module tells sign-config)', async () => {
    const op = company.operator.agent;
    const one = ok(
      await op.call<SignConfig>(getSignConfig, { userType: 1, configId: config.configId }),
      'get',
    );
    expect(one.templateCount).toBe(1);
    const listed = ok(await op.call<{ list: SignConfig[] }>(listSignConfigs, { userType: 1 }), 'list');
    expect(listed.list.find((c) => c.configId === config.configId)?.templateCount).toBe(1);
    // Both name their creator (the operator), told by the session module.
    const [creator] = await queryRows<{ name: string | null }>(
      t.db,
      sql`SELECT name FROM users WHERE phone = ${company.operator.phone}`,
    );
    expect(creator?.name).toBeTruthy();
    expect(one.createdByName).toBe(creator?.name);
    const tpl = ok(
      await op.call<Template>(getTemplate, { userType: 1, templateId: template.templateId }),
      'tpl',
    );
    expect(tpl.createdByName).toBe(creator?.name);
    expect(tpl.signConfigName).toBe('标准买卖 Standard sale');
  });

  test('a deleted template is gone from the list and cannot be filled; its contract stays', async () => {
    const op = company.operator.agent;
    expect(
      (await other.admin.agent.call(deleteTemplate, { userType: 1, templateId: template.templateId })).body
        .code,
    ).toBe(Code.NotFound);
    ok(await op.call(deleteTemplate, { userType: 1, templateId: template.templateId }), 'delete');
    expect(ok(await op.call<{ total: number }>(listTemplates, { userType: 1 }), 'list').total).toBe(0);
    expect((await op.call(getTemplate, { userType: 1, templateId: template.templateId })).body.code).toBe(
      Code.NotFound,
    );
    const detail = ok(await op.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }), 'flow');
    expect(detail.status).toBe('completed');
    ok(await op.call(deleteSignConfig, { userType: 1, configId: config.configId }), 'delete config');
    expect(ok(await op.call<{ total: number }>(listSignConfigs, { userType: 1 }), 'configs').total).toBe(0);
  });

  test('a person keeps templates of their own, apart from their companies', async () => {
    const up = ok(await uploadPdf(buyer.agent, await templateSourcePdf(), 0, 'mine.pdf'), 'upload');
    const mine = ok(
      await buyer.agent.call<Template>(saveTemplate, {
        userType: 0,
        documentId: up.documentId,
        name: '个人借条',
        roles: [{ key: 'lender', name: '出借人', kind: 'person', applies: {}, stepIndex: 0 }],
        positions: [{ roleKey: 'lender', page: 1, rect: [330, 130, 450, 190] }],
      }),
      'person template',
    );
    expect(ok(await buyer.agent.call<{ total: number }>(listTemplates, { userType: 0 }), 'list').total).toBe(
      1,
    );
    expect(
      (await company.admin.agent.call(getTemplate, { userType: 1, templateId: mine.templateId })).body.code,
    ).toBe(Code.NotFound);
    // The upload became the template: it cannot be made into a second one.
    const again = await buyer.agent.call(saveTemplate, {
      userType: 0,
      documentId: up.documentId,
      name: 'again',
    });
    expect(again.body.code).toBe(Code.NotFound);
  });
});
