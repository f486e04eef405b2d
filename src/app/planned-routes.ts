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
  home: p(
    '首页',
    'Home',
    '将介绍电子签章平台并引导您登录或注册。',
    'Will introduce the e-signature platform and lead you to log in or register.',
  ),
  loginCopy: p(
    '登录（备用）',
    'Log in (alternative)',
    '将提供另一种登录入口。',
    'Will offer an alternative way to log in.',
  ),
  osingPeople: p(
    '签署人',
    'Signers',
    '将列出待您确认的签署人。',
    'Will list the signers waiting for your confirmation.',
  ),
  verifyInfo: p(
    '验证信息',
    'Verification info',
    '将显示一份已签文件的验证结果。',
    'Will show the verification result of a signed file.',
  ),
  verifySignature: p(
    '签名验证',
    'Signature check',
    '将逐个显示文件中每个签名的验证结果。',
    'Will show the check result of each signature in a file.',
  ),
  verifyChain: p(
    '证书链',
    'Certificate chain',
    '将显示签名证书的信任链。',
    "Will show the signing certificate's chain of trust.",
  ),
  verifyPdf: p('文件预览', 'File preview', '将显示被验证的 PDF 文件。', 'Will show the PDF being verified.'),
  checkInfo: p(
    '核验信息',
    'Check info',
    '将显示文件核验的结果。',
    'Will show the result of checking a file.',
  ),
  checkSignature: p(
    '签名核验',
    'Signature check',
    '将显示每个签名的核验详情。',
    'Will show the details of each signature check.',
  ),
  checkChain: p(
    '证书链核验',
    'Chain check',
    '将显示证书链的核验结果。',
    'Will show the check of the certificate chain.',
  ),
  checkPdf: p(
    '核验文件预览',
    'Checked file preview',
    '将显示被核验的 PDF 文件。',
    'Will show the PDF being checked.',
  ),
  pagesIndex: p(
    '签署室演示',
    'Signing-room demo',
    '将演示签署室的使用方法。',
    'Will demonstrate how the signing room works.',
  ),
  empty: p('空白页', 'Blank page', '用于页面之间的过渡。', 'Used as a transition between pages.'),
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
  pcGuide: p(
    '使用指南',
    'Guide',
    '将介绍企业和个人如何开始使用。',
    'Will explain how companies and persons get started.',
  ),
  pcGuideCompany: p(
    '企业指南',
    'Guide for companies',
    '将介绍企业开户、印章和经办人。',
    'Will explain company accounts, seals and operators.',
  ),
  pcGuidePerson: p(
    '个人指南',
    'Guide for persons',
    '将介绍个人开户、证书和签名。',
    'Will explain personal accounts, certificates and signatures.',
  ),
  monitor: p('监控', 'Monitor', '将显示平台的运行状态。', 'Will show the state of the platform.'),
  fileVerification: p(
    '文件验签',
    'File signature verification',
    '将上传已签文件并验证其中每个签名。',
    'Will verify every signature of a signed file you upload.',
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
  pcSignVerify: p(
    '签名验证',
    'Signature verification',
    '将在电脑上验证已签文件。',
    'Will verify signed files on a computer.',
  ),
  signVerify: p(
    '签名验证',
    'Signature verification',
    '将在手机上验证已签文件。',
    'Will verify signed files on your phone.',
  ),
  manageStartup: p(
    '开始使用',
    'Get started',
    '将引导您开通电子签章、申请证书和印章。',
    'Will guide you through opening e-signature, certificates and seals.',
  ),
  manageStartupNext: p(
    '开始使用',
    'Get started',
    '将引导您完成开通的下一步。',
    'Will guide you to the next step of opening.',
  ),
  manageAbcde: p(
    '开户步骤',
    'Opening steps',
    '将显示开户的各个步骤。',
    'Will show the steps of opening an account.',
  ),
  manageHome: p(
    '发起签署',
    'Launch signing',
    '将从上传的文件或模板发起签署。',
    'Will launch signing from uploaded files or templates.',
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
  mobileHome: p(
    '手机首页',
    'Mobile home',
    '将在手机上显示您的签署概况。',
    'Will show your signing overview on your phone.',
  ),
} satisfies Partial<Record<PathKey, PlannedRoute>>;

export type PlannedKey = keyof typeof PLANNED_ROUTES;
