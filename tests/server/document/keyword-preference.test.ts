// Placing by keyword when the keyword occurs more than once: "甲方" is in the opening paragraph too, and the
// launcher wants the box where 甲方 seals. The keyword search answers every match with its page and a little
// of the text around it, and marks the one to place at by default: the match followed by 签章/盖章/签字 (or
// "(Seal)"/"Signature" in English), else one at a signature line (underscores). A keyword position of the
// integrator API without `occurrence` takes that same match; with `occurrence` the one it names.
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, test } from 'vitest';
import { type KeywordHit, findDocumentKeyword } from '#contract/calls/document.ts';
import { type FlowDetail, getFlowDetail } from '#contract/calls/flow.ts';
import { embedCjkFont } from '#server/pdf/compose/pdf-tools.ts';
import { appForFile } from '../helper.ts';
import { type Signer, ok, personWithCert, uploadPdf } from '../fixtures/flow.ts';
import { makeKey, openLaunchForOne } from '../fixtures/open.ts';

const t = appForFile();
let launcher: Signer;
let signer: Signer;
let key: string;

/** A two-page Chinese contract: 甲方 in the opening paragraph and the terms, then 甲方（盖章） on page 2. */
async function chineseContract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await embedCjkFont(doc);
  const p1 = doc.addPage([595.28, 841.89]);
  p1.drawText('买卖合同', { x: 250, y: 780, size: 18, font });
  p1.drawText('甲方：华东贸易有限公司（以下简称甲方）', { x: 72, y: 740, size: 12, font });
  p1.drawText('乙方：李四', { x: 72, y: 720, size: 12, font });
  p1.drawText('甲方应在收货后十日内付款。', { x: 72, y: 680, size: 12, font });
  const p2 = doc.addPage([595.28, 841.89]);
  p2.drawText('本合同一式两份。', { x: 72, y: 740, size: 12, font });
  p2.drawText('甲方（盖章）：', { x: 72, y: 200, size: 12, font });
  p2.drawText('乙方（签字）：', { x: 330, y: 200, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

/** An English contract: "Party A" opens it and signs on a line of underscores (no seal wording). */
async function englishContract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText('Party A: ACME Trading Ltd, hereafter Party A.', { x: 72, y: 760, size: 12, font });
  page.drawText('Party A shall pay within ten days.', { x: 72, y: 740, size: 12, font });
  page.drawText('Party A: ____________________', { x: 72, y: 200, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
  signer = await personWithCert(t, '李四');
  key = (await makeKey(launcher.agent, ['flows:write', 'flows:read'])).secret;
}, 120_000);

const hitsOf = async (documentId: string, keyword: string) =>
  ok(
    await launcher.agent.call<KeywordHit[]>(findDocumentKeyword, { userType: 0, documentId, keyword }),
    'keyword',
  );

describe('keyword search shows every match and prefers the one where the party seals', () => {
  test('甲方: three matches with their page and text around them; the default is 甲方（盖章） on page 2', async () => {
    const { documentId } = ok(await uploadPdf(launcher.agent, await chineseContract()), 'upload');
    const hits = await hitsOf(documentId, '甲方');
    expect(hits.map((h) => h.page)).toEqual([1, 1, 1, 2]);
    expect(hits[0].after).toContain('华东贸易');
    expect(hits[1].before).toContain('以下简称');
    expect(hits[3].after).toContain('盖章');
    expect(hits.map((h) => h.isPreferred)).toEqual([false, false, false, true]);
    // 乙方 signs with 签字
    const b = await hitsOf(documentId, '乙方');
    expect(b.filter((h) => h.isPreferred).map((h) => h.page)).toEqual([2]);
  }, 60_000);

  test('an English contract without seal wording: the match at the signature line', async () => {
    const { documentId } = ok(await uploadPdf(launcher.agent, await englishContract()), 'upload');
    const hits = await hitsOf(documentId, 'Party A');
    expect(hits).toHaveLength(4);
    expect(hits.map((h) => h.isPreferred)).toEqual([false, false, false, true]);
    expect(hits[3].after).toContain('____');
    expect(hits[3].rect[1]).toBeLessThan(200);
  }, 60_000);

  test('the integrator API places a keyword position at the preferred match, or at the occurrence named', async () => {
    const pdf = await chineseContract();
    const launch = async (position: Record<string, unknown>) => {
      const res = await openLaunchForOne(t, key, pdf, signer, position, '买卖合同');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const d = ok(
        await launcher.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId: res.body.data.flowId }),
        'detail',
      );
      return d.steps[0].parties[0].positions[0];
    };
    const preferred = await launch({ keyword: '甲方' });
    expect(preferred.page).toBe(2);
    expect(preferred.rect[1]).toBeLessThan(210);
    expect(preferred.rect[3]).toBeGreaterThan(200);
    const first = await launch({ keyword: '甲方', occurrence: 1 });
    expect(first.page).toBe(1);
    expect(first.rect[3]).toBeGreaterThan(700);
  }, 60_000);
});
