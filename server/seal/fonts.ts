/**
 * The two faces the seals are drawn with, both open-licensed (SIL OFL 1.1) and installed by `npm install`:
 * Noto Serif SC (a Song face) for Chinese, Arimo (metrics of Arial, the face the invoice-seal rules name
 * for the taxpayer number) for Latin digits and letters. Text becomes glyph outlines, so no output needs a
 * font.
 */
import { createRequire } from 'node:module';

/** One outline command in font units (y up), as fontkit gives it. */
export interface FontPathCommand {
  command: 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath';
  args: number[];
}

interface FontkitGlyph {
  id: number;
  advanceWidth: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  path: { commands: FontPathCommand[] };
}

interface FontkitFont {
  unitsPerEm: number;
  'OS/2': { typoAscender: number; typoDescender: number; capHeight: number };
  hasGlyphForCodePoint(cp: number): boolean;
  glyphForCodePoint(cp: number): FontkitGlyph;
}

interface Fontkit {
  openSync(path: string): FontkitFont;
}

/** A glyph ready to place: outline and ink box in font units, advance, and the face's reference box. */
export interface GlyphOutline {
  char: string;
  commands: FontPathCommand[];
  advance: number;
  ink: { minX: number; minY: number; maxX: number; maxY: number };
  /** Vertical extent (font units) that the layout maps onto the cell height: the ideographic em box for
   * Chinese, baseline to cap height for Latin. */
  boxBottom: number;
  boxTop: number;
}

export type FaceName = 'song' | 'latin';

const require = createRequire(import.meta.url);

// Bold: seal type is heavy; the regular weight looks thin and hand-drawn at 4 mm.
const FACE_FILES: Record<FaceName, string> = {
  song: '@expo-google-fonts/noto-serif-sc/700Bold/NotoSerifSC_700Bold.ttf',
  latin: '@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf',
};

const fonts = new Map<FaceName, FontkitFont>();
const glyphCache = new Map<string, GlyphOutline>();

function face(name: FaceName): FontkitFont {
  let font = fonts.get(name);
  if (!font) {
    const fontkit = require('fontkit') as Fontkit;
    font = fontkit.openSync(require.resolve(FACE_FILES[name]));
    fonts.set(name, font);
  }
  return font;
}

/** Whether the face has a real glyph for this character (not the .notdef box). */
export function hasGlyph(faceName: FaceName, char: string): boolean {
  const cp = char.codePointAt(0);
  return cp !== undefined && face(faceName).hasGlyphForCodePoint(cp);
}

/** The outline of one character; cached, since seals reuse a few hundred characters. */
export function glyphOutline(faceName: FaceName, char: string): GlyphOutline {
  const key = `${faceName}:${char}`;
  const cached = glyphCache.get(key);
  if (cached) return cached;
  const font = face(faceName);
  const glyph = font.glyphForCodePoint(char.codePointAt(0) ?? 0);
  const os2 = font['OS/2'];
  const outline: GlyphOutline = {
    char,
    commands: glyph.path.commands.map((c) => ({ command: c.command, args: [...c.args] })),
    advance: glyph.advanceWidth,
    ink: { ...glyph.bbox },
    boxBottom: faceName === 'song' ? os2.typoDescender : 0,
    boxTop: faceName === 'song' ? os2.typoAscender : os2.capHeight,
  };
  glyphCache.set(key, outline);
  return outline;
}

/** Opens both faces now, so that the first seal of a process is not slower than the others. */
export function warmUpSealFonts(): void {
  face('song');
  face('latin');
}
