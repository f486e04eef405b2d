import type { FastifyError, FastifyReply } from 'fastify';
import { MAX_OCSP_REQUEST_BYTES } from '../../pki/ocsp.ts';
import { MAX_TSA_REQUEST_BYTES } from '../../pki/tsa.ts';
import type { ServerModule } from '../server-module.ts';
import { pkiFor } from './service.ts';

/** Media types of the PKI protocols (RFC 2585, RFC 6960, RFC 3161). */
const PkiMediaType = {
  pem: 'application/x-pem-file',
  cert: 'application/pkix-cert',
  crl: 'application/pkix-crl',
  ocspRequest: 'application/ocsp-request',
  ocspResponse: 'application/ocsp-response',
  tsQuery: 'application/timestamp-query',
  tsReply: 'application/timestamp-reply',
} as const;

// The longest GET form of an OCSP request: base64 of the largest accepted DER, percent-encoded.
const MAX_OCSP_GET_CHARS = Math.ceil((MAX_OCSP_REQUEST_BYTES * 4) / 3) * 3;

function binary(reply: FastifyReply, type: string, body: Uint8Array, cache: string) {
  return reply.header('content-type', type).header('cache-control', cache).send(Buffer.from(body));
}

/**
 * The public endpoints of the certificate authority. These are binary protocol endpoints for relying
 * parties (Adobe Reader, pdfsig, openssl), not envelope calls: no session, no {code,msg,data}.
 */
export const pkiModule: ServerModule = {
  name: 'pki',
  register(app, deps) {
    // The CA starts loading with the app, but the app does not wait for it: on a fresh start its keys are
    // still being made (serve.ts listens meanwhile), and each endpoint below waits for it instead. A bad
    // master key or broken CA files still stop the server's start: serve.ts exits when prepareCaFiles fails.
    // A failure here is each request's to report (pkiFor forgets it, so the next call tries again).
    pkiFor(deps).catch(() => {});

    // Raw bodies only for these two types, within this module's scope, each with its own small limit.
    app.addContentTypeParser(
      PkiMediaType.ocspRequest,
      { parseAs: 'buffer', bodyLimit: MAX_OCSP_REQUEST_BYTES },
      (_req, body, done) => done(null, body),
    );
    app.addContentTypeParser(
      PkiMediaType.tsQuery,
      { parseAs: 'buffer', bodyLimit: MAX_TSA_REQUEST_BYTES },
      (_req, body, done) => done(null, body),
    );

    // Protocol clients do not read {code,msg,data}: refusals here are plain HTTP statuses
    // (413 too large, 415 wrong media type), and failures a bare 500 after logging.
    app.setErrorHandler((err: FastifyError, req, reply) => {
      const status =
        typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
          ? err.statusCode
          : 500;
      if (status === 500) req.log.error({ err, reqId: req.id }, 'pki endpoint failed');
      return reply
        .status(status)
        .type('text/plain; charset=utf-8')
        .send(status === 500 ? 'internal error' : err.message);
    });

    app.get('/v1/pki/root.crt', { schema: { hide: true } }, async (_req, reply) => {
      return reply
        .header('content-type', PkiMediaType.pem)
        .header('content-disposition', 'attachment; filename="esign-root-ca.crt"')
        .header('cache-control', 'public, max-age=86400')
        .send((await pkiFor(deps)).rootPem);
    });
    app.get('/v1/pki/issuing.crt', { schema: { hide: true } }, async (_req, reply) =>
      binary(reply, PkiMediaType.cert, (await pkiFor(deps)).issuingDer, 'public, max-age=86400'),
    );
    app.get('/v1/pki/root.crl', { schema: { hide: true } }, async (_req, reply) =>
      binary(reply, PkiMediaType.crl, (await pkiFor(deps)).rootCrl, 'public, max-age=3600'),
    );
    // Made fresh per request: a revocation shows in the next CRL fetched.
    app.get('/v1/pki/crl', { schema: { hide: true } }, async (_req, reply) =>
      binary(reply, PkiMediaType.crl, await (await pkiFor(deps)).crl(), 'no-cache'),
    );

    app.post('/v1/pki/ocsp', { schema: { hide: true } }, async (req, reply) =>
      binary(
        reply,
        PkiMediaType.ocspResponse,
        await (await pkiFor(deps)).respondOcsp(new Uint8Array(req.body as Buffer)),
        'no-store',
      ),
    );
    // RFC 6960 Appendix A.1: GET {url}/{url-encoding of base-64 encoding of the DER OCSP request}.
    // A wildcard, because base64 may hold '/' that some clients leave unencoded.
    app.get('/v1/pki/ocsp/*', { schema: { hide: true } }, async (req, reply) => {
      const raw = (req.params as { '*': string })['*'] ?? '';
      let der = new Uint8Array();
      if (raw.length <= MAX_OCSP_GET_CHARS) {
        try {
          der = new Uint8Array(Buffer.from(decodeURIComponent(raw), 'base64'));
        } catch {
          // bad percent-encoding: answered as malformedRequest below
        }
      }
      return binary(
        reply,
        PkiMediaType.ocspResponse,
        await (await pkiFor(deps)).respondOcsp(der),
        'public, max-age=60',
      );
    });

    app.post('/v1/pki/tsa', { schema: { hide: true } }, async (req, reply) =>
      binary(
        reply,
        PkiMediaType.tsReply,
        await (await pkiFor(deps)).respondTimestamp(new Uint8Array(req.body as Buffer)),
        'no-store',
      ),
    );
  },
};
