// Fields the signer fills (issue 28) through the HTTP layer: a launch places fields of every kind (one by
// keyword) as empty AcroForm fields; the room lists them; saveRoomFields refuses each bad value with the rule's
// own message (the server checks as the client does); attachments are judged by their bytes; signDocument
// refuses while a required field is empty, then writes the values with the signature; the PDF shows them, and
// after the next party signs pdfsig and the platform verifier pass every signature; the flow detail returns the
// values; another account's field ids are 1101.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  FIELD_ATTACHMENT_PATH,
  type FlowField,
  removeRoomAttachment,
  saveRoomFields,
  uploadRoomAttachment,
} from '#contract/calls/fields.ts';
import { DOCUMENT_DOWNLOAD_PATH, SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import {
  type FlowDetail,
  type RoomLogin,
  type SigningRoom,
  getAuditTrail,
  getFlowDetail,
  getSigningRoom,
  type LaunchedItem,
  launchFlow,
  listLaunchedFlows,
  signDocument,
} from '#contract/calls/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { Code } from '#contract/codes.ts';
import { BULK_SHEET_PATH } from '#contract/calls/bulk.ts';
import * as XLSX from 'xlsx';
import {
  type BatchSignable,
  type SignBatch,
  getSignBatch,
  listBatchSignable,
  prepareSignBatch,
  startSignBatch,
} from '#contract/calls/batch.ts';
import {
  type Template,
  type TemplateDraft,
  launchTemplateFlow,
  prepareTemplateLaunch,
  saveTemplate,
} from '#contract/calls/template.ts';
import { callPath } from '#contract/envelope.ts';
import { checkFieldValue } from '#contract/rules/fields.ts';
import { openPdf } from '#server/pdf/pdfjs.ts';
import { appForFile } from '../helper.ts';
import { encryptedPdf, hasTool, pdfsigReport, run } from '../fixtures/pdf-signing.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  expectAllPassed,
  getBytes,
  ok,
  openByLink,
  pendingRoom,
  personWithCert,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';

const t = appForFile({ SMS_MAX_PER_PHONE_HOUR: '100', SMS_RESEND_SECONDS: '0' });
const EN = { headers: { 'accept-language': 'en-US' } };
const withQpdf = hasTool('qpdf') ? test : test.skip;
const withPdfsig = hasTool('pdfsig') ? test : test.skip;

let company: TestCompany;
let buyer: Signer;
let stranger: Signer;
let flowId: string;
let documentId: string;
let room: RoomLogin;
let fields: FlowField[];
let dir: string;
const VALID_ID = '11010519491231002X';
const scanPng = pngBytes();

const mm = (page: number, top: number, width = 60, height = 8) => ({
  documentId,
  page,
  mm: { left: 20, top, width, height },
});

/** The buyer's fields: every kind; the ID number placed by a keyword (default 50 x 8 mm). */
const buyerFields = () => [
  { key: 'fullName', label: '姓名', kind: 'text', position: mm(1, 20) },
  { key: 'notes', label: 'Notes', kind: 'multiline', isRequired: false, position: mm(1, 32, 120, 24) },
  { key: 'amount', label: 'Amount', kind: 'number', position: mm(1, 60) },
  { key: 'start', label: 'Start date', kind: 'date', position: mm(1, 72) },
  { key: 'signedOn', label: 'Signed on', kind: 'signDate', position: mm(1, 84) },
  { key: 'agree', label: 'I agree', kind: 'checkbox', position: mm(1, 96, 6, 6) },
  { key: 'plan', label: 'Plan', kind: 'radio', options: ['基础版', '专业版'], position: mm(1, 108) },
  {
    key: 'city',
    label: 'City',
    kind: 'select',
    options: ['北京', '上海'],
    isRequired: false,
    position: mm(1, 120),
  },
  {
    key: 'idNo',
    label: 'ID number',
    kind: 'idNumber',
    isRequired: false,
    position: { documentId, keyword: 'Party B (signature):' },
  },
  { key: 'tel', label: 'Phone', kind: 'phone', isRequired: false, position: mm(1, 132) },
  { key: 'scan', label: 'ID scan', kind: 'attachment', position: mm(1, 144) },
];

const launchBody = (buyerFieldsInput: unknown[], companyFields: unknown[] = []) => ({
  userType: 1,
  title: '字段合同 Fields contract',
  documentIds: [documentId],
  steps: [
    {
      parties: [
        {
          kind: 'person',
          name: '李四',
          phone: buyer.phone,
          positions: [{ documentId, page: 2, mm: { left: 120, top: 220, width: 36, height: 18 } }],
          fields: buyerFieldsInput,
        },
      ],
    },
    {
      parties: [
        {
          kind: 'company',
          companyId: company.id,
          operatorPhone: company.operator.phone,
          applies: { companySealType: 102 },
          positions: [{ documentId, keyword: 'Party A (seal):' }],
          fields: companyFields,
        },
      ],
    },
  ],
});

function pngBytes(): Uint8Array {
  const c = createCanvas(40, 30);
  const g = c.getContext('2d');
  g.fillStyle = '#3366cc';
  g.fillRect(0, 0, 40, 30);
  return new Uint8Array(c.toBuffer('image/png'));
}

const byKey = (key: string) => {
  const f = fields.find((x) => x.key === key);
  if (!f) throw new Error(`no field ${key}`);
  return f;
};

const save = (values: Record<string, unknown>, token = room.roomToken, agent = buyer.agent) =>
  agent.call<{ fields: FlowField[] }>(saveRoomFields, { userType: 0, roomToken: token, values }, EN);

const uploadAttachment = (fieldId: string, file?: { bytes: Uint8Array; filename: string }) =>
  buyer.agent.upload<FlowField>(
    callPath(uploadRoomAttachment),
    { userType: '0', roomToken: room.roomToken, fieldId },
    file && { ...file, type: 'image/png' },
    EN.headers,
  );

/** Text pdf.js extracts from page `n` once qpdf has flattened the widgets' appearances into the page. */
async function shownText(pdf: Uint8Array, n: number, label: string): Promise<string> {
  const src = join(dir, `${label}.pdf`);
  const out = join(dir, `${label}-flat.pdf`);
  writeFileSync(src, pdf);
  const r = run('qpdf', ['--flatten-annotations=all', src, out]);
  expect(r.status, r.out).not.toBe(2);
  const doc = await openPdf(new Uint8Array(readFileSync(out)));
  const text = await (await doc.getPage(n)).getTextContent();
  await doc.loadingTask.destroy();
  return text.items.map((i) => ('str' in i ? i.str : '')).join('');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'signer-fields-'));
  company = await companyWithSeals(t);
  buyer = await personWithCert(t, '李四');
  stranger = await personWithCert(t, '王五');
  documentId = ok(await uploadPdf(company.admin.agent, await contractPdf(2), 1), 'upload').documentId;
}, 180_000);

