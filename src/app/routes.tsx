import { type LoaderFunctionArgs, matchRoutes, redirect, type RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { loadAntdProvider, RouteError, RouteLoading, RootLayout } from './root-layout.tsx';
import { accessFromHandles, isPlainUiOf, type RouteHandle, runRouteGuard } from './route-guard.ts';

// Every screen is its own chunk: a signer on a phone downloads the signing room, not the workspace.
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const PUBLIC: RouteHandle = { access: 'public' };
/** Public, and drawn without antd: the login pages and what a signer's phone opens from a link (first loads). */
const PLAIN_PUBLIC: RouteHandle = { access: 'public', isPlainUi: true };
const PROTECTED: RouteHandle = { access: 'protected' };

const to = (target: string): RouteObject => ({ index: true, loader: () => redirect(target) });

// Person accounts (src/features/person): opening e-signature, details, real name, agreement, face results.
const personPage = (
  key: keyof typeof paths,
  handle: RouteHandle,
  load: () => Promise<{ default: React.ComponentType }>,
): RouteObject => ({ path: paths[key], handle, lazy: lazyPage(load) });
const faceResultPage = () => import('@/features/person/face-result-page.tsx');
const realNamePage = () => import('@/features/person/real-name-page.tsx');
const agreementPage = () => import('@/features/person/agreement-page.tsx');
// The room's onboarding shares the name-authentication and agreement routes (src/features/signing-room).
const nameAuthenticationRoute = () =>
  import('./onboarding-switch.tsx').then((m) => ({
    default: m.NameAuthenticationRoute,
  }));
const userAgreementRoute = () =>
  import('./onboarding-switch.tsx').then((m) => ({ default: m.UserAgreementRoute }));
const companyOpenPage = () => import('@/features/company/company-open-page.tsx');
// Launching, signing and the lists (src/features/document, signing-room, flow).
const launchPage = () => import('@/features/document/launch-page.tsx');
const outsignRoomPage = () => import('@/features/document/outsign-room-page.tsx');
const signingRoomPage = () => import('@/features/signing-room/signing-room-page.tsx');
const linkLoginPage = () => import('@/features/signing-room/link-login-page.tsx');
const signListPage = () => import('@/features/flow/sign-list-page.tsx');
const batchSignPage = () => import('@/features/flow/batch-sign-page.tsx');
// Workspace, guides, monitor and the small public screens (src/features/workspace, guide, monitor, misc).
const startupPage = () => import('@/features/workspace/startup-page.tsx');
const templateListPage = () => import('@/features/template/template-list-page.tsx');
const templateDetailPage = () => import('@/features/template/template-detail-page.tsx');
const configEditPage = () => import('@/features/sign-config/config-edit-page.tsx');
// Seal-use approvals (src/features/approval): one list and one detail screen serve the PC and the phone routes.
const approvalsPage = () => import('@/features/approval/approvals-page.tsx');
const approvalDetailPage = () => import('@/features/approval/approval-detail-page.tsx');

const manageChildren: RouteObject[] = [
  to(paths.manageStartup),
  personPage('manageStartup', PUBLIC, startupPage),
  personPage('manageStartupNext', PUBLIC, startupPage),
  personPage('manageAbcde', PROTECTED, () => import('@/features/misc/all-functions-page.tsx')),
  personPage('manageHome', PROTECTED, () => import('@/features/workspace/home-page.tsx')),
  // Packages, purchases and quotas (src/features/package); /manage/admin/packages is for platform administrators.
  personPage('manageProductList', PROTECTED, () => import('@/features/package/product-list-page.tsx')),
  personPage('manageAdminPackages', PROTECTED, () => import('@/features/package/admin-page.tsx')),
  // API keys of the integrator API (src/features/apikey).
  personPage('manageApiKeys', PROTECTED, () => import('@/features/apikey/api-keys-page.tsx')),
  // Templates, launch from a template and signing configurations (src/features/template, sign-config).
  personPage('manageTemplateCreate', PROTECTED, templateListPage),
  personPage('manageFileTemplate', PROTECTED, templateListPage),
  personPage(
    'manageFileTemplatePreview',
    PROTECTED,
    () => import('@/features/template/template-preview-page.tsx'),
  ),
  personPage('manageEditFileTemplate', PROTECTED, () => import('@/features/template/template-edit-page.tsx')),
  personPage('manageTemplateDetail', PROTECTED, templateDetailPage),
  personPage('manageTempTemplateDetail', PROTECTED, templateDetailPage),
  personPage('manageTemplateSign', PROTECTED, () => import('@/features/template/template-sign-page.tsx')),
  personPage('manageBulkSend', PROTECTED, () => import('@/features/bulk/bulk-send-page.tsx')),
  personPage('manageBulkSends', PROTECTED, () => import('@/features/bulk/bulk-list-page.tsx')),
  personPage('manageContracts', PROTECTED, () => import('@/features/contracts/contracts-page.tsx')),
  personPage('manageSignConfig', PROTECTED, () => import('@/features/sign-config/config-list-page.tsx')),
  personPage('manageAddConfig', PROTECTED, configEditPage),
  personPage('manageStepConfig', PROTECTED, configEditPage),
  personPage('manageWebhooks', PROTECTED, () => import('@/features/webhook/webhooks-page.tsx')),
  personPage('manageQuicklyFileUpload', PROTECTED, launchPage),
  personPage('manageFileUpload', PROTECTED, launchPage),
  personPage('manageApprovals', PROTECTED, approvalsPage),
  personPage('manageApprovalDetail', PROTECTED, approvalDetailPage),
  personPage('managePersonalEsign', PROTECTED, () => import('@/features/person/personal-esign-page.tsx')),
  personPage('manageCertChange', PROTECTED, () => import('@/features/cert/cert-change-page.tsx')),
  // Company accounts (src/features/company).
  personPage('manageEnterpriseEsign', PROTECTED, companyOpenPage),
  {
    path: paths.account,
    handle: PROTECTED,
    children: [
      to(paths.accountInfo),
      personPage('accountInfo', PROTECTED, () => import('@/features/company/account-info-page.tsx')),
      personPage('accountShareUser', PROTECTED, () => import('@/features/company/share-user-page.tsx')),
      personPage('accountOperator', PROTECTED, () => import('@/features/company/operator-page.tsx')),
      personPage(
        'accountUserPackageDetail',
        PROTECTED,
        () => import('@/features/package/usage-detail-page.tsx'),
      ),
      // Seals (src/features/seal).
      personPage('accountStamp', PROTECTED, () => import('@/features/seal/company-stamp-page.tsx')),
      personPage('accountStampPerson', PROTECTED, () => import('@/features/seal/person-stamp-page.tsx')),
      personPage(
        'accountPersonAddStamp',
        PROTECTED,
        () => import('@/features/seal/person-add-stamp-page.tsx'),
      ),
      personPage('accountAddStamp', PROTECTED, () => import('@/features/seal/add-stamp-page.tsx')),
      personPage('accountStampAuthorize', PROTECTED, () => import('@/features/seal/authorize-page.tsx')),
      // Authorisation letters (src/features/authorisation, issue 27).
      personPage('accountLetters', PROTECTED, () => import('@/features/authorisation/letters-page.tsx')),
    ],
  },
];

const mobileChildren: RouteObject[] = [
  {
    path: paths.mobileLogin,
    handle: PLAIN_PUBLIC,
    lazy: lazyPage(() => import('@/features/auth/mobile-login-page.tsx')),
  },
  personPage('signVerify', PUBLIC, () => import('@/features/verify/sign-verify-page.tsx')),
  personPage('mobileSignList', PUBLIC, signListPage),
  personPage('mobileBatchSign', PROTECTED, batchSignPage),
  {
    path: paths.h5,
    children: [
      to(paths.h5V1),
      {
        path: paths.h5V1,
        children: [
          to(paths.h5SigningRoom),
          ...(['h5TempOutSignRoom', 'h5SigningRoom', 'h5StepRoom'] as const).map((key) =>
            personPage(key, PLAIN_PUBLIC, signingRoomPage),
          ),
          personPage('h5NameAuthentication', PUBLIC, nameAuthenticationRoute),
          personPage('h5UserAgreement', PUBLIC, userAgreementRoute),
          personPage('h5Result', PUBLIC, faceResultPage),
          personPage('h5ResultFalse', PUBLIC, faceResultPage),
          personPage('h5SigningRoomFaceAuthResult', PUBLIC, faceResultPage),
          personPage('h5FacePrintAuthResult', PUBLIC, faceResultPage),
        ],
      },
      personPage('h5OpenAccount', PUBLIC, () => import('@/features/person/open-account-entry-page.tsx')),
      personPage('h5Agreement', PUBLIC, agreementPage),
    ],
  },
  personPage('mobileHome', PROTECTED, () => import('@/features/workspace/mobile-home-page.tsx')),
  personPage('accountSwitch', PROTECTED, () => import('@/features/company/account-switch-page.tsx')),
  personPage('mobileJoinCompany', PROTECTED, () => import('@/features/company/join-company-page.tsx')),
  personPage('mobileJoinCompanyWaiting', PROTECTED, () => import('@/features/company/join-waiting-page.tsx')),
  personPage('mobileCompanyList', PROTECTED, () => import('@/features/company/company-list-page.tsx')),
  personPage('mobileStaffList', PROTECTED, () => import('@/features/company/staff-list-page.tsx')),
  personPage('mobileAdminPowerAuth', PROTECTED, () => import('@/features/company/admin-power-auth-page.tsx')),
  personPage('mobileApprovals', PROTECTED, approvalsPage),
  personPage('mobileApprovalDetail', PROTECTED, approvalDetailPage),
  personPage('realName', PROTECTED, realNamePage),
  personPage('realNameResult', PROTECTED, () => import('@/features/person/real-name-result-page.tsx')),
  personPage(
    'mobileOpenAccountBasic',
    PROTECTED,
    () => import('@/features/person/open-account-basic-page.tsx'),
  ),
  personPage(
    'mobileOpenAccountVerify',
    PROTECTED,
    () => import('@/features/person/open-account-verify-page.tsx'),
  ),
  personPage(
    'mobileOpenAccountFinish',
    PROTECTED,
    () => import('@/features/person/open-account-finish-page.tsx'),
  ),
  personPage(
    'mobileRecoverAccountVerify',
    PROTECTED,
    () => import('@/features/person/recover-verify-page.tsx'),
  ),
  personPage(
    'mobileRecoverAccountFinish',
    PROTECTED,
    () => import('@/features/person/recover-finish-page.tsx'),
  ),
];

const pcChildren: RouteObject[] = [
  {
    path: paths.pc,
    children: [
      to(paths.pcV1),
      {
        path: paths.pcV1,
        children: [
          to(paths.pcSigningRoom),
          ...(['pcSigningRoom', 'pcTempSigningRoom'] as const).map((key) =>
            personPage(key, PLAIN_PUBLIC, signingRoomPage),
          ),
          ...(['pcOutsignRoom', 'pcTempOutsignRoom'] as const).map((key) =>
            personPage(key, PUBLIC, outsignRoomPage),
          ),
          personPage('pcNameAuthentication', PUBLIC, nameAuthenticationRoute),
        ],
      },
      personPage('pcGuide', PUBLIC, () => import('@/features/guide/guide-page.tsx')),
      personPage('pcGuideCompany', PUBLIC, () => import('@/features/guide/company-guide-page.tsx')),
      personPage('pcGuidePerson', PUBLIC, () => import('@/features/guide/person-guide-page.tsx')),
    ],
  },
];

// Verification (src/features/verify): the /check and /verify views, and the one-page PC and phone screens.
const checkPage = () => import('@/features/verify/check-page.tsx');
const verifyPage = () => import('@/features/verify/verify-page.tsx');
const fileVerificationPage = () => import('@/features/verify/file-verification-page.tsx');
const verifyRoutes: RouteObject[] = [
  ...(['verifyInfo', 'verifySignature', 'verifyChain', 'verifyPdf'] as const).map((key) =>
    personPage(key, PUBLIC, verifyPage),
  ),
  ...(['checkInfo', 'checkSignature', 'checkChain', 'checkPdf'] as const).map((key) =>
    personPage(key, PUBLIC, checkPage),
  ),
  personPage('fileVerification', PUBLIC, fileVerificationPage),
  personPage('pcSignVerify', PUBLIC, fileVerificationPage),
];

// Buying packages and the cost calculators (src/features/package).
const publicPackageRoutes: RouteObject[] = [
  personPage('buyPackage', PUBLIC, () => import('@/features/package/buy-package-page.tsx')),
  personPage('buyGroupPurchase', PUBLIC, () => import('@/features/package/group-purchase-page.tsx')),
  personPage('costCalculator', PUBLIC, () => import('@/features/package/cost-calculator-page.tsx')),
  personPage('pcCostCalculator', PUBLIC, () => import('@/features/package/pc-cost-calculator-page.tsx')),
];
const protectedPackageRoutes: RouteObject[] = [
  personPage('buyCheckout', PROTECTED, () => import('@/features/package/checkout-page.tsx')),
  personPage('buyCheckoutGroup', PROTECTED, () => import('@/features/package/checkout-group-page.tsx')),
];

/** Access of a path: the deepest matched route that declares it decides (default public, PC scope). */
export function accessOf(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  return accessFromHandles(matches.map((m) => m.route.handle as RouteHandle | undefined));
}

async function guardLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const matches = matchRoutes(routes, url.pathname) ?? [];
  const handles = matches.map((m) => m.route.handle as RouteHandle | undefined);
  // antd's provider loads beside the guard and the screen's chunk, not after them.
  const [target] = await Promise.all([
    runRouteGuard(url, accessFromHandles(handles)),
    isPlainUiOf(handles) ? null : loadAntdProvider(),
  ]);
  if (target) throw redirect(target);
  return null;
}

