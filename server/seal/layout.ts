/**
 * The one layout of a seal: rings, star and glyph outlines in millimetres (SEALS.md). Every output (SVG,
 * PNG, PDF) draws exactly these primitives, so they cannot disagree.
 */
import { SealType } from '#contract/enums.ts';
import { type FaceName, type GlyphOutline, glyphOutline } from './fonts.ts';
import {
  convexSeparated,
  fivePointedStar,
  glyphToCell,
  insideEllipse,
  type Point,
  type Segment,
  transformOutline,
} from './geometry.ts';
import { type CheckedSealDef, checkSealDef, type SealDef } from './seal-def.ts';
import { SealError, SealErrorCode } from './seal-errors.ts';
import { countOf } from '#contract/plural.ts';

/** Seal red (GB/T ink red as printed by most e-seal platforms). */
export const SEAL_RED = '#e60012';

/** A stroked ring, centred on the stroke: an ellipse (a circle when rx = ry) or a rectangle. */
type Ring =
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number; strokeWidth: number }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; strokeWidth: number };

type GlyphRole = 'name' | 'title' | 'number' | 'code';

/** One character as placed: its cell and ink box (convex quadrilaterals, page mm) and its outline. */
export interface PlacedGlyph {
  char: string;
  role: GlyphRole;
  cell: Point[];
  ink: Point[];
  segments: Segment[];
}

export interface SealLayout {
  form: 'round' | 'oval' | 'square';
  /** Page size in mm; the seal fills it exactly. */
  width: number;
  height: number;
  centre: Point;
  rings: Ring[];
  star: { tips: Point[]; segments: Segment[] } | null;
  glyphs: PlacedGlyph[];
  /** How the name arc came out: span in degrees and character size in mm (null on square seals). */
  nameArc: { spanDeg: number; charHeight: number; charWidth: number } | null;
}

interface CellPlace {
  x: number;
  y: number;
  angle: number;
}

function cellCorners(p: CellPlace, w: number, h: number): Point[] {
  const cos = Math.cos(p.angle);
  const sin = Math.sin(p.angle);
  const corner = (lx: number, ly: number): Point => ({
    x: p.x + cos * lx - sin * ly,
    y: p.y + sin * lx + cos * ly,
  });
  return [corner(-w / 2, -h / 2), corner(w / 2, -h / 2), corner(w / 2, h / 2), corner(-w / 2, h / 2)];
}

function placeGlyph(face: FaceName, char: string, role: GlyphRole, p: CellPlace, w: number, h: number) {
  const g: GlyphOutline = glyphOutline(face, char);
  const m = glyphToCell(g, p.x, p.y, w, h, p.angle);
  const ink = g.ink;
  const corners = [
    { x: ink.minX, y: ink.minY },
    { x: ink.maxX, y: ink.minY },
    { x: ink.maxX, y: ink.maxY },
    { x: ink.minX, y: ink.maxY },
  ].map((c) => ({ x: m.a * c.x + m.c * c.y + m.e, y: m.b * c.x + m.d * c.y + m.f }));
  return { char, role, cell: cellCorners(p, w, h), ink: corners, segments: transformOutline(g.commands, m) };
}

// ---------------------------------------------------------------- text along an ellipse

/** Arc length along an ellipse x = a·sin t, y = ∓b·cos t, tabulated from t = 0 to π. */
class EllipseArc {
  private static readonly STEPS = 720;
  private readonly lengths: Float64Array;
  readonly a: number;
  readonly b: number;

  constructor(a: number, b: number) {
    this.a = a;
    this.b = b;
    const n = EllipseArc.STEPS;
    this.lengths = new Float64Array(n + 1);
    const dt = Math.PI / n;
    for (let i = 1; i <= n; i++) {
      const t = (i - 0.5) * dt;
      this.lengths[i] = this.lengths[i - 1] + Math.hypot(a * Math.cos(t), b * Math.sin(t)) * dt;
    }
  }

  /** Length from the top (or bottom) point to parameter t, 0 ≤ t ≤ π. */
  lengthTo(t: number): number {
    const f = (Math.min(Math.max(t, 0), Math.PI) / Math.PI) * EllipseArc.STEPS;
    const i = Math.min(Math.floor(f), EllipseArc.STEPS - 1);
    return this.lengths[i] + (this.lengths[i + 1] - this.lengths[i]) * (f - i);
  }

