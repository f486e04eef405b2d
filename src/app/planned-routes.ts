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
  manageTemplateCreate: p(
    '模板发起',
    'Launch from a template',
    '将用模板生成文件并发起签署。',
    'Will fill a template and launch signing.',
  ),
  manageTemplateDetail: p(
    '模板详情',
    'Template detail',
    '将显示模板的内容和字段。',
    "Will show a template's content and fields.",
  ),
  manageTempTemplateDetail: p(
    '临时模板详情',
    'Temporary template detail',
    '将显示临时模板的内容。',
    'Will show the content of a temporary template.',
  ),
  manageTemplateSign: p(
    '模板签署',
    'Template signing',
    '将签署由模板生成的文件。',
    'Will sign a file made from a template.',
  ),
  manageFileTemplate: p(
    '模板管理',
    'Template management',
    '将列出、新建和编辑文件模板。',
    'Will list, create and edit file templates.',
  ),
  manageFileTemplatePreview: p(
    '模板预览',
    'Template preview',
    '将预览文件模板。',
    'Will preview a file template.',
  ),
  manageEditFileTemplate: p(
    '编辑模板',
    'Edit template',
    '将编辑文件模板的字段。',
    "Will edit a file template's fields.",
  ),
  manageSignConfig: p(
    '签署配置',
    'Signing settings',
    '将管理签署流程的配置。',
    'Will manage the settings of signing flows.',
  ),
  manageAddConfig: p('新增配置', 'Add setting', '将新增一项签署配置。', 'Will add a signing setting.'),
  manageStepConfig: p(
    '步骤配置',
    'Step settings',
    '将设置签署流程的步骤。',
    'Will set the steps of a signing flow.',
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
