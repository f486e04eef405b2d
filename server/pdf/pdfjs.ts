// pdf.js, the viewer the server reads with where it needs what a page SHOWS rather than what its objects
// say: keyword positions (compose/pdf-tools.ts) and the verifier's visual comparison (verify/visual.ts).
// Loaded once, on first use (it costs a few hundred milliseconds of CPU the server's start does not need).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfjsDocument = Awaited<ReturnType<PdfjsModule['getDocument']>['promise']>;
export type PdfjsPage = Awaited<ReturnType<PdfjsDocument['getPage']>>;

let pdfjs: Promise<PdfjsModule> | undefined;

export function loadPdfjs(): Promise<PdfjsModule> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((m) => {
    m.GlobalWorkerOptions.workerSrc = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return m;
  });
  return pdfjs;
}

const root = dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * Opens `bytes` as a viewer would. With `forRendering`, pdf.js gets the character maps and the standard
 * fonts it draws non-embedded fonts with (CJK text in a non-embedded font is drawn only with the maps).
 */
export async function openPdf(bytes: Uint8Array, forRendering = false): Promise<PdfjsDocument> {
  const lib = await loadPdfjs();
  return lib.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    ...(forRendering
      ? {
          cMapUrl: `${join(root, 'cmaps')}/`,
          cMapPacked: true,
          standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
        }
      : {}),
  }).promise;
}