  /** Parameter t at which the length from the top reaches `len`. */
  paramAt(len: number): number {
    const ls = this.lengths;
    let lo = 0;
    let hi = EllipseArc.STEPS;
    if (len >= ls[hi]) return Math.PI;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ls[mid] <= len) lo = mid;
      else hi = mid;
    }
    const f = lo + (len - ls[lo]) / (ls[hi] - ls[lo] || 1);
    return (f / EllipseArc.STEPS) * Math.PI;
  }

  /**
   * Places n equal slots, each `slot` mm long, symmetric about the top (or bottom) of the ellipse centred
   * at (cx, cy), left to right. On top the characters' heads point outwards; at the bottom, inwards.
   */
  slots(cx: number, cy: number, n: number, slot: number, side: 'top' | 'bottom'): CellPlace[] {
    const out: CellPlace[] = [];
    const sign = side === 'top' ? -1 : 1;
    for (let i = 0; i < n; i++) {
      const s = (i + 0.5 - n / 2) * slot;
      const t = Math.sign(s) * this.paramAt(Math.abs(s));
      const x = cx + this.a * Math.sin(t);
      const y = cy + sign * this.b * Math.cos(t);
      // Tangent direction, left to right.
      const tx = this.a * Math.cos(t);
      const ty = -sign * this.b * Math.sin(t);
      out.push({ x, y, angle: Math.atan2(ty, tx) });
    }
    return out;
  }
}

interface ArcRules {
  /** Semi-axes of the ring's inner edge. */
  aIn: number;
  bIn: number;
  /** Gap between the ring's inner edge and the top of the characters. */
  margin: number;
  /** Least gap between neighbouring characters. */
  gap: number;
  /** Nominal character height and the least legible one. */
  height: number;
  minHeight: number;
  /** Width / height: nominal and the narrowest still legible; and an absolute least width. */
  aspect: number;
  minAspect: number;
  minWidth: number;
  /** Span of the arc in degrees: the usual one, the widest allowed. */
  span: number;
  maxSpan: number;
  /** Short names spread at most this many character widths per slot, so they do not scatter. */
  maxSpread: number;
}

interface ArcFit {
  places: CellPlace[];
  width: number;
  height: number;
  spanDeg: number;
}

/**
 * Finds how a name fits on the upper arc: first at the usual span by narrowing, then shrinking the
 * characters to the legible minimum; only then does the span grow. Null when even that fails.
 */
function fitNameArc(
  n: number,
  cx: number,
  cy: number,
  rules: ArcRules,
  obstacles: readonly Point[][],
): ArcFit | null {
  const arcs = new Map<number, EllipseArc>();
  const arcFor = (h: number): EllipseArc => {
    const key = Math.round(h * 1000);
    let arc = arcs.get(key);
    if (!arc) {
      const off = rules.margin + h / 2;
      arc = new EllipseArc(rules.aIn - off, rules.bIn - off);
      arcs.set(key, arc);
    }
    return arc;
  };
  const containA = rules.aIn - rules.margin / 2;
  const containB = rules.bIn - rules.margin / 2;

  const attempt = (h: number, w: number, spanDeg: number): ArcFit | null => {
    const arc = arcFor(h);
    const full = 2 * arc.lengthTo(((spanDeg / 2) * Math.PI) / 180);
    const slot = Math.min(full / n, w * rules.maxSpread);
    const places = arc.slots(cx, cy, n, slot, 'top');
    const cells = places.map((p) => cellCorners(p, w, h));
    for (let i = 0; i < n; i++) {
      if (!insideEllipse(cells[i], cx, cy, containA, containB)) return null;
      if (i > 0 && !convexSeparated(cells[i - 1], cells[i], rules.gap)) return null;
      for (const o of obstacles) if (!convexSeparated(cells[i], o, rules.gap * 2)) return null;
    }
    if (n > 2 && !convexSeparated(cells[0], cells[n - 1], rules.gap)) return null;
    const spanDeg2 = ((2 * arc.paramAt((n * slot) / 2)) / Math.PI) * 180;
    return { places, width: w, height: h, spanDeg: spanDeg2 };
  };

  const heights: number[] = [];
  for (let i = 0; rules.height - i * 0.1 > rules.minHeight + 1e-9; i++) heights.push(rules.height - i * 0.1);
  heights.push(rules.minHeight);
  for (let span = rules.span; span <= rules.maxSpan + 1e-9; span += 2) {
    for (const h of heights) {
      const wLo = Math.max(h * rules.minAspect, rules.minWidth);
      const wHi = h * rules.aspect;
      if (wLo > wHi) continue;
      let best = attempt(h, wLo, span);
      if (!best) continue;
      let lo = wLo;
      let hi = wHi;
      const top = attempt(h, wHi, span);
      if (top) return top;
      for (let k = 0; k < 10; k++) {
        const mid = (lo + hi) / 2;
        const fit = attempt(h, mid, span);
        if (fit) {
          best = fit;
          lo = mid;
        } else hi = mid;
      }
      return best;
    }
  }
  return null;
}

/** Places a line of characters centred at (cx, y), equal slots of `slot` mm. */
function horizontalLine(n: number, cx: number, y: number, slot: number): CellPlace[] {
  return Array.from({ length: n }, (_, i) => ({ x: cx + (i + 0.5 - n / 2) * slot, y, angle: 0 }));
}