describe('fields the signer fills', () => {
  test('a launch refuses bad fields with 1100 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ key: 'p', label: 'Pick', kind: 'radio', position: mm(1, 20) }, /Pick.*two options/],
      [
        { key: 'p', label: 'Words', kind: 'text', options: ['a', 'b'], position: mm(1, 20) },
        /Words.*only a radio group or drop-down/,
      ],
      [
        { key: 'p', label: 'Lost', kind: 'text', position: { documentId, keyword: 'no such words' } },
        /Lost.*no such words/,
      ],
      [{ key: 'p', label: 'Far', kind: 'text', position: mm(9, 20) }, /Far.*page 9/],
    ];
    for (const [field, msg] of cases) {
      const res = await company.admin.agent.call(launchFlow, launchBody([field]), EN);
      expect(res.body.code, res.body.msg).toBe(Code.Refused);
      expect(res.body.msg).toMatch(msg);
    }
  }, 60_000);

  test('a launch with fields of every kind: empty AcroForm fields before any signature', async () => {
    const res = await company.admin.agent.call<{ flowId: string }>(
      launchFlow,
      launchBody(buyerFields(), [{ key: 'note', label: '经办备注', kind: 'text', position: mm(2, 40) }]),
    );
    flowId = ok(res, 'launch').flowId;
    const detail = ok(
      await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    expect(detail.fields.map((f) => f.key)).toEqual([...buyerFields().map((f) => f.key), 'note']);
    expect(detail.fields.every((f) => f.value === null && f.signedAt === null)).toBe(true);
    // The keyword field: centred on the words, 50 x 8 mm.
    const id = detail.fields.find((f) => f.key === 'idNo')!;
    expect(id.page).toBe(2);
    expect(id.rect[2] - id.rect[0]).toBeCloseTo((50 * 72) / 25.4, 0);
    expect(id.rect[3] - id.rect[1]).toBeCloseTo((8 * 72) / 25.4, 0);
    const launched = await getBytes(company.admin.agent, `${DOCUMENT_DOWNLOAD_PATH}/${documentId}`);
    const text = Buffer.from(launched.bytes).toString('latin1');
    expect(text).toContain('/AcroForm');
    // Field names as the engine writes them (hex strings).
    const named = (n: string) => `/T <${Buffer.from(n).toString('hex')}>`;
    expect(text).toContain(named('f_fullName_1'));
    expect(text).toContain(named('f_note_2'));
    expect(text).not.toContain('/ByteRange');
  }, 60_000);

  test('the room lists the party its own fields', async () => {
    room = await openByLink(t, buyer.agent, buyer.phone);
    const view = ok(
      await buyer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: room.roomToken }),
      'room',
    );
    fields = view.fields;
    expect(fields.map((f) => f.kind)).toEqual(buyerFields().map((f) => f.kind));
    expect(byKey('plan').options).toEqual(['基础版', '专业版']);
    expect(fields.some((f) => f.key === 'note')).toBe(false);
  }, 60_000);

  test('saveRoomFields refuses each bad value with the message the rule gives, and saves nothing', async () => {
    const bad: [string, unknown][] = [
      ['amount', 'twelve'],
      ['start', '2026-02-30'],
      ['plan', '高级版'],
      ['city', '广州'],
      ['tel', '12345'],
      ['idNo', '110105194912310021'],
      ['fullName', 'two\nlines'],
      ['fullName', 'x'.repeat(201)],
      ['signedOn', '2026-01-01'],
      ['agree', 'yes'],
      ['fullName', true],
    ];
    for (const [key, value] of bad) {
      const f = byKey(key);
      const rule = checkFieldValue({ kind: f.kind, isRequired: false, options: f.options }, value as string);
      expect(rule.ok, key).toBe(false);
      const res = await save({ [f.fieldId]: value });
      expect(res.body.code, `${key}: ${res.body.msg}`).toBe(Code.Refused);
      expect(res.body.msg).toContain(f.label);
      if (!rule.ok) expect(res.body.msg).toContain(rule.message);
    }
    // Chinese: the rule's Chinese message.
    const zh = await buyer.agent.call(
      saveRoomFields,
      { userType: 0, roomToken: room.roomToken, values: { [byKey('amount').fieldId]: 'x' } },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.msg).toContain('请输入数字');
    // One bad value among good ones: nothing saved.
    const mixed = await save({ [byKey('fullName').fieldId]: '张三', [byKey('amount').fieldId]: 'x' });
    expect(mixed.body.code).toBe(Code.Refused);
    const view = ok(
      await buyer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: room.roomToken }),
      'room',
    );
    expect(view.fields.find((f) => f.key === 'fullName')!.value).toBeNull();
  }, 60_000);

  test('attachments are judged by their bytes: a text file named .png, 11 MB and an empty file are refused', async () => {
    const scan = byKey('scan').fieldId;
    const txt = await uploadAttachment(scan, { bytes: Buffer.from('just some text'), filename: 'scan.png' });
    expect(txt.body.code).toBe(Code.Refused);
    expect(txt.body.msg).toMatch(/ID scan.*PNG or JPEG image or a PDF/);
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(pngBytes().subarray(0, 8));
    const large = await uploadAttachment(scan, { bytes: big, filename: 'big.png' });
    expect(large.body.code).toBe(Code.Refused);
    expect(large.body.msg).toMatch(/ID scan.*10 MB/);
    const empty = await uploadAttachment(scan, { bytes: new Uint8Array(), filename: 'empty.png' });
    expect(empty.body.code).toBe(Code.Refused);
    // Not an attachment field.
    const wrong = await uploadAttachment(byKey('fullName').fieldId, { bytes: pngBytes(), filename: 'a.png' });
    expect(wrong.body.code).toBe(Code.Refused);
    // A PNG: kept, then removed, then uploaded again (replacing).
    const first = ok(await uploadAttachment(scan, { bytes: pngBytes(), filename: 'first.png' }), 'upload');
    expect(first.attachment).toMatchObject({ name: 'first.png', mediaType: 'image/png' });
    const removed = ok(
      await buyer.agent.call<FlowField>(removeRoomAttachment, {
        userType: 0,
        roomToken: room.roomToken,
        fieldId: scan,
      }),
      'remove',
    );
    expect(removed.attachment).toBeNull();
    const png = scanPng;
    const again = ok(await uploadAttachment(scan, { bytes: png, filename: '身份证.png' }), 'upload');
    expect(again.attachment?.name).toBe('身份证.png');
    expect(again.attachment?.size).toBe(png.length);
    // The room downloads it with its token; the launcher with its session; a stranger gets 1101.
    const mine = await getBytes(buyer.agent, again.attachment!.downloadUrl);
    expect(mine.status).toBe(200);
    expect(Buffer.from(mine.bytes).equals(Buffer.from(png))).toBe(true);
    const launcher = await getBytes(company.admin.agent, `${FIELD_ATTACHMENT_PATH}/${scan}`);
    expect(launcher.status).toBe(200);
    const other = await stranger.agent.get(`${FIELD_ATTACHMENT_PATH}/${scan}`);
    expect(other.body.code).toBe(Code.NotFound);
  }, 60_000);

  test("another party's field ids are 1101, both ways", async () => {
    const doc2 = ok(await uploadPdf(company.admin.agent, await contractPdf(1), 1), 'upload 2').documentId;
    ok(
      await company.admin.agent.call(launchFlow, {
        userType: 1,
        title: 'other flow',
        documentIds: [doc2],
        steps: [
          {
            parties: [
              {
                kind: 'person',
                name: '王五',
                phone: stranger.phone,
                positions: [{ documentId: doc2, page: 1, mm: { left: 20, top: 200, width: 40, height: 20 } }],
                fields: [
                  {
                    key: 'x',
                    label: 'X',
                    kind: 'text',
                    position: { documentId: doc2, page: 1, mm: { left: 20, top: 20, width: 60, height: 8 } },
                  },
                ],
              },
            ],
          },
        ],
      }),
      'launch 2',
    );
    const otherRoom = await openByLink(t, stranger.agent, stranger.phone);
    const otherView = ok(
      await stranger.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: otherRoom.roomToken }),
      'room 2',
    );
    const theirs = await save({ [byKey('fullName').fieldId]: 'y' }, otherRoom.roomToken, stranger.agent);
    expect(theirs.body.code).toBe(Code.NotFound);
    const mine = await save({ [otherView.fields[0].fieldId]: 'y' });
    expect(mine.body.code).toBe(Code.NotFound);
    const upload = await stranger.agent.upload(
      callPath(uploadRoomAttachment),
      { userType: '0', roomToken: otherRoom.roomToken, fieldId: byKey('scan').fieldId },
      { bytes: pngBytes(), filename: 'a.png', type: 'image/png' },
    );
    expect(upload.body.code).toBe(Code.NotFound);
  }, 120_000);

  test('signDocument refuses while a required field is empty, then signs with the values', async () => {
    const saved = ok(
      await save({
        [byKey('fullName').fieldId]: '张三',
        [byKey('amount').fieldId]: '1200.50',
        [byKey('start').fieldId]: '2026-12-01',
        [byKey('plan').fieldId]: '专业版',
        [byKey('idNo').fieldId]: VALID_ID.toLowerCase(),
      }),
      'save',
    );
    expect(saved.fields.find((f) => f.key === 'idNo')!.value).toBe(VALID_ID);
    // "I agree" is required and not ticked.
    const refused = await buyer.agent.call(
      signDocument,
      { userType: 0, roomToken: room.roomToken, smsCode: '000000', personSealId: buyer.sealId! },
      EN,
    );
    expect(refused.body.code).toBe(Code.Refused);
    expect(refused.body.msg).toMatch(/I agree.*this field is required/);
    const signed = await sign(t, buyer.agent, room, buyer.phone, {
      personSealId: buyer.sealId!,
      fieldValues: { [byKey('agree').fieldId]: true, [byKey('notes').fieldId]: 'Line one\nLine two' },
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const detail = ok(
      await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    const v = Object.fromEntries(detail.fields.map((f) => [f.key, f.value]));
    expect(v).toMatchObject({
      fullName: '张三',
      notes: 'Line one\nLine two',
      amount: '1200.50',
      start: '2026-12-01',
      agree: true,
      plan: '专业版',
      city: null,
      idNo: VALID_ID,
      scan: '身份证.png',
    });
    expect(v.signedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(detail.fields.filter((f) => f.partyId !== byKey('fullName').partyId)[0].signedAt).toBeNull();
    expect(detail.fields.find((f) => f.key === 'fullName')!.signedAt).not.toBeNull();
    // Signed: no more changes.
    const late = await save({ [byKey('fullName').fieldId]: '别人' });
    expect(late.body.code).not.toBe(0);
    // The audit trail names the fields filled (the attachment with its SHA-256), in both languages.
    for (const [lang, words] of [
      ['en-US', 'filled fields: 姓名'],
      ['zh-CN', '填写字段：姓名'],
    ]) {
      const trail = ok(
        await company.admin.agent.call<{ entries: { event: string; detail: string | null }[] }>(
          getAuditTrail,
          { userType: 1, flowId },
          { headers: { 'accept-language': lang } },
        ),
        'trail',
      );
      const entry = trail.entries.find((e) => e.event === 'sign')!;
      expect(entry.detail).toContain(words);
      expect(entry.detail).toContain(
        `身份证.png, SHA-256 ${createHash('sha256').update(scanPng).digest('hex')}`,
      );
    }
  }, 120_000);

  withQpdf(
    'the signed PDF shows the values',
    async () => {
      const pdf = await getBytes(company.admin.agent, `${DOCUMENT_DOWNLOAD_PATH}/${documentId}`);
      const page1 = await shownText(pdf.bytes, 1, 'after-buyer');
      for (const shown of ['张三', '1200.50', '2026-12-01', '专业版', 'Line one', '身份证.png'])
        expect(page1).toContain(shown);
      expect(await shownText(pdf.bytes, 2, 'after-buyer-p2')).toContain(VALID_ID);
    },
    60_000,
  );

  test('the company handler fills its field and seals; the flow completes', async () => {
    const op = company.operator.agent;
    const r = await pendingRoom(op, flowId);
    const view = ok(
      await op.call<SigningRoom>(getSigningRoom, { userType: 1, roomToken: r.roomToken }),
      'room',
    );
    expect(view.fields.map((f) => f.key)).toEqual(['note']);
    const signed = await sign(t, op, r, company.operator.phone, {
      companySealId: company.contractSealId,
      fieldValues: { [view.fields[0].fieldId]: '已核对' },
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
  }, 120_000);

  withPdfsig(
    'pdfsig and the platform verifier pass every signature; the verifier lists the fills',
    async () => {
      const pdf = await getBytes(company.admin.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
      const { report, pki } = await expectAllPassed(t, pdf.bytes, 3);
      const out = pdfsigReport(pdf.bytes, pki.rootPem, 'fields.pdf');
      expect(out).not.toBeNull();
      expect(out!.match(/Signature is Valid/g)?.length, out!).toBe(2);
      // The verifier lists which fields each revision filled, and each signature the fields it signed.
      const all = report.formFills.flatMap((f) => f.fields);
      expect(all).toContainEqual(expect.objectContaining({ name: 'f_fullName_1', value: '张三' }));
      expect(all).toContainEqual(expect.objectContaining({ name: 'f_note_2', value: '已核对' }));
      expect(report.signatures[0].filledFields).toContain('f_fullName_1');
      expect(report.signatures[1].filledFields).toEqual(['f_note_2']);
    },
    120_000,
  );

  test("the flow detail returns every field's value; a stranger gets 1101", async () => {
    const detail = ok(
      await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }),
      'detail',
    );
    expect(detail.fields.find((f) => f.key === 'note')!.value).toBe('已核对');
    expect(detail.fields.every((f) => f.signedAt !== null)).toBe(true);
    const scan = detail.fields.find((f) => f.key === 'scan')!;
    expect(scan.attachment).toMatchObject({ name: '身份证.png', mediaType: 'image/png' });
    expect(scan.attachment!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const other = await stranger.agent.call(getFlowDetail, { userType: 0, flowId });
    expect(other.body.code).toBe(Code.NotFound);
    // The launched list carries the filled values (its export's "Fields" column).
    const listed = ok(
      await company.admin.agent.call<{ list: LaunchedItem[] }>(listLaunchedFlows, {
        userType: 1,
        pageSize: 50,
      }),
      'list',
    ).list.find((x) => x.flowId === flowId)!;
    expect(listed.fieldValues).toContainEqual({ label: '姓名', value: '张三' });
    expect(listed.fieldValues).toContainEqual({ label: 'I agree', value: '✓' });
    expect(listed.fieldValues).toContainEqual({ label: '经办备注', value: '已核对' });
    expect(listed.fieldValues.some((v) => v.label === 'City')).toBe(false);
    // The integrator API: GET /open/v1/flows/{id} returns the fields with their values.
    const key = await makeKey(company.admin.agent, ['flows:read'], 1);
    const api = await open<FlowDetail>(t, 'GET', `/flows/${flowId}`, { key: key.secret });
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    const apiFields = Object.fromEntries(api.body.data.fields.map((f) => [f.key, f]));
    expect(apiFields.fullName.value).toBe('张三');
    expect(apiFields.agree.value).toBe(true);
    expect(apiFields.scan.attachment).toMatchObject({
      name: '身份证.png',
      size: scanPng.length,
      sha256: createHash('sha256').update(scanPng).digest('hex'),
    });
  }, 60_000);
});

describe('a template with fields filled in the room', () => {
  let template: Template;
  const roomFields = [
    {
      key: 'addr',
      label: '收货地址',
      type: 'multiline',
      isRequired: true,
      filler: 'buyer',
      fillAt: 'room',
      page: 1,
      rect: [72, 600, 400, 660],
    },
    {
      key: 'ok',
      label: '同意条款',
      type: 'checkbox',
      isRequired: true,
      filler: 'buyer',
      fillAt: 'room',
      page: 1,
      rect: [72, 570, 88, 586],
    },
    {
      key: 'plan',
      label: '套餐',
      type: 'select',
      options: ['月付', '年付'],
      isRequired: false,
      filler: 'buyer',
      fillAt: 'room',
      page: 1,
      rect: [200, 570, 300, 590],
    },
  ];
  const launchField = {
    key: 'who',
    label: '买方',
    type: 'text',
    isRequired: true,
    page: 1,
    rect: [72, 700, 300, 720],
  };
  const base = () => ({
    userType: 1,
    name: '字段模板',
    roles: [{ key: 'buyer', name: '买方', kind: 'person', applies: {}, stepIndex: 0 }],
    positions: [{ roleKey: 'buyer', page: 1, rect: [330, 130, 450, 190] }],
  });

  test('room fields need a role, options for a select, no default; launch values only for launch fields', async () => {
    const op = company.admin.agent;
    const up = ok(await uploadPdf(op, await contractPdf(1), 1, 'tpl.pdf'), 'upload');
    const refusals: [unknown, RegExp][] = [
      [{ ...roomFields[0], filler: 'initiator' }, /收货地址.*role/],
      [{ ...roomFields[2], options: undefined }, /套餐.*two options/],
      [{ ...roomFields[0], defaultValue: 'x' }, /收货地址.*no default/],
      [{ ...roomFields[0], fillAt: 'launch', type: 'attachment' }, /收货地址.*signing room/],
    ];
    for (const [field, msg] of refusals) {
      const res = await op.call(saveTemplate, { ...base(), documentId: up.documentId, fields: [field] }, EN);
      expect(res.body.code, JSON.stringify(field)).toBe(Code.Refused);
      expect(res.body.msg).toMatch(msg);
    }
    template = ok(
      await op.call<Template>(saveTemplate, {
        ...base(),
        documentId: up.documentId,
        fields: [launchField, ...roomFields],
      }),
      'save',
    );
    expect(template.fields.filter((f) => f.fillAt === 'room').map((f) => f.key)).toEqual([
      'addr',
      'ok',
      'plan',
    ]);
    const withRoomValue = await op.call(
      prepareTemplateLaunch,
      {
        userType: 1,
        templateId: template.templateId,
        title: '模板合同',
        values: { who: '李四', addr: '北京' },
        assignments: [{ roleKey: 'buyer', kind: 'person', name: '李四', phone: buyer.phone }],
      },
      EN,
    );
    expect(withRoomValue.body.code).toBe(Code.Refused);
    expect(withRoomValue.body.msg).toMatch(/收货地址.*signing room/);
    // Bulk sending: the template's sheet has a column for the launch field, none for the room fields.
    const sheet = await getBytes(op, `${BULK_SHEET_PATH}/${template.templateId}?lang=zh`);
    expect(sheet.status).toBe(200);
    const wb = XLSX.read(sheet.bytes, { type: 'array' });
    const [headers] = XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
    expect(headers).toContain('买方');
    for (const label of ['收货地址', '同意条款', '套餐']) expect(headers).not.toContain(label);
  }, 60_000);

  test('launched: the signer fills the room fields and signs; the values are in the flow and the PDF', async () => {
    const op = company.admin.agent;
    const draft = ok(
      await op.call<TemplateDraft>(prepareTemplateLaunch, {
        userType: 1,
        templateId: template.templateId,
        title: '模板合同',
        values: { who: '李四' },
        assignments: [{ roleKey: 'buyer', kind: 'person', name: '李四', phone: buyer.phone }],
      }),
      'prepare',
    );
    const { flowId: tFlow } = ok(
      await op.call<{ flowId: string }>(launchTemplateFlow, { userType: 1, draftId: draft.draftId }),
      'launch',
    );
    const r = await openByLink(t, buyer.agent, buyer.phone);
    const view = ok(
      await buyer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: r.roomToken }),
      'room',
    );
    expect(view.flow.flowId).toBe(tFlow);
    expect(view.fields.map((f) => [f.key, f.kind, f.isRequired])).toEqual([
      ['addr', 'multiline', true],
      ['ok', 'checkbox', true],
      ['plan', 'select', false],
    ]);
    const id = (k: string) => view.fields.find((f) => f.key === k)!.fieldId;
    const signed = await sign(t, buyer.agent, r, buyer.phone, {
      personSealId: buyer.sealId!,
      fieldValues: { [id('addr')]: '北京市朝阳区\n建国路 1 号', [id('ok')]: true, [id('plan')]: '年付' },
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const detail = ok(await op.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: tFlow }), 'detail');
    expect(Object.fromEntries(detail.fields.map((f) => [f.key, f.value]))).toEqual({
      addr: '北京市朝阳区\n建国路 1 号',
      ok: true,
      plan: '年付',
    });
    const pdf = await getBytes(op, `${SIGNED_PDF_PATH}/${tFlow}/${detail.documents[0].documentId}`);
    await expectAllPassed(t, pdf.bytes, 2);
    if (hasTool('qpdf')) {
      const text = await shownText(pdf.bytes, 1, 'template');
      expect(text).toContain('李四');
      expect(text).toContain('北京市朝阳区');
      expect(text).toContain('年付');
    }
  }, 120_000);
});

describe('batch signing and fields', () => {
  const companyFlow = async (field: Record<string, unknown>) => {
    const doc = ok(await uploadPdf(company.admin.agent, await contractPdf(1), 1), 'upload').documentId;
    return ok(
      await company.admin.agent.call<{ flowId: string }>(launchFlow, {
        userType: 1,
        title: `批量字段 ${field.key}`,
        documentIds: [doc],
        steps: [
          {
            parties: [
              {
                kind: 'company',
                companyId: company.id,
                operatorPhone: company.operator.phone,
                applies: { companySealType: 102 },
                positions: [{ documentId: doc, keyword: 'Party A (seal):' }],
                fields: [
                  {
                    ...field,
                    position: { documentId: doc, page: 1, mm: { left: 20, top: 20, width: 60, height: 8 } },
                  },
                ],
              },
            ],
          },
        ],
      }),
      'launch',
    ).flowId;
  };

  test('a party with a required field left empty is skipped with the reason; the others sign with saved values', async () => {
    const op = company.operator.agent;
    const empty = await companyFlow({ key: 'po', label: '订单号', kind: 'text' });
    const saved = await companyFlow({ key: 'po', label: '订单号', kind: 'text' });
    const dated = await companyFlow({ key: 'on', label: '日期', kind: 'signDate' });
    // The handler saves the order number of one flow in its room.
    const r = await pendingRoom(op, saved);
    const view = ok(
      await op.call<SigningRoom>(getSigningRoom, { userType: 1, roomToken: r.roomToken }),
      'room',
    );
    ok(
      await op.call(saveRoomFields, {
        userType: 1,
        roomToken: r.roomToken,
        values: { [view.fields[0].fieldId]: 'PO-123' },
      }),
      'save',
    );
    const { list } = ok(
      await op.call<{ list: BatchSignable[] }>(listBatchSignable, { userType: 1, pageSize: 500 }),
      'signable',
    );
    const partyIds = [empty, saved, dated].map((id) => list.find((x) => x.flowId === id)!.partyId);
    const prepared = ok(
      await op.call<{ batchId: string }>(prepareSignBatch, {
        userType: 1,
        partyIds,
        sealChoice: { companySealId: company.contractSealId },
      }),
      'prepare',
    );
    const code = await t.smsCodeFor(company.operator.phone, 'sign');
    t.clock.advance(1_000);
    ok(await op.call(startSignBatch, { userType: 1, batchId: prepared.batchId, smsCode: code }), 'start');
    await t.runDueJobs();
    for (const [lang, reason] of [
      ['en-US', 'fill the fields in the signing room first'],
      ['zh-CN', '请先在签署页面填写字段'],
    ]) {
      const batch = ok(
        await op.call<SignBatch>(
          getSignBatch,
          { userType: 1, batchId: prepared.batchId },
          { headers: { 'accept-language': lang } },
        ),
        'batch',
      );
      expect(batch).toMatchObject({ signed: 2, failed: 1 });
      const failed = batch.items.find((i) => i.status === 'failed')!;
      expect(failed.flowId).toBe(empty);
      expect(failed.error?.msg).toBe(reason);
    }
    const detailOf = async (id: string) =>
      ok(await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: id }), 'detail');
    expect((await detailOf(empty)).status).toBe('signing');
    expect((await detailOf(saved)).fields[0]).toMatchObject({ value: 'PO-123' });
    expect((await detailOf(saved)).fields[0].signedAt).not.toBeNull();
    expect((await detailOf(dated)).fields[0].value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }, 180_000);
});

describe('fields on a file the footer cannot rewrite', () => {
  withPdfsig(
    'an AES-128 encrypted PDF gets its fields, and the value signs valid',
    async () => {
      const pdf = await encryptedPdf(await contractPdf(1), 'AES-128');
      const doc = ok(await uploadPdf(company.admin.agent, pdf, 1, 'locked.pdf'), 'upload').documentId;
      const at = { documentId: doc, page: 1, mm: { left: 20, top: 20, width: 60, height: 8 } };
      const { flowId: encFlow } = ok(
        await company.admin.agent.call<{ flowId: string }>(launchFlow, {
          userType: 1,
          title: 'encrypted with a field',
          documentIds: [doc],
          steps: [
            {
              parties: [
                {
                  kind: 'person',
                  name: '李四',
                  phone: buyer.phone,
                  positions: [
                    { documentId: doc, page: 1, mm: { left: 120, top: 200, width: 36, height: 18 } },
                  ],
                  fields: [{ key: 'ref', label: 'Reference', kind: 'text', position: at }],
                },
              ],
            },
          ],
        }),
        'launch',
      );
      const r = await openByLink(t, buyer.agent, buyer.phone);
      const view = ok(
        await buyer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: r.roomToken }),
        'room',
      );
      expect(view.flow.flowId).toBe(encFlow);
      const signed = await sign(t, buyer.agent, r, buyer.phone, {
        personSealId: buyer.sealId!,
        fieldValues: { [view.fields[0].fieldId]: 'REF-42' },
      });
      expect(signed.body.code, signed.body.msg).toBe(0);
      const final = await getBytes(company.admin.agent, `${SIGNED_PDF_PATH}/${encFlow}/${doc}`);
      const { report, pki } = await expectAllPassed(t, final.bytes, 2);
      expect(report.formFills.flatMap((f) => f.fields)).toContainEqual(
        expect.objectContaining({ name: 'f_ref_1', value: 'REF-42' }),
      );
      const out = pdfsigReport(final.bytes, pki.rootPem, 'encrypted-fields.pdf');
      expect(out!.match(/Signature is Valid/g)?.length, out!).toBe(1);
    },
    120_000,
  );
});
