// Helpers of the template tests: PDF text and pixels through poppler (pdftotext, pdftoppm), and the body of a
// two-role template (a company role sealing first, a person signing second) with one field of each type.
import { spawnSync } from 'node:child_process';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

/** The text of a PDF as poppler extracts it (what a reader would copy out of the file). */
export function pdfText(bytes: Uint8Array): string {
  const r = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], {
    input: bytes,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
  return r.stdout.toString('utf8');
}

/**
 * Dark pixels inside a box of page 1 rendered by poppler at 72 dpi (one pixel per point): what a reader sees
 * drawn there. rect is in PDF points, origin bottom-left; pageHeight the page's height in points.
 */
export function darkPixels(
  bytes: Uint8Array,
  rect: [number, number, number, number],
  pageHeight: number,
): number {
  const r = spawnSync('pdftoppm', ['-gray', '-r', '72', '-f', '1', '-l', '1', '-'], {
    input: bytes,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
  const buf = r.stdout as Buffer;
  // PGM (P5): "P5\n<w> <h>\n255\n" then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a PGM');
  const [w] = [Number(header[1])];
  const data = buf.subarray(header[0].length);
  let n = 0;
  const [x1, y1, x2, y2] = rect;
  for (let y = Math.floor(pageHeight - y2); y < Math.ceil(pageHeight - y1); y++)
    for (let x = Math.floor(x1); x < Math.ceil(x2); x++) if (data[y * w + x] < 128) n++;
  return n;
}

/** A one-page contract with printed labels where the fields go (no CJK in the source file itself). */
export async function templateSourcePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText('Sales contract', { x: 72, y: 780, size: 18, font });
  page.drawText('Buyer:', { x: 72, y: 700, size: 11, font });
  page.drawText('Amount:', { x: 72, y: 670, size: 11, font });
  page.drawText('Date:', { x: 72, y: 640, size: 11, font });
  page.drawText('Agreed:', { x: 72, y: 610, size: 11, font });
  page.drawText('Party A (seal):', { x: 72, y: 200, size: 12, font });
  page.drawText('Party B (signature):', { x: 330, y: 200, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

export const FIELD_RECTS = {
  buyer: [130, 692, 400, 712],
  address: [130, 580, 500, 600],
  amount: [130, 662, 300, 682],
  signedOn: [130, 632, 300, 652],
  agreed: [130, 604, 146, 620],
} as const satisfies Record<string, [number, number, number, number]>;

/** Steps of a signing configuration: Party A a company applying its contract seal and the date, then Party B. */
export const CONFIG_STEPS = [
  {
    parties: [
      {
        key: 'partyA',
        name: '甲方',
        kind: 'company' as const,
        applies: {
          companySealType: 102,
          legalPersonSeal: false,
          personSignature: false,
          date: true,
          crossPageSeal: false,
        },
      },
    ],
  },
  {
    parties: [
      {
        key: 'partyB',
        name: '乙方',
        kind: 'person' as const,
        applies: { legalPersonSeal: false, personSignature: true, date: false, crossPageSeal: false },
      },
    ],
  },
];

export const FIELDS = [
  {
    key: 'buyer',
    label: '乙方姓名',
    type: 'text',
    isRequired: true,
    filler: 'partyB',
    page: 1,
    rect: FIELD_RECTS.buyer,
  },
  {
    key: 'address',
    label: '地址',
    type: 'text',
    isRequired: false,
    defaultValue: '上海市浦东新区',
    page: 1,
    rect: FIELD_RECTS.address,
  },
  { key: 'amount', label: '合同金额', type: 'number', isRequired: true, page: 1, rect: FIELD_RECTS.amount },
  { key: 'signedOn', label: '签订日期', type: 'date', isRequired: true, page: 1, rect: FIELD_RECTS.signedOn },
  {
    key: 'agreed',
    label: '同意条款',
    type: 'checkbox',
    isRequired: false,
    page: 1,
    rect: FIELD_RECTS.agreed,
  },
];

export const POSITIONS = [
  { roleKey: 'partyA', page: 1, rect: [72, 80, 200, 190] },
  { roleKey: 'partyB', page: 1, rect: [330, 130, 450, 190] },
];
