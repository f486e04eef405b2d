// The package catalogue a fresh install starts with, so that something can be bought from the first
// start. Seeded once, by the server's start (serve.ts), only while the catalogue is empty: an
// administrator's own packages (active or not) are never touched. PACKAGE_CATALOGUE chooses: 'default'
// (below), 'none', or a JSON file with an array of packages in the fields of adminSavePackage.
import { readFileSync } from 'node:fs';
import { type PackageInput, zCheckedPackageInput } from '#contract/calls/package.ts';
import type { AppDeps } from '../../deps.ts';
import { countPackages } from './queries.ts';
import { savePackage } from './service.ts';

/** Sensible starting packages: a small and a large person/company pack, and the unified purchase. */
export const DEFAULT_CATALOGUE: PackageInput[] = [
  {
    name: '基础套餐 10 份',
    nameEn: 'Basic, 10 signings',
    description: '10 份电子合同签署，一年有效',
    descriptionEn: '10 contract signings, valid for one year',
    saleProductType: '10',
    signings: 10,
    priceFen: 9_900,
    validityDays: 365,
  },
  {
    name: '标准套餐 100 份',
    nameEn: 'Standard, 100 signings',
    description: '100 份电子合同签署，一年有效',
    descriptionEn: '100 contract signings, valid for one year',
    saleProductType: '10',
    signings: 100,
    priceFen: 79_900,
    validityDays: 365,
    tiers: [{ minCopies: 5, priceFen: 69_900 }],
  },
  {
    name: '统购统配 100 份',
    nameEn: 'Unified purchase, 100 signings',
    description: '企业统一购买后分配给下属企业',
    descriptionEn: 'Bought by a company and shared with its companies',
    saleProductType: '20',
    signings: 100,
    priceFen: 69_900,
    validityDays: 365,
    tiers: [
      { minCopies: 10, priceFen: 59_900 },
      { minCopies: 50, priceFen: 49_900 },
    ],
  },
];

/** The packages PACKAGE_CATALOGUE names (a file is read and checked like the administrator's input). */
function catalogueOf(setting: AppDeps['config']['packages']['catalogue']): PackageInput[] {
  if (setting === 'none') return [];
  if (setting === 'default') return DEFAULT_CATALOGUE;
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(setting.file, 'utf8'));
  } catch (err) {
    throw new Error(`PACKAGE_CATALOGUE: cannot read ${setting.file} as JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(list))
    throw new Error(`PACKAGE_CATALOGUE: ${setting.file} must hold an array of packages`);
  return list.map((p, i) => {
    const r = zCheckedPackageInput.safeParse(p);
    if (!r.success)
      throw new Error(`PACKAGE_CATALOGUE: package ${i + 1} of ${setting.file}: ${r.error.message}`);
    return r.data;
  });
}

/** Seeds the catalogue when it is empty; returns how many packages were added. */
export async function seedCatalogue(deps: AppDeps): Promise<number> {
  const list = catalogueOf(deps.config.packages.catalogue);
  if (list.length === 0) return 0;
  if ((await countPackages(deps.db)) > 0) return 0;
  for (const p of list) await savePackage(deps, zCheckedPackageInput.parse(p));
  deps.log.info({ packages: list.length }, 'package catalogue was empty: seeded (PACKAGE_CATALOGUE)');
  return list.length;
}
