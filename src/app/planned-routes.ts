import type { PathKey } from './paths.ts';

/** A screen that a later issue builds: what it is and what it will offer, in both languages. */
export type PlannedRoute = { title: { zh: string; en: string }; description: { zh: string; en: string } };

const p = (zhTitle: string, enTitle: string, zhDesc: string, enDesc: string): PlannedRoute => ({
  title: { zh: zhTitle, en: enTitle },
  description: { zh: zhDesc, en: enDesc },
});

/**
 * Every route of SPEC §2 that is not built yet. Each renders PlannedPage with this text and the
 * `data-planned` attribute; the README's feature table marks it "not yet".
 */
export const PLANNED_ROUTES = {
  buyPackage: p(
    '购买套餐',
    'Buy a package',
    '将列出可购买的签署套餐。',
    'Will list the signing packages you can buy.',
  ),
  buyGroupPurchase: p(
    '团购',
    'Group buying',
    '将提供团购签署套餐。',
    'Will offer signing packages bought as a group.',
  ),
  buyCheckout: p(
    '支付说明',
    'Payment notes',
    '将说明如何为套餐付款。',
    'Will explain how to pay for a package.',
  ),
  buyCheckoutGroup: p(
    '团购支付说明',
    'Group payment notes',
    '将说明如何为团购付款。',
    'Will explain how to pay for a group purchase.',
  ),
  costCalculator: p(
    '费用计算器',
    'Cost calculator',
    '将估算签署的费用。',
    'Will estimate what signing costs.',
  ),
  pcCostCalculator: p(
    '费用计算器',
    'Cost calculator',
    '将在电脑上估算签署的费用。',
    'Will estimate what signing costs, on a computer.',
  ),
  manageProductList: p(
    '套餐列表',
    'Package list',
    '将列出您的签署套餐和用量。',
    'Will list your signing packages and their use.',
  ),
  accountUserPackageDetail: p(
    '套餐明细',
    'Package detail',
    '将显示套餐的使用明细。',
    'Will show how a package has been used.',
  ),
} satisfies Partial<Record<PathKey, PlannedRoute>>;

export type PlannedKey = keyof typeof PLANNED_ROUTES;
