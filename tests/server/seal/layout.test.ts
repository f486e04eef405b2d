import { describe, expect, it } from 'vitest';
import { SealType } from '#contract/enums.ts';
import { layoutSeal, type PlacedGlyph, type SealLayout } from '#server/seal/layout.ts';
import type { SealDef } from '#server/seal/seal-def.ts';
import { SealError, SealErrorCode } from '#server/seal/seal-errors.ts';
import { centroid, overlap } from '../fixtures/polygons.ts';

const COMPANY = '上海示例科技有限公司';
const LONG_20 = '中国示例建设工程集团有限公司上海一分公司';

function official(companyName: string, extra: Partial<SealDef> = {}): SealDef {
  return { kind: 'company', sealType: SealType.Official, companyName, ...extra } as SealDef;
}

function refusal(def: SealDef): SealError {
  try {
    layoutSeal(def);
  } catch (e) {
    if (e instanceof SealError) return e;
    throw e;
  }
  throw new Error('the seal was accepted');
}

function expectNoOverlap(glyphs: PlacedGlyph[]) {
  for (let i = 0; i < glyphs.length; i++) {
    for (let j = i + 1; j < glyphs.length; j++) {
      expect(overlap(glyphs[i].ink, glyphs[j].ink), `${glyphs[i].char} and ${glyphs[j].char} overlap`).toBe(
        false,
      );
    }
  }
}

function expectInsideRing(layout: SealLayout) {
  const ring = layout.rings[0];
  if (ring.kind !== 'ellipse') throw new Error('not an ellipse');
  const rx = ring.rx - ring.strokeWidth / 2;
  const ry = ring.ry - ring.strokeWidth / 2;
  for (const g of layout.glyphs) {
    for (const p of g.ink) {
      const d = ((p.x - ring.cx) / rx) ** 2 + ((p.y - ring.cy) / ry) ** 2;
      expect(d, `${g.char} touches the ring`).toBeLessThan(1);
    }
  }
}

const names = (layout: SealLayout) => layout.glyphs.filter((g) => g.role === 'name');

describe('official company seal', () => {
  const layout = layoutSeal(official(COMPANY));

  it('is a 40 mm circle with a border of 1.2 mm', () => {
    expect(layout.width).toBe(40);
    expect(layout.height).toBe(40);
    const ring = layout.rings[0];
    expect(ring.kind).toBe('ellipse');
    if (ring.kind !== 'ellipse') return;
    expect(ring.rx).toBe(ring.ry);
    expect(ring.rx + ring.strokeWidth / 2).toBeCloseTo(20, 6);
    expect(ring.strokeWidth).toBeCloseTo(1.2, 6);
  });

  it('has a five-pointed star in the centre, 14 mm across its tips', () => {
    const tips = layout.star!.tips;
    expect(tips).toHaveLength(5);
    const c = centroid(tips);
    expect(c.x).toBeCloseTo(20, 6);
    expect(c.y).toBeCloseTo(20, 6);
    for (const t of tips) expect(Math.hypot(t.x - 20, t.y - 20) * 2).toBeCloseTo(14, 6);
    // One tip straight up.
    expect(Math.min(...tips.map((t) => t.y))).toBeCloseTo(13, 6);
  });

  it('writes the company name left to right along the upper arc, heads outward, evenly spread', () => {
    const glyphs = names(layout);
    expect(glyphs.map((g) => g.char).join('')).toBe(COMPANY);
    const angles = glyphs.map((g) => {
      const c = centroid(g.cell);
      return (Math.atan2(c.x - 20, 20 - c.y) * 180) / Math.PI; // 0 = top, clockwise
    });
    for (let i = 1; i < angles.length; i++) expect(angles[i]).toBeGreaterThan(angles[i - 1]);
    const steps = angles.slice(1).map((a, i) => a - angles[i]);
    for (const s of steps) expect(s).toBeCloseTo(steps[0], 1);
    expect(angles[0] + angles[angles.length - 1]).toBeCloseTo(0, 3);
    for (const g of glyphs) {
      const c = centroid(g.cell);
      const bottom = centroid([g.cell[2], g.cell[3]]);
      const top = centroid([g.cell[0], g.cell[1]]);
      const up = { x: top.x - bottom.x, y: top.y - bottom.y };
      const radial = { x: c.x - 20, y: c.y - 20 };
      const cos =
        (up.x * radial.x + up.y * radial.y) / (Math.hypot(up.x, up.y) * Math.hypot(radial.x, radial.y));
      expect(cos).toBeGreaterThan(0.999);
    }
  });

  it('leaves a gap at the bottom', () => {
    for (const g of names(layout)) {
      const c = centroid(g.cell);
      const fromBottom = Math.abs((Math.atan2(c.x - 20, c.y - 20) * 180) / Math.PI);
      expect(fromBottom).toBeGreaterThan(45);
    }
  });

  it('keeps every character inside the ring without overlapping another or the star', () => {
    expectInsideRing(layout);
    expectNoOverlap(layout.glyphs);
  });
});

