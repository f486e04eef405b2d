// Helpers of the revised-documents journey (issue 29): uploads through the API with the page's session, and
// the contracts of each revision.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { APIRequestContext } from '@playwright/test';
import { KEY_SUFFIX_HEADER, keySuffixOf, TOKEN_COOKIE, XSRF_HEADER } from '../contract/transport.ts';
import { uploadDocument } from '../contract/paths/document.ts';

/** A one-page service contract whose delivery clause says `days`, with both parties' signing lines. */
export async function serviceContract(days: number, extra?: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Service contract', { x: 72, y: 760, size: 20, font });
  page.drawText('Clause 1: the supplier provides the services described here.', {
    x: 72,
    y: 720,
    size: 12,
    font,
  });
  page.drawText(`Clause 2: delivery within ${days} days.`, { x: 72, y: 700, size: 12, font });
  if (extra) page.drawText(extra, { x: 72, y: 680, size: 12, font });
  page.drawText('Party A', { x: 72, y: 260, size: 14, font });
  page.drawText('Party B', { x: 340, y: 260, size: 14, font });
  const file = join(mkdtempSync(join(tmpdir(), 'esign-revision-')), `contract-${days}.pdf`);
  writeFileSync(file, await doc.save());
  return file;
}

/** Uploads a PDF as the page's logged-in person (multipart, with the app's XSRF headers): its document id. */
export async function uploadViaApi(request: APIRequestContext, file: string): Promise<string> {
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === TOKEN_COOKIE)?.value ?? '';
  const res = await request.post(uploadDocument.path, {
    headers: { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) },
    multipart: {
      userType: '0',
      file: { name: 'contract.pdf', mimeType: 'application/pdf', buffer: readFileSync(file) },
    },
  });
  const body = (await res.json()) as { code: number; data: { documentId: string } };
  if (body.code !== 0) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.data.documentId;
}