/** The route table of SPEC §2. The root loader is the route guard and runs before every navigation. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: guardLoader,
    // Like a router-wide beforeEach: re-run the guard on every navigation, not only when params change.
    shouldRevalidate: () => true,
    Component: RootLayout,
    HydrateFallback: RouteLoading,
    ErrorBoundary: RouteError,
    children: [
      {
        path: paths.loginPage,
        handle: PLAIN_PUBLIC,
        lazy: lazyPage(() => import('@/features/auth/login-page.tsx')),
      },
      {
        path: paths.registerPage,
        handle: PUBLIC,
        lazy: lazyPage(() => import('@/features/auth/register-page.tsx')),
      },
      {
        path: paths.passwordPage,
        handle: PUBLIC,
        lazy: lazyPage(() => import('@/features/auth/password-page.tsx')),
      },
      {
        path: paths.manage,
        lazy: lazyPage(() => import('./layouts/manage-layout.tsx')),
        children: manageChildren,
      },
      {
        handle: { scope: 'mobile' } satisfies RouteHandle,
        lazy: lazyPage(() => import('./layouts/mobile-layout.tsx')),
        children: mobileChildren,
      },
      ...pcChildren,
      ...verifyRoutes,
      ...publicPackageRoutes,
      // Workspace screens outside /manage: the workspace layout (header, menu, footer) and a way back.
      {
        lazy: lazyPage(() => import('./layouts/manage-layout.tsx')),
        children: [
          {
            lazy: lazyPage(() => import('./layouts/back-frame.tsx')),
            children: [
              personPage('signList', PUBLIC, signListPage),
              personPage('pcSignList', PUBLIC, signListPage),
              personPage('batchSign', PROTECTED, batchSignPage),
              personPage('foundCompany', PROTECTED, companyOpenPage),
            ],
          },
        ],
      },
      personPage('signConfirm', PUBLIC, () => import('@/features/signing-room/sign-confirm-page.tsx')),
      personPage(
        'signingRoomTransition',
        PUBLIC,
        () => import('@/features/signing-room/transition-page.tsx'),
      ),
      personPage('embedSign', PLAIN_PUBLIC, () => import('@/features/signing-room/embed-sign-page.tsx')),
      personPage('singingRoom', PLAIN_PUBLIC, linkLoginPage),
      personPage('singingRoomOxq', PLAIN_PUBLIC, linkLoginPage),
      personPage('ccView', PUBLIC, () => import('@/features/cc/cc-view-page.tsx')),
      personPage('message', PUBLIC, () => import('@/features/flow/message-page.tsx')),
      personPage('home', PUBLIC, () => import('@/features/misc/home-page.tsx')),
      // /loginCopy: a second address of the login page (old links and bookmarks), the same screen.
      personPage('loginCopy', PUBLIC, () => import('@/features/auth/login-page.tsx')),
      personPage('osingPeople', PUBLIC, () => import('@/features/misc/signers-page.tsx')),
      personPage('pagesIndex', PUBLIC, () => import('@/features/misc/demo-page.tsx')),
      personPage('empty', PUBLIC, () => import('@/features/misc/empty-page.tsx')),
      personPage('monitor', PUBLIC, () => import('@/features/monitor/monitor-page.tsx')),
      ...protectedPackageRoutes,
      personPage('personalDetails', PROTECTED, () => import('@/features/person/personal-details-page.tsx')),
      personPage('companyInvitation', PROTECTED, () => import('@/features/company/invitation-page.tsx')),
      { path: '*', lazy: lazyPage(() => import('./not-found-page.tsx')) },
    ],
  },
];
