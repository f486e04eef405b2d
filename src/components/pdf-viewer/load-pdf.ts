// pdf.js, loaded on first use. The worker is its own asset (Vite `?url`), so the signing room's JS stays
// small and the parser runs off the main thread; the app's CSP allows same-origin and blob: workers.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PDFJS_ASSETS_PATH } from '#contract/transport.ts';
import { frameHeaders } from '@/session/frame-session.ts';

type PdfJs = typeof import('pdfjs-dist');

let pdfjs: Promise<PdfJs> | undefined;

/** The pdf.js module with its worker configured (one import for the whole app). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist').then((mod) => {
    mod.GlobalWorkerOptions.workerSrc = workerUrl;
    return mod;
  });
  return pdfjs;
}

export type LoadedPdf = { doc: PDFDocumentProxy; destroy: () => Promise<void> };

/**
 * Open a PDF from an authenticated GET download URL: cookies go with it (`withCredentials`), and in a frame
 * the session this page holds (frameHeaders); the URL already carries the random `ts` and, in a room, the room
 * token.
 */
export async function openPdf(url: string): Promise<LoadedPdf> {
  const lib = await loadPdfJs();
  const task = lib.getDocument({
    url,
    withCredentials: true,
    httpHeaders: frameHeaders(),
    // Data files served by the server from the same pdfjs-dist (server/modules/document/pdfjs-assets.ts):
    // without the CMaps, text in a non-embedded Chinese font would not show.
    cMapUrl: `${PDFJS_ASSETS_PATH}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_ASSETS_PATH}/standard_fonts/`,
    wasmUrl: `${PDFJS_ASSETS_PATH}/wasm/`,
    iccUrl: `${PDFJS_ASSETS_PATH}/iccs/`,
  });
  const doc = await task.promise;
  return { doc, destroy: () => task.destroy() };
}