function tooLong(n: number, max: number): SealError {
  return new SealError(SealErrorCode.NameTooLong, {
    zh: `公司名称太长，印章上排不下：此印章最多可容纳 ${max} 个字（现有 ${n} 个），请使用规范简称`,
    en: `The company name is too long for this seal: at most ${countOf(max, 'character', 'characters')} fit (it has ${n}). Use the registered short name.`,
  });
}

function nameOnArc(
  chars: string[],
  cx: number,
  cy: number,
  rules: ArcRules,
  obstacles: Point[][],
): { glyphs: PlacedGlyph[]; arc: ArcFit } {
  const fit = fitNameArc(chars.length, cx, cy, rules, obstacles);
  if (!fit) {
    let max = chars.length - 1;
    while (max > 1 && !fitNameArc(max, cx, cy, rules, obstacles)) max--;
    throw tooLong(chars.length, max);
  }
  const glyphs = chars.map((ch, i) => placeGlyph('song', ch, 'name', fit.places[i], fit.width, fit.height));
  return { glyphs, arc: fit };
}

/** Latin characters at the bottom inner edge, heads towards the centre. */
function codeOnBottomArc(
  code: string,
  cx: number,
  cy: number,
  aIn: number,
  bIn: number,
  margin: number,
  height: number,
  slot: number,
): PlacedGlyph[] {
  const chars = [...code];
  const off = margin + height / 2;
  const arc = new EllipseArc(aIn - off, bIn - off);
  const places = arc.slots(cx, cy, chars.length, slot, 'bottom');
  return chars.map((ch, i) => {
    const g = glyphOutline('latin', ch);
    // Latin advances differ; a fixed scale keeps strokes even and centres each in its slot.
    const w = (g.advance * height * 0.62) / (g.boxTop - g.boxBottom);
    return placeGlyph('latin', ch, 'code', places[i], w, height);
  });
}

function titleLine(
  text: string,
  cx: number,
  y: number,
  height: number,
  width: number,
  gap: number,
  maxWidth: number,
) {
  const chars = [...text];
  const n = chars.length;
  const w = Math.min(width, (maxWidth - gap * (n - 1)) / n);
  if (w < height * 0.45) {
    throw new SealError(SealErrorCode.PurposeTooLong, {
      zh: '印章用途文字太长，排不进印章下方',
      en: 'The seal purpose is too long to fit across the bottom of the seal.',
    });
  }
  const places = horizontalLine(n, cx, y, w + gap);
  return chars.map((ch, i) => placeGlyph('song', ch, 'title', places[i], w, height));
}

// ---------------------------------------------------------------- the forms

/** Sizes of the round seals (diameter and border in mm), SEALS.md. */
const ROUND_SIZES: Partial<Record<SealType, { diameter: number; border: number }>> = {
  [SealType.Official]: { diameter: 40, border: 1.2 },
  [SealType.Contract]: { diameter: 40, border: 1.2 },
  [SealType.Finance]: { diameter: 38, border: 1 },
  [SealType.HR]: { diameter: 38, border: 1 },
  [SealType.Other]: { diameter: 38, border: 1 },
};

function roundSeal(def: Extract<CheckedSealDef, { form: 'round' }>): SealLayout {
  const { diameter, border } = ROUND_SIZES[def.sealType] ?? { diameter: 40, border: 1.2 };
  const k = diameter / 40;
  const R = diameter / 2;
  const c = R;
  const rIn = R - border;
  const rings: Ring[] = [
    { kind: 'ellipse', cx: c, cy: c, rx: R - border / 2, ry: R - border / 2, strokeWidth: border },
  ];
  const obstacles: Point[][] = [];
  let star: SealLayout['star'] = null;
  if (def.hasStar) {
    // 14 mm across the circumscribed circle on a 40 mm seal.
    const s = fivePointedStar(c, c, 7 * k);
    star = { tips: s.tips, segments: s.segments };
    obstacles.push(...s.pieces);
  }
  const glyphs: PlacedGlyph[] = [];
  if (def.title) {
    const t = titleLine(def.title, c, c + 9.2 * k, 4.6 * k, 3.7 * k, 0.35 * k, 24 * k);
    glyphs.push(...t);
    obstacles.push(...t.map((g) => g.cell));
  }
  if (def.antiCounterfeitNo) {
    const code = codeOnBottomArc(def.antiCounterfeitNo, c, c, rIn, rIn, 0.5 * k, 1.8 * k, 1.35 * k);
    glyphs.push(...code);
    obstacles.push(...code.map((g) => g.cell));
  }
  const name = nameOnArc([...def.name], c, c, roundArcRules(rIn, k), obstacles);
  glyphs.unshift(...name.glyphs);
  return {
    form: 'round',
    width: diameter,
    height: diameter,
    centre: { x: c, y: c },
    rings,
    star,
    glyphs,
    nameArc: { spanDeg: name.arc.spanDeg, charHeight: name.arc.height, charWidth: name.arc.width },
  };
}

