/**
 * Every route path of SPEC §2, defined once. Screens build links from here, never by hand.
 *
 * Hooks for end-to-end tests (Playwright / Testing Library find these by label or role name):
 *   fields   'Phone' / '手机号', 'Password' / '密码', 'Confirm password' / '确认密码',
 *            'New password' / '新密码', 'SMS code' / '验证码'
 *   buttons  'Log in' / '登录', 'Register' / '注册', 'Get code' / '获取验证码', 'Reset password' / '重置密码',
 *            'Log out' / '退出登录' (a menuitem: click the header button showing the masked phone first),
 *            'Create a company' / '创建企业', 'Enter e-signature system' / '进入电子签章系统'
 *   language a button named after the other language, 'English' / '中文', on login pages and in the workspace header
 *   workspace the header button with test id 'current-user' (title 'Account menu' / '账号菜单') shows the
 *            logged-in phone masked (138****5678); a visitor sees a 'Log in' / '登录' button there instead
 *   approval test ids 'approval-state' (the room's approval step), 'approval-item' (a request in the list),
 *            'approval-status' (a request's status tag), 'seal-policy-summary' (a seal card's approval rule)
 */
export const paths = {
  home: '/',
  loginPage: '/loginPage',
  mobileLogin: '/mobileLogin',
  registerPage: '/registerPage',
  passwordPage: '/passwordPage',
  loginCopy: '/loginCopy',
  osingPeople: '/osingPeople',

  verify: '/verify',
  verifyInfo: '/verify/:params?',
  verifySignature: '/verify/signature',
  verifyChain: '/verify/chain',
  verifyPdf: '/verify/pdf',
  check: '/check',
  checkInfo: '/check/:params?',
  checkSignature: '/check/checkSignature',
  checkChain: '/check/checkChain',
  checkPdf: '/check/checkPdf',

  signList: '/signList',
  /** Batch signing (issue 28): many waiting flows, one intent check. */
  batchSign: '/batchSign',
  pagesIndex: '/pages/index',
  signConfirm: '/sign_confirm',
  empty: '/empty',
  buyPackage: '/buy/package',
  buyGroupPurchase: '/buy/groupPurchase',
  buyCheckout: '/buy/checkout',
  buyCheckoutGroup: '/buy/checkoutGroup',
  signingRoomTransition: '/signingRoomTransition',
  /** Embedded signing: the integrator API's one-time signing URL (issue 13). */
  embedSign: '/embed/sign',

  h5: '/h5',
  h5V1: '/h5/v1',
  h5TempOutSignRoom: '/h5/v1/tempOutSignRoom',
  h5SigningRoom: '/h5/v1/signing_room',
  h5StepRoom: '/h5/v1/step_room',
  h5NameAuthentication: '/h5/v1/nameAuthentication',
  h5UserAgreement: '/h5/v1/userAgreement',
  h5Result: '/h5/v1/result/:openFlag/:personCode/:token',
  h5ResultFalse: '/h5/v1/resultFalse/:openFlag/:personCode/:token',
  h5SigningRoomFaceAuthResult:
    '/h5/v1/signingRoomFaceAuthResult/:result/:businessCode/:deviceType/:token/:signUrl',
  h5FacePrintAuthResult: '/h5/v1/facePrintAuthResult/:result/:businessCode/:deviceType/:token',
  h5OpenAccount: '/h5/openAccount',
  h5Agreement: '/h5/agreement',

  pc: '/pc',
  pcV1: '/pc/v1',
  pcSigningRoom: '/pc/v1/signing_room',
  pcNameAuthentication: '/pc/v1/nameAuthentication',
  pcOutsignRoom: '/pc/v1/outsignRoom',
  pcTempOutsignRoom: '/pc/v1/tempOutsignRoom',
  pcTempSigningRoom: '/pc/v1/tempSigning_room',
  pcGuide: '/pc/guide',
  pcGuideCompany: '/pc/guide/company',
  pcGuidePerson: '/pc/guide/person',

  monitor: '/monitor',
  message: '/message',
  fileVerification: '/fileVerification',
  singingRoom: '/singingRoom/:linkType/:linkCode',
  singingRoomOxq: '/singingRoom/:linkType/:linkCode/:oxqSignValue',
  // A copy recipient's read-only link (抄送, issue 29; contract/paths/cc.ts CC_VIEW_ROUTE).
  ccView: '/ccView/:ccToken',
  pcSignList: '/pcSignList',
  costCalculator: '/costCalculator',
  pcCostCalculator: '/pcCostCalculator',
  pcSignVerify: '/pcSignVerify',
  signVerify: '/signVerify',
  mobileSignList: '/mobile/signList',
  mobileBatchSign: '/mobile/batchSign',

  manage: '/manage',
  manageStartup: '/manage/startup',
  manageStartupNext: '/manage/startup/:next',
  manageEnterpriseEsign: '/manage/enterpriseEsign',
  manageCertChange: '/manage/certChange',
  manageAbcde: '/manage/abcde',
  managePersonalEsign: '/manage/personalEsign',
  manageHome: '/manage/home',
  manageQuicklyFileUpload: '/manage/home/quicklyFileUpload',
  manageFileUpload: '/manage/home/fileUpload',
  manageTemplateCreate: '/manage/home/templateCreate',
  manageTemplateDetail: '/manage/home/templateDetail',
  manageTempTemplateDetail: '/manage/home/tempTemplateDetail',
  manageTemplateSign: '/manage/home/templateSign',
  manageFileTemplate: '/manage/fileTemplate',
  manageFileTemplatePreview: '/manage/fileTemplate/preview',
  manageEditFileTemplate: '/manage/fileTemplate/editFileTemplate',
  /** Bulk sending from a spreadsheet (issue 28): ?templateId= to check and send, ?bulkId= a batch's progress. */
  manageBulkSend: '/manage/bulkSend',
  manageBulkSends: '/manage/bulkSends',
  /** The contract centre (issue 29): every contract sent or received, search, tags, folders, zips. */
  manageContracts: '/manage/contracts',
  manageSignConfig: '/manage/signConfig',
  manageAddConfig: '/manage/signConfig/addConfig',
  manageStepConfig: '/manage/signConfig/stepConfig',
  /** Webhook endpoints of the account (issue 13); not in SPEC §2. */
  manageWebhooks: '/manage/webhooks',
  manageProductList: '/manage/productList',
  /** Platform administrators (PLATFORM_ADMIN_PHONES): packages and orders; not in SPEC §2. */
  manageAdminPackages: '/manage/admin/packages',
  /** API keys of the integrator API (issue 13): persons and company administrators; not in SPEC §2. */
  manageApiKeys: '/manage/apiKeys',
  account: '/manage/account',
  accountInfo: '/manage/account/accountInfo',
  accountShareUser: '/manage/account/accountInfo/shareUser',
  accountUserPackageDetail: '/manage/account/accountInfo/userPackageDetail',
  accountStamp: '/manage/account/stamp',
  accountStampPerson: '/manage/account/stamp/person',
  accountPersonAddStamp: '/manage/account/stamp/person/personAddStamp',
  accountAddStamp: '/manage/account/stamp/addStamp',
  accountStampAuthorize: '/manage/account/stamp/authorize',
  /** Authorisation letters and automatic signing (issue 27); not in SPEC §2. */
  accountLetters: '/manage/account/letters',
  accountOperator: '/manage/account/operator',
  /** Seal-use approvals (issue 27): the requests to me, mine, and (administrator) all; not in SPEC §2. */
  manageApprovals: '/manage/approvals',
  manageApprovalDetail: '/manage/approvals/:approvalId',
  foundCompany: '/foundCompany',
  personalDetails: '/personalDetails',

  mobileHome: '/mobileHome',
  accountSwitch: '/accountSwitch',
  realName: '/realName',
  realNameResult: '/realName/result',
  mobileOpenAccountBasic: '/mobile/openAccount/basic',
  mobileOpenAccountVerify: '/mobile/openAccount/verify',
  mobileOpenAccountFinish: '/mobile/openAccount/finish',
  mobileRecoverAccountVerify: '/mobile/recoverAccount/verify',
  mobileRecoverAccountFinish: '/mobile/recoverAccount/finish',
  mobileJoinCompany: '/mobile/joinCompany',
  mobileJoinCompanyWaiting: '/mobile/joinCompany/waiting',
  mobileCompanyList: '/mobile/companyList',
  mobileStaffList: '/mobile/staffList',
  mobileAdminPowerAuth: '/mobile/adminPowerAuth',
  // Issue 27: the approvals centre on a phone (an approver's SMS link opens the detail); either device works.
  mobileApprovals: '/mobile/approvals',
  mobileApprovalDetail: '/mobile/approvals/:approvalId',
  // Issue 6: an operator invitation's screen (contract/rules/company.ts COMPANY_INVITATION_ROUTE; its SMS
  // link and its /message notice open it), on a PC or a phone.
  companyInvitation: '/companyInvitation/:invitationId',
} as const;

/** Query parameters the route guard adds when it sends a visitor to log in (SPEC §2). */
export const NEXT_PARAM = 'next';
export const NEXT_TYPE_PARAM = 'nextType';
export const NEXT_TYPE_ROUTE = 'route';

/** A login URL that brings the user back to `wanted` (path + query) afterwards. */
export function loginRedirect(loginPath: string, wanted: string): string {
  const query = new URLSearchParams({ [NEXT_PARAM]: wanted, [NEXT_TYPE_PARAM]: NEXT_TYPE_ROUTE });
  return `${loginPath}?${query.toString()}`;
}

/** Fill `:param` segments of a path pattern. */
export function fillPath(pattern: string, params: Record<string, string>): string {
  return (
    pattern
      .replace(/:(\w+)\??/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
      .replace(/\/$/, '') || '/'
  );
}
