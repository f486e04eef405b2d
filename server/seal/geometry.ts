/**
 * Plane geometry for the seal layout, in millimetres with the origin at the top left and y pointing down
 * (the SVG convention; the PDF writer flips once with its matrix).
 */
import type { FontPathCommand, GlyphOutline } from './fonts.ts';

export interface Point {
  x: number;
  y: number;
}

/** One path segment with absolute coordinates. */
export type Segment =
  | ['M', number, number]
  | ['L', number, number]
  | ['Q', number, number, number, number]
  | ['C', number, number, number, number, number, number]
  | ['Z'];

/** Affine map x' = a·x + c·y + e, y' = b·x + d·y + f. */
interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

function apply(m: Affine, x: number, y: number): Point {
  return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
}

/**
 * The map from a glyph's font units into a cell of `width` × `height` mm whose centre sits at (cx, cy),
 * turned by `angle` radians (clockwise on the page). The glyph's advance fills the width and its reference
 * box (em box or cap height) fills the height.
 */
export function glyphToCell(
  g: GlyphOutline,
  cx: number,
  cy: number,
  width: number,
  height: number,
  angle: number,
): Affine {
  const sx = width / g.advance;
  const sy = -height / (g.boxTop - g.boxBottom);
  const ox = -g.advance / 2;
  const oy = -(g.boxTop + g.boxBottom) / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // local = (sx·(x+ox), sy·(y+oy)); page = R·local + (cx, cy)
  return {
    a: cos * sx,
    b: sin * sx,
    c: -sin * sy,
    d: cos * sy,
    e: cos * sx * ox - sin * sy * oy + cx,
    f: sin * sx * ox + cos * sy * oy + cy,
  };
}

/** The glyph outline mapped onto the page. */
export function transformOutline(commands: readonly FontPathCommand[], m: Affine): Segment[] {
  const out: Segment[] = [];
  for (const { command, args } of commands) {
    switch (command) {
      case 'moveTo': {
        const p = apply(m, args[0], args[1]);
        out.push(['M', p.x, p.y]);
        break;
      }
      case 'lineTo': {
        const p = apply(m, args[0], args[1]);
        out.push(['L', p.x, p.y]);
        break;
      }
      case 'quadraticCurveTo': {
        const c = apply(m, args[0], args[1]);
        const p = apply(m, args[2], args[3]);
        out.push(['Q', c.x, c.y, p.x, p.y]);
        break;
      }
      case 'bezierCurveTo': {
        const c1 = apply(m, args[0], args[1]);
        const c2 = apply(m, args[2], args[3]);
        const p = apply(m, args[4], args[5]);
        out.push(['C', c1.x, c1.y, c2.x, c2.y, p.x, p.y]);
        break;
      }
      case 'closePath':
        out.push(['Z']);
        break;
    }
  }
  return out;
}

function project(poly: readonly Point[], nx: number, ny: number): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of poly) {
    const v = p.x * nx + p.y * ny;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/**
 * Whether two convex polygons are at least `gap` apart along one of their edge normals (separating axis
 * test). With gap 0 this is exactly "disjoint or touching"; with a gap it is conservative.
 */
export function convexSeparated(p: readonly Point[], q: readonly Point[], gap = 0): boolean {
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i];
      const b = poly[(i + 1) % poly.length];
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      if (len === 0) continue;
      const nx = -(b.y - a.y) / len;
      const ny = (b.x - a.x) / len;
      const [pMin, pMax] = project(p, nx, ny);
      const [qMin, qMax] = project(q, nx, ny);
      if (pMax + gap <= qMin || qMax + gap <= pMin) return true;
    }
  }
  return false;
}

/** Whether every point lies inside the ellipse centred at (cx, cy) with semi-axes rx, ry. */
export function insideEllipse(
  points: readonly Point[],
  cx: number,
  cy: number,
  rx: number,
  ry: number,
): boolean {
  return points.every((p) => ((p.x - cx) / rx) ** 2 + ((p.y - cy) / ry) ** 2 <= 1);
}

/**
 * Regular five-pointed star with one tip up: its outline and the convex pieces (inner pentagon and five
 * tips) that collision tests use.
 */
export function fivePointedStar(cx: number, cy: number, outerRadius: number) {
  // Inner radius of a regular pentagram: R·sin 18° / sin 54°.
  const inner = (outerRadius * Math.sin(Math.PI / 10)) / Math.sin((3 * Math.PI) / 10);
  const vertices: Point[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outerRadius : inner;
    const t = (i * Math.PI) / 5;
    vertices.push({ x: cx + r * Math.sin(t), y: cy - r * Math.cos(t) });
  }
  const tips = vertices.filter((_, i) => i % 2 === 0);
  const notches = vertices.filter((_, i) => i % 2 === 1);
  const pieces: Point[][] = [notches];
  for (let i = 0; i < 5; i++) pieces.push([notches[(i + 4) % 5], tips[i], notches[i]]);
  const segments: Segment[] = vertices.map(
    (v, i) => (i === 0 ? ['M', v.x, v.y] : ['L', v.x, v.y]) as Segment,
  );
  segments.push(['Z']);
  return { tips, pieces, segments };
}