describe('long names', () => {
  it('shrink the characters before the arc grows', () => {
    const usual = layoutSeal(official(COMPANY)).nameArc!;
    const longer = layoutSeal(official('上海示例信息科技发展有限公司')).nameArc!; // 14
    expect(longer.charWidth).toBeLessThan(usual.charWidth);
    expect(longer.spanDeg).toBeCloseTo(250, 0);
  });

  it('fit 20 characters legibly, inside the ring and without overlap', () => {
    const layout = layoutSeal(official(LONG_20, { antiCounterfeitNo: '3101150012345' }));
    expect(names(layout)).toHaveLength(20);
    expect(layout.nameArc!.charHeight).toBeGreaterThanOrEqual(4.8 - 1e-9);
    expect(layout.nameArc!.charWidth).toBeGreaterThanOrEqual(2.2 - 1e-9);
    expectInsideRing(layout);
    expectNoOverlap(layout.glyphs);
  });

  it('grow the arc only once the characters are at the legible minimum', () => {
    const layout = layoutSeal(official(`${LONG_20}浦东新区`));
    expect(layout.nameArc!.spanDeg).toBeGreaterThan(251);
    expect(layout.nameArc!.charHeight).toBeCloseTo(4.8, 6);
    expectNoOverlap(layout.glyphs);
  });

  it('are refused with the number of characters that fit, rather than overlapping', () => {
    const e = refusal(official(`${LONG_20}${LONG_20}`));
    expect(e.code).toBe(SealErrorCode.NameTooLong);
    expect(e.text.zh).toMatch(/最多可容纳 \d+ 个字/);
    expect(e.text.en).toMatch(/at most \d+ characters fit \(it has 40\)/);
  });

  it('are refused on a contract seal, whose title takes the bottom, sooner than on an official seal', () => {
    const name = `${LONG_20}浦东`;
    expect(() => layoutSeal(official(name))).not.toThrow();
    const e = refusal({ kind: 'company', sealType: SealType.Contract, companyName: name });
    expect(e.code).toBe(SealErrorCode.NameTooLong);
  });
});

describe('special-purpose round seals', () => {
  it.each([
    [SealType.Contract, '合同专用章', 40],
    [SealType.Finance, '财务专用章', 38],
    [SealType.HR, '人事专用章', 38],
  ])('type %i carries %s across the bottom on a %i mm circle', (sealType, title, size) => {
    const layout = layoutSeal({
      kind: 'company',
      sealType,
      companyName: COMPANY,
      antiCounterfeitNo: '3101150012345',
    });
    expect(layout.width).toBe(size);
    const titles = layout.glyphs.filter((g) => g.role === 'title');
    expect(titles.map((g) => g.char).join('')).toBe(title);
    const c = layout.centre;
    for (const g of titles) expect(centroid(g.cell).y).toBeGreaterThan(c.y + 5);
    // Left to right on one line.
    const xs = titles.map((g) => centroid(g.cell).x);
    for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeGreaterThan(xs[i - 1]);
    const code = layout.glyphs.filter((g) => g.role === 'code');
    expect(code.map((g) => g.char).join('')).toBe('3101150012345');
    for (const g of code)
      expect(centroid(g.cell).y).toBeGreaterThan(Math.max(...titles.map((t) => centroid(t.cell).y)));
    expectInsideRing(layout);
    expectNoOverlap(layout.glyphs);
  });

  it('type 99 carries the given purpose', () => {
    const layout = layoutSeal({
      kind: 'company',
      sealType: SealType.Other,
      companyName: COMPANY,
      purpose: '投标专用章',
    });
    expect(
      layout.glyphs
        .filter((g) => g.role === 'title')
        .map((g) => g.char)
        .join(''),
    ).toBe('投标专用章');
  });
});

