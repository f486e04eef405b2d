/**
 * Writes the import graph's baseline of known violations (`npm run lint:graph:baseline`): reads the
 * baseline dependency-cruiser prints (stdin) and splits it in two files, because dependency-cruiser's
 * --ignore-known does not soften folder-level violations:
 *   .dependency-cruiser-known-violations.json  file-level violations, passed to --ignore-known;
 *   .dependency-cruiser-known-cycles.json      module cycles ({from, to} module folders), which the
 *                                              no-module-cycles rules of .dependency-cruiser.cjs leave out.
 * Both may only shrink; server/README.md says when to regenerate them.
 */
import { readFileSync, writeFileSync } from 'node:fs';

type Violation = { type: string; from: string; to: string; rule: { name: string } };

const all = JSON.parse(readFileSync(0, 'utf8')) as Violation[];
const isCycle = (v: Violation) => v.rule.name === 'no-module-cycles';
const cycles = all.filter(isCycle).map(({ from, to }) => ({ from, to }));
const rest = all.filter((v) => !isCycle(v));
writeFileSync('.dependency-cruiser-known-violations.json', `${JSON.stringify(rest, null, 2)}\n`);
writeFileSync('.dependency-cruiser-known-cycles.json', `${JSON.stringify(cycles, null, 2)}\n`);
console.log(`known violations: ${rest.length}; known module cycles: ${cycles.length}`);
