import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PDFJS_ASSETS_PATH } from '#contract/transport.ts';

/** The folders of pdfjs-dist the viewer asks for at run time, as the installed version ships them. */
const FOLDERS = ['cmaps', 'standard_fonts', 'wasm', 'iccs'] as const;

/**
 * pdf.js data files for documents that need them: the Adobe CMaps of CJK fonts that are not embedded (many
 * Chinese PDFs name SimSun or STSong with a UniGB CMap and carry no glyphs), the 14 standard fonts, the
 * image decoders' WebAssembly and ICC profiles. Served from the installed pdfjs-dist under /v1 (the dev
 * server proxies /v1), so they always match the library version the client bundles.
 */
export function registerPdfJsAssets(app: FastifyInstance): void {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  for (const folder of FOLDERS) {
    void app.register(fastifyStatic, {
      root: join(root, folder),
      prefix: `${PDFJS_ASSETS_PATH}/${folder}/`,
      decorateReply: false,
      index: false,
      cacheControl: false,
      setHeaders(res) {
        res.header('cache-control', 'public, max-age=86400');
      },
    });
  }
}
