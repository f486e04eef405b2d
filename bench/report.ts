import type { Figure } from './foundation.ts';

/** Prints figures as a table, marking each against its budget (lower is better unless said otherwise). */
export function printFigures(title: string, figures: Figure[]): void {
  console.log(`\n## ${title}`);
  for (const f of figures) {
    const value = f.value >= 100 ? f.value.toFixed(0) : f.value.toFixed(1);
    let verdict = '';
    if (f.budget !== undefined) {
      const ok = f.lowerIsBetter === false ? f.value >= f.budget : f.value <= f.budget;
      verdict = ` (budget ${f.lowerIsBetter === false ? '≥' : '≤'} ${f.budget} ${f.unit}: ${ok ? 'ok' : 'OVER'})`;
    }
    console.log(`- ${f.name}: ${value} ${f.unit}${verdict}`);
  }
}
