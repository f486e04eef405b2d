/**
 * The seal as a one-page vector PDF, made once when the seal is created. The signing code embeds its page
 * as a form XObject (`embedPdf` / `embedPage`) for the visible signature, instead of an image each time.
 */
import { deflateSync } from 'node:zlib';
// pdf-lib (with culori, which it loads) is imported where a PDF is made, not at the top: loading it costs
// about half a second of CPU, which the server's start does not need.
import type { Segment } from './geometry.ts';
import { layoutSeal, SEAL_RED, type SealLayout } from './layout.ts';
import { mm } from './render-svg.ts';
import type { SealDef } from './seal-def.ts';
import { PT_PER_MM } from '#contract/rules/document.ts';
// Four cubic Béziers approximate a quarter ellipse within 0.03 %.
const KAPPA = 0.5522847498;

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
    .map((c) => String(Math.round((c / 255) * 1000) / 1000))
    .join(' ');
}

function pathOps(segments: readonly Segment[], out: string[]): void {
  let cx = 0;
  let cy = 0;
  for (const s of segments) {
    switch (s[0]) {
      case 'M':
        out.push(`${mm(s[1])} ${mm(s[2])} m`);
        [cx, cy] = [s[1], s[2]];
        break;
      case 'L':
        out.push(`${mm(s[1])} ${mm(s[2])} l`);
        [cx, cy] = [s[1], s[2]];
        break;
      case 'Q': {
        // PDF has cubic curves only; a quadratic is the cubic with controls at 2/3 towards its control.
        const [qx, qy, x, y] = [s[1], s[2], s[3], s[4]];
        const c1x = cx + (2 / 3) * (qx - cx);
        const c1y = cy + (2 / 3) * (qy - cy);
        const c2x = x + (2 / 3) * (qx - x);
        const c2y = y + (2 / 3) * (qy - y);
        out.push(`${mm(c1x)} ${mm(c1y)} ${mm(c2x)} ${mm(c2y)} ${mm(x)} ${mm(y)} c`);
        [cx, cy] = [x, y];
        break;
      }
      case 'C':
        out.push(`${mm(s[1])} ${mm(s[2])} ${mm(s[3])} ${mm(s[4])} ${mm(s[5])} ${mm(s[6])} c`);
        [cx, cy] = [s[5], s[6]];
        break;
      case 'Z':
        out.push('h');
        break;
    }
  }
}

function ellipseOps(cx: number, cy: number, rx: number, ry: number, out: string[]): void {
  const kx = rx * KAPPA;
  const ky = ry * KAPPA;
  out.push(`${mm(cx + rx)} ${mm(cy)} m`);
  out.push(`${mm(cx + rx)} ${mm(cy + ky)} ${mm(cx + kx)} ${mm(cy + ry)} ${mm(cx)} ${mm(cy + ry)} c`);
  out.push(`${mm(cx - kx)} ${mm(cy + ry)} ${mm(cx - rx)} ${mm(cy + ky)} ${mm(cx - rx)} ${mm(cy)} c`);
  out.push(`${mm(cx - rx)} ${mm(cy - ky)} ${mm(cx - kx)} ${mm(cy - ry)} ${mm(cx)} ${mm(cy - ry)} c`);
  out.push(`${mm(cx + kx)} ${mm(cy - ry)} ${mm(cx + rx)} ${mm(cy - ky)} ${mm(cx + rx)} ${mm(cy)} c`);
  out.push('h');
}

/** The page content of a layout: one matrix maps mm with y down onto points, then the same numbers as the SVG. */
function layoutToPdfContent(layout: SealLayout): string {
  const colour = rgb(SEAL_RED);
  const out: string[] = ['q', `${PT_PER_MM} 0 0 ${-PT_PER_MM} 0 ${layout.height * PT_PER_MM} cm`];
  out.push(`${colour} rg`, `${colour} RG`);
  for (const r of layout.rings) {
    out.push(`${mm(r.strokeWidth)} w`);
    if (r.kind === 'ellipse') ellipseOps(r.cx, r.cy, r.rx, r.ry, out);
    else out.push(`${mm(r.x)} ${mm(r.y)} ${mm(r.width)} ${mm(r.height)} re`);
    out.push('S');
  }
  if (layout.star) pathOps(layout.star.segments, out);
  for (const g of layout.glyphs) pathOps(g.segments, out);
  // Glyph outlines use the non-zero winding rule, as in the font and the SVG.
  out.push('f', 'Q');
  return out.join('\n');
}

/** One-page PDF of a computed layout: page = seal size in points, no fill behind the ink, no font. */
export async function layoutToPdf(layout: SealLayout): Promise<Uint8Array> {
  const { PDFDocument, PDFName } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([layout.width * PT_PER_MM, layout.height * PT_PER_MM]);
  // Node's zlib rather than pdf-lib's JavaScript deflate: the same bytes format, several times faster.
  const content = deflateSync(Buffer.from(layoutToPdfContent(layout), 'latin1'));
  const stream = doc.context.stream(new Uint8Array(content), { Filter: 'FlateDecode' });
  page.node.addContentStream(doc.context.register(stream));
  // pdf-lib starts a page with empty Font and XObject dictionaries; the seal uses neither.
  page.node.set(PDFName.of('Resources'), doc.context.obj({}));
  return doc.save({ useObjectStreams: false });
}

/**
 * The seal as a small one-page vector PDF whose page is exactly the seal (e.g. 40 mm = 113.39 pt square),
 * red paths on a transparent page, no font resource. Refuses what layoutSeal refuses.
 */
export function renderSealPdf(def: SealDef): Promise<Uint8Array> {
  return layoutToPdf(layoutSeal(def));
}

/** A one-page PDF showing a transparent PNG at the given print size (the signer embeds its page). */
export async function pngToPdf(png: Uint8Array, widthMm: number, heightMm: number): Promise<Uint8Array> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([widthMm * PT_PER_MM, heightMm * PT_PER_MM]);
  const image = await doc.embedPng(png);
  page.drawImage(image, { x: 0, y: 0, width: widthMm * PT_PER_MM, height: heightMm * PT_PER_MM });
  return doc.save({ useObjectStreams: false });
}
