import type { FastifyReply } from 'fastify';

/**
 * A `content-disposition` value naming `name`: an ASCII fallback (other characters, quotes and backslashes
 * become `_`) and the real name in RFC 5987 form, for browsers that read it.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Sends a PDF named `filename` (".pdf" added when missing), as a download unless `inline` (pdf.js and the
 * browser's viewer show it), never cached by shared caches.
 */
export function sendPdf(
  reply: FastifyReply,
  bytes: Uint8Array,
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): FastifyReply {
  const safe = filename.toLowerCase().endsWith('.pdf') ? filename : `${filename}.pdf`;
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDisposition(disposition, safe))
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(bytes));
}
