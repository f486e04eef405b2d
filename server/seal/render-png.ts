/** The seal as PNG, rasterised from the very SVG the browser gets. */
import { createRequire } from 'node:module';
import type { Resvg as ResvgClass } from '@resvg/resvg-js';
import { layoutSeal } from './layout.ts';
import { layoutToSvg } from './render-svg.ts';
import type { SealDef } from './seal-def.ts';

// The native rasteriser loads on the first PNG rather than at server start (a PNG is drawn when a seal is
// saved, not on most requests); require keeps svgToPng synchronous.
const require = createRequire(import.meta.url);
let Resvg: typeof ResvgClass | undefined;
function loadResvg(): typeof ResvgClass {
  Resvg ??= (require('@resvg/resvg-js') as { Resvg: typeof ResvgClass }).Resvg;
  return Resvg;
}

interface PngOptions {
  /** Dots per inch at the seal's real size; 300 unless told (a 40 mm seal is then 472 px). */
  dpi?: number;
}

/** Rasterises an SVG of `widthMm` to a PNG with a transparent background. */
export function svgToPng(svg: string, widthMm: number, dpi: number): Uint8Array {
  const px = Math.max(1, Math.round((widthMm / 25.4) * dpi));
  const renderer = new (loadResvg())(svg, {
    fitTo: { mode: 'width', value: px },
    // The SVG holds outlines only; skipping the system font scan keeps this fast and machine-independent.
    font: { loadSystemFonts: false },
  });
  return new Uint8Array(renderer.render().asPng());
}

/**
 * The seal as a PNG at `dpi` (default 300), anti-aliased red ink on a transparent background. Refuses
 * what layoutSeal refuses, and a dpi outside 36..1200.
 */
export function renderSealPng(def: SealDef, options: PngOptions = {}): Uint8Array {
  const dpi = options.dpi ?? 300;
  if (!(dpi >= 36 && dpi <= 1200)) throw new RangeError(`dpi out of range (36..1200): ${dpi}`);
  const layout = layoutSeal(def);
  return svgToPng(layoutToSvg(layout), layout.width, dpi);
}