function roundArcRules(rIn: number, k: number): ArcRules {
  return {
    aIn: rIn,
    bIn: rIn,
    margin: 0.8 * k,
    gap: 0.3 * k,
    height: 6.4 * k,
    minHeight: 4.8 * k,
    aspect: 0.8,
    minAspect: 0.5,
    minWidth: 2.2 * k,
    span: 250,
    maxSpan: 290,
    maxSpread: 1.9,
  };
}

function ovalSeal(def: Extract<CheckedSealDef, { form: 'oval' }>): SealLayout {
  const W = 40;
  const H = 30;
  const border = 1;
  const cx = W / 2;
  const cy = H / 2;
  const aIn = W / 2 - border;
  const bIn = H / 2 - border;
  const rings: Ring[] = [
    { kind: 'ellipse', cx, cy, rx: W / 2 - border / 2, ry: H / 2 - border / 2, strokeWidth: border },
  ];
  const glyphs: PlacedGlyph[] = [];
  // Taxpayer number across the middle: Arial-metric bold, digits 3.7 mm high and about 1.3 mm wide.
  const numberHeight = 3.7;
  const digitSlot = 1.42;
  const chars = [...def.taxpayerNumber];
  const places = horizontalLine(chars.length, cx, cy, digitSlot);
  glyphs.push(...chars.map((ch, i) => placeGlyph('latin', ch, 'number', places[i], 1.3, numberHeight)));
  glyphs.push(...titleLine(def.title, cx, cy + 6.6, 4.6, 3.0, 0.5, 20));
  if (def.antiCounterfeitNo) {
    glyphs.push(...codeOnBottomArc(def.antiCounterfeitNo, cx, cy, aIn, bIn, 0.4, 1.6, 1.2));
  }
  const rules: ArcRules = {
    aIn,
    bIn,
    margin: 0.5,
    gap: 0.25,
    height: 4.2,
    minHeight: 3.6,
    aspect: 0.72,
    minAspect: 0.5,
    minWidth: 1.9,
    span: 210,
    maxSpan: 260,
    // The rules give the arc as 210–260°: short names spread wide rather than bunch at the top.
    maxSpread: 3.2,
  };
  const name = nameOnArc(
    [...def.name],
    cx,
    cy,
    rules,
    glyphs.map((g) => g.cell),
  );
  glyphs.unshift(...name.glyphs);
  return {
    form: 'oval',
    width: W,
    height: H,
    centre: { x: cx, y: cy },
    rings,
    star: null,
    glyphs,
    nameArc: { spanDeg: name.arc.spanDeg, charHeight: name.arc.height, charWidth: name.arc.width },
  };
}

function squareSeal(def: Extract<CheckedSealDef, { form: 'square' }>): SealLayout {
  const size = def.holder === 'legal-person' ? 20 : 18;
  const k = size / 20;
  const border = 1 * k;
  const margin = 0.7 * k;
  const gap = 0.6 * k;
  const name = [...def.name];
  // Two columns need an even count: 张三 → 张三之印, 张三丰 → 张三丰印.
  const chars = [...name, ...(name.length % 2 === 0 ? ['之', '印'] : ['印'])];
  const rows = chars.length / 2;
  const inner = size - 2 * border - 2 * margin;
  const w = (inner - gap) / 2;
  const h = (inner - gap * (rows - 1)) / rows;
  const x0 = border + margin;
  const glyphs = chars.map((ch, i) => {
    // Read right to left: the first column is the right one.
    const col = Math.floor(i / rows);
    const row = i % rows;
    const x = x0 + inner - w / 2 - col * (w + gap);
    const y = x0 + h / 2 + row * (h + gap);
    return placeGlyph('song', ch, 'name', { x, y, angle: 0 }, w, h);
  });
  return {
    form: 'square',
    width: size,
    height: size,
    centre: { x: size / 2, y: size / 2 },
    rings: [
      {
        kind: 'rect',
        x: border / 2,
        y: border / 2,
        width: size - border,
        height: size - border,
        strokeWidth: border,
      },
    ],
    star: null,
    glyphs,
    nameArc: null,
  };
}

/**
 * Lays a seal out per SEALS.md. Refuses (SealError) what checkSealDef refuses, and a name or purpose that
 * cannot fit legibly without overlapping (the message says how many characters fit).
 */
export function layoutSeal(def: SealDef): SealLayout {
  const checked = checkSealDef(def);
  switch (checked.form) {
    case 'round':
      return roundSeal(checked);
    case 'oval':
      return ovalSeal(checked);
    case 'square':
      return squareSeal(checked);
  }
}
