// Shared by the verification tests: checkPdf through HTTP (multipart), corpus files, tampering helpers.
import { checkPdf, type VerifyResult } from '#contract/calls/verify.ts';
import { callPath } from '#contract/envelope.ts';
import { PdfFile } from '#server/pdf/parse/document.ts';
import { isArray, isDict, isRef } from '#server/pdf/parse/objects.ts';
import { upload } from '../company/fixture.ts';
import type { Agent, CallResult } from '../helper.ts';

export { corpusDir, corpusFile, hasCorpus } from '../pdf/corpus.ts';

/** Uploads a file to checkPdf as the page does (multipart, userType field). */
export function checkFile(
  agent: Agent,
  bytes: Uint8Array,
  filename = 'file.pdf',
  fields: Record<string, string> = { userType: '0' },
): Promise<CallResult<VerifyResult>> {
  return upload<VerifyResult>(agent, callPath(checkPdf), fields, {
    bytes,
    filename,
    type: 'application/pdf',
  });
}

/** Appends an incremental update that rewrites page 1's content stream, as an attacker would. */
export function replaceFirstPageContent(bytes: Uint8Array, text: string): Uint8Array {
  const pdf = new PdfFile(bytes);
  const rev = pdf.latest;
  const pages = pdf.getDict(rev, pdf.catalog(rev), 'Pages');
  const kids = pdf.get(rev, pages, 'Kids');
  if (!isArray(kids) || !isRef(kids.v[0])) throw new Error('no first page');
  const page = pdf.resolve(rev, kids.v[0]);
  const raw = isDict(page) ? page.v.get('Contents') : undefined;
  // pdf-lib writes /Contents as an array of streams: the first one is replaced.
  const list = pdf.resolve(rev, raw);
  const contents = isArray(list) ? list.v[0] : raw;
  if (!isRef(contents)) throw new Error('page content is not an indirect stream');
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const offset = bytes.length + 1;
  const obj = `\n${contents.num} 0 obj\n<< /Length ${stream.length} >>\nstream\n${stream}\nendstream\nendobj\n`;
  const xrefAt = offset - 1 + obj.length;
  const size = Math.max(...rev.table.keys()) + 1;
  const root = rev.trailer.v.get('Root');
  if (!isRef(root)) throw new Error('no root');
  const tail =
    `xref\n0 1\n0000000000 65535 f \n${contents.num} 1\n${String(offset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size} /Root ${root.num} ${root.gen} R /Prev ${rev.xrefOffset} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([bytes, Buffer.from(obj + tail, 'latin1')]);
}
