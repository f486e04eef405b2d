// Keyword placement in a PDF printed the way Chrome prints Chinese: the text layer carries compatibility
// code points (Kangxi radicals U+2F45 ⽅ for 方, U+2F04 ⼄ for 乙, full-width letters) instead of the
// unified ideographs a person types. The keyword is found after NFKC normalisation of both sides.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, test } from 'vitest';
import { embedCjkFont, findKeyword } from '#server/pdf/compose/pdf-tools.ts';

/** A contract page whose text uses the code points Chrome's printing puts in the text layer. */
async function chromeStylePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await embedCjkFont(doc);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText('买卖合同', { x: 72, y: 760, size: 18, font });
  page.drawText('甲\u2F45（盖章）：', { x: 72, y: 200, size: 12, font });
  page.drawText('\u2F04\u2F45（签字）：', { x: 330, y: 200, size: 12, font });
  page.drawText('ＡＢＣ公司', { x: 72, y: 160, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

describe('keyword placement normalises text (NFKC)', () => {
  test('甲方 and 乙方 are found where the PDF has Kangxi radicals; full-width letters too', async () => {
    const pdf = await chromeStylePdf();
    if (existsSync('/usr/bin/pdftotext')) {
      // The text layer really holds the compatibility code points, as in Chrome's output.
      const text = execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
      expect(text).toContain('\u2F45');
      expect(text).toContain('\u2F04');
      expect(text).not.toContain('乙方');
    }
    const a = await findKeyword(pdf, '甲方');
    const b = await findKeyword(pdf, '乙方');
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0].page).toBe(1);
    // Each box sits at its own label: 甲方 on the left, 乙方 on the right, both on the y=200 line.
    expect(a[0].rect[0]).toBeGreaterThanOrEqual(70);
    expect(a[0].rect[0]).toBeLessThan(80);
    expect(b[0].rect[0]).toBeGreaterThanOrEqual(328);
    expect(b[0].rect[0]).toBeLessThan(340);
    for (const r of [a[0].rect, b[0].rect]) {
      expect(r[1]).toBeLessThan(200);
      expect(r[3]).toBeGreaterThan(200);
    }
    // A keyword typed with the compatibility forms finds the ordinary text too, and ABC its full-width form.
    expect(await findKeyword(pdf, '\u2F04\u2F45')).toHaveLength(1);
    expect(await findKeyword(pdf, 'ABC公司')).toHaveLength(1);
    expect(await findKeyword(pdf, '买卖合同')).toHaveLength(1);
  }, 60_000);
});
