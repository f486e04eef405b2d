import type { FastifyReply } from 'fastify';

/**
 * Sends a PDF as a download named `filename` (".pdf" added when missing): an ASCII fallback name and the real
 * one in RFC 5987 form, never cached by shared caches.
 */
export function sendPdf(reply: FastifyReply, bytes: Uint8Array, filename: string): FastifyReply {
  const safe = filename.endsWith('.pdf') ? filename : `${filename}.pdf`;
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      `attachment; filename="document.pdf"; filename*=UTF-8''${encodeURIComponent(safe)}`,
    )
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(bytes));
}
