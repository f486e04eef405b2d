// Seal rendering budget (issue 4): a company seal rendered at creation (layout + SVG + one-page PDF),
// median over 50 different company names, so most glyphs are new to the outline cache as in real use.
// `npx node bench/seal.ts` alone, or through `npm run bench`.
import '../scripts/require-node24.ts';
import { SealType } from '#contract/enums.ts';
import { warmUpSealFonts } from '#server/seal/fonts.ts';
import { layoutSeal } from '#server/seal/layout.ts';
import { layoutToPdf } from '#server/seal/render-pdf.ts';
import { svgToPng } from '#server/seal/render-png.ts';
import { layoutToSvg } from '#server/seal/render-svg.ts';
import type { Figure } from './foundation.ts';
import { median } from './lib.ts';

const RUNS = 50;
// Place names and trade words to build 50 different, realistic company names.
const PLACES = ['上海', '北京', '深圳', '杭州', '成都', '武汉', '南京', '西安', '苏州', '天津'];
const TRADES = ['智能科技', '电子商务', '建筑工程', '物流运输', '医药研发'];

function companyName(i: number): string {
  return `${PLACES[i % PLACES.length]}${TRADES[Math.floor(i / PLACES.length) % TRADES.length]}有限公司`;
}

export async function run(): Promise<Figure[]> {
  const coldStart = performance.now();
  warmUpSealFonts();
  const first = layoutSeal({
    kind: 'company',
    sealType: SealType.Contract,
    companyName: '示例首枚印章有限公司',
  });
  await layoutToPdf(first);
  const cold = performance.now() - coldStart;

  const total: number[] = [];
  const layout: number[] = [];
  const pdf: number[] = [];
  const png: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const def = {
      kind: 'company' as const,
      sealType: SealType.Contract,
      companyName: companyName(i),
      antiCounterfeitNo: String(3101150000000 + i),
    };
    const t0 = performance.now();
    const l = layoutSeal(def);
    const t1 = performance.now();
    const svg = layoutToSvg(l);
    const t2 = performance.now();
    await layoutToPdf(l);
    const t3 = performance.now();
    total.push(t3 - t0);
    layout.push(t1 - t0);
    pdf.push(t3 - t2);
    const t4 = performance.now();
    svgToPng(svg, l.width, 300);
    png.push(performance.now() - t4);
  }
  return [
    { name: 'company seal: layout + SVG + PDF, median', value: median(total), unit: 'ms', budget: 30 },
    { name: 'of which layout (glyph outlines, fitting the arc), median', value: median(layout), unit: 'ms' },
    { name: 'of which one-page PDF, median', value: median(pdf), unit: 'ms' },
    { name: 'PNG at 300 dpi from the same SVG, median', value: median(png), unit: 'ms' },
    { name: 'first seal of a process (opens the 15 MB font)', value: cold, unit: 'ms' },
  ];
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('seal', await run());
}
