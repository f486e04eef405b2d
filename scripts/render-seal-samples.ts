/**
 * Renders a PNG of every seal form into docs/seals/ (and one PDF, to compare the vector output):
 * `npx node scripts/render-seal-samples.ts [outDir]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SealType } from '../contract/enums.ts';
import { renderSealPdf } from '../server/seal/render-pdf.ts';
import { renderSealPng } from '../server/seal/render-png.ts';
import type { SealDef } from '../server/seal/seal-def.ts';

const company = '上海示例科技有限公司';
const samples: Record<string, SealDef> = {
  '01-official': { kind: 'company', sealType: SealType.Official, companyName: company },
  '01-official-anti-counterfeit': {
    kind: 'company',
    sealType: SealType.Official,
    companyName: company,
    antiCounterfeitNo: '3101150012345',
  },
  '01-official-long-name': {
    kind: 'company',
    sealType: SealType.Official,
    companyName: '中国示例建设工程集团有限公司上海一分公司',
  },
  '101-legal-person': {
    kind: 'company',
    sealType: SealType.LegalPerson,
    companyName: company,
    legalPersonName: '张三',
  },
  '101-legal-person-three-chars': {
    kind: 'company',
    sealType: SealType.LegalPerson,
    companyName: company,
    legalPersonName: '欧阳明',
  },
  '102-contract': { kind: 'company', sealType: SealType.Contract, companyName: company },
  '102-contract-anti-counterfeit': {
    kind: 'company',
    sealType: SealType.Contract,
    companyName: company,
    antiCounterfeitNo: '3101150012346',
  },
  '102-contract-long-name': {
    kind: 'company',
    sealType: SealType.Contract,
    companyName: '中国示例建设工程集团有限公司上海一分公司',
  },
  '103-finance': { kind: 'company', sealType: SealType.Finance, companyName: company },
  '104-invoice': {
    kind: 'company',
    sealType: SealType.Invoice,
    companyName: company,
    taxpayerNumber: '91310115MA1H7XKP3C',
  },
  '104-invoice-anti-counterfeit': {
    kind: 'company',
    sealType: SealType.Invoice,
    companyName: company,
    taxpayerNumber: '91310115MA1H7XKP3C',
    antiCounterfeitNo: '3101150012347',
  },
  '105-hr': { kind: 'company', sealType: SealType.HR, companyName: company },
  '99-other': { kind: 'company', sealType: SealType.Other, companyName: company, purpose: '投标专用章' },
  'person-square': { kind: 'person', style: 'square', name: '李四' },
  'person-square-three-chars': { kind: 'person', style: 'square', name: '王小明' },
};

const outDir = process.argv[2] ?? join(import.meta.dirname, '..', 'docs', 'seals');
mkdirSync(outDir, { recursive: true });
for (const [name, def] of Object.entries(samples)) {
  writeFileSync(join(outDir, `${name}.png`), renderSealPng(def, { dpi: 300 }));
}
writeFileSync(join(outDir, '102-contract.pdf'), await renderSealPdf(samples['102-contract']));
console.log(`${Object.keys(samples).length} PNGs and one PDF in ${outDir}`);
