/** The seal as SVG: what the browser shows and what the PNG is rasterised from. */
import type { Segment } from './geometry.ts';
import { layoutSeal, SEAL_RED, type SealLayout } from './layout.ts';
import type { SealDef } from './seal-def.ts';

/** Millimetres with two decimals (10 µm): far below what any printer or screen resolves. */
export function mm(v: number): string {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

function segmentsToPathData(segments: readonly Segment[]): string {
  const parts: string[] = [];
  for (const s of segments) {
    switch (s[0]) {
      case 'M':
      case 'L':
        parts.push(`${s[0]}${mm(s[1])} ${mm(s[2])}`);
        break;
      case 'Q':
        parts.push(`Q${mm(s[1])} ${mm(s[2])} ${mm(s[3])} ${mm(s[4])}`);
        break;
      case 'C':
        parts.push(`C${mm(s[1])} ${mm(s[2])} ${mm(s[3])} ${mm(s[4])} ${mm(s[5])} ${mm(s[6])}`);
        break;
      case 'Z':
        parts.push('Z');
        break;
    }
  }
  return parts.join('');
}

/** SVG of a computed layout; no font, no background, sized in mm. */
export function layoutToSvg(layout: SealLayout): string {
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${mm(layout.width)}mm" height="${mm(layout.height)}mm" viewBox="0 0 ${mm(layout.width)} ${mm(layout.height)}">`,
  ];
  for (const r of layout.rings) {
    if (r.kind === 'ellipse') {
      out.push(
        `<ellipse cx="${mm(r.cx)}" cy="${mm(r.cy)}" rx="${mm(r.rx)}" ry="${mm(r.ry)}" fill="none" stroke="${SEAL_RED}" stroke-width="${mm(r.strokeWidth)}"/>`,
      );
    } else {
      out.push(
        `<rect x="${mm(r.x)}" y="${mm(r.y)}" width="${mm(r.width)}" height="${mm(r.height)}" fill="none" stroke="${SEAL_RED}" stroke-width="${mm(r.strokeWidth)}"/>`,
      );
    }
  }
  const fills: string[] = [];
  if (layout.star) fills.push(segmentsToPathData(layout.star.segments));
  for (const g of layout.glyphs) fills.push(segmentsToPathData(g.segments));
  out.push(`<path fill="${SEAL_RED}" d="${fills.join('')}"/>`);
  out.push('</svg>');
  return out.join('');
}

/**
 * The seal as an SVG string for the browser: vector, glyphs as outlines (no font needed), transparent
 * background, `width`/`height` in mm so that it prints at its real size. Refuses what layoutSeal refuses.
 */
export function renderSealSvg(def: SealDef): string {
  return layoutToSvg(layoutSeal(def));
}