describe('invoice seal', () => {
  const def: SealDef = {
    kind: 'company',
    sealType: SealType.Invoice,
    companyName: COMPANY,
    taxpayerNumber: '91310115ma1h7xkp3c',
    antiCounterfeitNo: '3101150012345',
  };
  const layout = layoutSeal(def);

  it('is a 40 × 30 oval with a 1 mm border', () => {
    expect([layout.width, layout.height]).toEqual([40, 30]);
    const ring = layout.rings[0];
    if (ring.kind !== 'ellipse') throw new Error('not an ellipse');
    expect(ring.rx + ring.strokeWidth / 2).toBeCloseTo(20, 6);
    expect(ring.ry + ring.strokeWidth / 2).toBeCloseTo(15, 6);
    expect(ring.strokeWidth).toBe(1);
    expect(layout.star).toBeNull();
  });

  it('carries the taxpayer number across the middle, about 3.7 mm high, and 发票专用章 below it', () => {
    const number = layout.glyphs.filter((g) => g.role === 'number');
    expect(number.map((g) => g.char).join('')).toBe('91310115MA1H7XKP3C');
    const ys = number.flatMap((g) => g.ink.map((p) => p.y));
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(3.5);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(4.0);
    expect((Math.max(...ys) + Math.min(...ys)) / 2).toBeCloseTo(15, 0);
    const title = layout.glyphs.filter((g) => g.role === 'title');
    expect(title.map((g) => g.char).join('')).toBe('发票专用章');
    expect(Math.min(...title.flatMap((g) => g.cell.map((p) => p.y)))).toBeGreaterThan(Math.max(...ys));
  });

  it('writes the name on the upper arc within 210–260°, about 4.2 mm high, inside the ring', () => {
    expect(
      names(layout)
        .map((g) => g.char)
        .join(''),
    ).toBe(COMPANY);
    expect(layout.nameArc!.spanDeg).toBeGreaterThanOrEqual(200);
    expect(layout.nameArc!.spanDeg).toBeLessThanOrEqual(260);
    expect(layout.nameArc!.charHeight).toBeCloseTo(4.2, 6);
    expectInsideRing(layout);
    expectNoOverlap(layout.glyphs);
  });
});

describe('square name seals', () => {
  it('legal-person seal: 20 mm square, name + 之印 in two columns read right to left', () => {
    const layout = layoutSeal({
      kind: 'company',
      sealType: SealType.LegalPerson,
      companyName: COMPANY,
      legalPersonName: '张三',
    });
    expect([layout.width, layout.height]).toEqual([20, 20]);
    expect(layout.rings[0].kind).toBe('rect');
    const [zhang, san, zhi, yin] = layout.glyphs.map((g) => centroid(g.cell));
    expect(layout.glyphs.map((g) => g.char).join('')).toBe('张三之印');
    expect(zhang.x).toBeGreaterThan(zhi.x + 5); // first column on the right
    expect(zhang.x).toBeCloseTo(san.x, 6);
    expect(zhang.y).toBeLessThan(san.y); // top to bottom in a column
    expect(zhi.y).toBeLessThan(yin.y);
    expectNoOverlap(layout.glyphs);
    for (const g of layout.glyphs)
      for (const p of g.ink) expect(p.x > 1 && p.x < 19 && p.y > 1 && p.y < 19).toBe(true);
  });

  it('four-character names take three rows: 欧阳娜娜之印', () => {
    const layout = layoutSeal({ kind: 'person', style: 'square', name: '欧阳娜娜' });
    expect(layout.glyphs.map((g) => g.char).join('')).toBe('欧阳娜娜之印');
    const c = layout.glyphs.map((g) => centroid(g.cell));
    expect(c[0].x).toBeCloseTo(c[2].x, 6);
    expect(c[3].x).toBeLessThan(c[0].x - 4);
    expect(c[0].y).toBeLessThan(c[1].y);
    expect(c[1].y).toBeLessThan(c[2].y);
    expectNoOverlap(layout.glyphs);
  });

  it('three-character names take 印 alone; person seals are square too', () => {
    const layout = layoutSeal({ kind: 'person', style: 'square', name: '王小明' });
    expect(layout.glyphs.map((g) => g.char).join('')).toBe('王小明印');
    expect(layout.width).toBe(layout.height);
    expect(layout.width).toBeGreaterThanOrEqual(18);
    expect(layout.width).toBeLessThanOrEqual(20);
  });
});

describe('refusals', () => {
  it.each<[string, SealDef, string]>([
    ['an empty company name', official('   '), SealErrorCode.NameEmpty],
    ['spaces inside the name', official('上海 示例'), SealErrorCode.NameInvalidChar],
    ['an emoji', official('上海示例😀公司'), SealErrorCode.NameInvalidChar],
    [
      'an unknown seal type',
      { kind: 'company', sealType: 7 as SealType, companyName: COMPANY },
      SealErrorCode.SealTypeUnknown,
    ],
    [
      'an invoice seal without taxpayer number',
      { kind: 'company', sealType: SealType.Invoice, companyName: COMPANY },
      SealErrorCode.TaxpayerNumberInvalid,
    ],
    [
      'a 17-character taxpayer number',
      {
        kind: 'company',
        sealType: SealType.Invoice,
        companyName: COMPANY,
        taxpayerNumber: '91310115MA1H7XKP3',
      },
      SealErrorCode.TaxpayerNumberInvalid,
    ],
    [
      'a taxpayer number with the letter O',
      {
        kind: 'company',
        sealType: SealType.Invoice,
        companyName: COMPANY,
        taxpayerNumber: '91310115MA1H7XKPOC',
      },
      SealErrorCode.TaxpayerNumberInvalid,
    ],
    [
      'an "other" seal without purpose',
      { kind: 'company', sealType: SealType.Other, companyName: COMPANY },
      SealErrorCode.PurposeMissing,
    ],
    [
      'a purpose of eleven characters',
      { kind: 'company', sealType: SealType.Other, companyName: COMPANY, purpose: '一二三四五六七八九十一' },
      SealErrorCode.PurposeTooLong,
    ],
    [
      'a legal-person seal without the name',
      { kind: 'company', sealType: SealType.LegalPerson, companyName: COMPANY },
      SealErrorCode.NameEmpty,
    ],
    [
      'a one-character person name',
      { kind: 'person', style: 'square', name: '张' },
      SealErrorCode.NameTooShort,
    ],
    [
      'a six-character person name',
      { kind: 'person', style: 'square', name: '一二三四五六' },
      SealErrorCode.NameTooLong,
    ],
    [
      'a malformed anti-counterfeit number',
      official(COMPANY, { antiCounterfeitNo: '12-34' }),
      SealErrorCode.AntiCounterfeitInvalid,
    ],
  ])('refuses %s', (_what, def, code) => {
    const e = refusal(def);
    expect(e.code).toBe(code);
    expect(e.text.zh).toMatch(/[\u4e00-\u9fff]/);
    expect(e.text.en).toMatch(/[a-z]{4}/);
    expect(e.text.en).not.toBe(e.text.zh);
    expect(e.message).toBe(e.text.en);
  });
});
