import { type LoaderFunctionArgs, matchRoutes, redirect, type RouteObject } from 'react-router-dom';
import { paths } from './paths.ts';
import type { PlannedKey } from './planned-routes.ts';
import { RouteError, RouteLoading, RootLayout } from './root-layout.tsx';
import { accessFromHandles, type RouteHandle, runRouteGuard } from './route-guard.ts';

// Every screen is its own chunk: a signer on a phone downloads the signing room, not the workspace.
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});
const plannedPage = lazyPage(() => import('./planned-route-page.tsx'));

const PUBLIC: RouteHandle = { access: 'public' };
const PROTECTED: RouteHandle = { access: 'protected' };

/** A screen a later issue builds: the route renders its PlannedPage. */
const planned = (key: PlannedKey, handle: RouteHandle = PUBLIC): RouteObject => ({
  path: paths[key],
  handle: { ...handle, planned: key },
  lazy: plannedPage,
});
const to = (target: string): RouteObject => ({ index: true, loader: () => redirect(target) });

const manageChildren: RouteObject[] = [
  to(paths.manageStartup),
  planned('manageStartup'),
  planned('manageStartupNext'),
  ...(
    [
      'manageEnterpriseEsign',
      'manageCertChange',
      'manageAbcde',
      'managePersonalEsign',
      'manageHome',
      'manageQuicklyFileUpload',
      'manageFileUpload',
      'manageTemplateCreate',
      'manageFileTemplate',
      'manageFileTemplatePreview',
      'manageEditFileTemplate',
      'manageTemplateDetail',
      'manageTempTemplateDetail',
      'manageTemplateSign',
      'manageSignConfig',
      'manageAddConfig',
      'manageStepConfig',
      'manageProductList',
    ] as const
  ).map((key) => planned(key, PROTECTED)),
  {
    path: paths.account,
    handle: PROTECTED,
    children: [
      to(paths.accountInfo),
      ...(
        [
          'accountInfo',
          'accountShareUser',
          'accountUserPackageDetail',
          'accountStamp',
          'accountStampPerson',
          'accountPersonAddStamp',
          'accountAddStamp',
          'accountStampAuthorize',
          'accountOperator',
        ] as const
      ).map((key) => planned(key, PROTECTED)),
    ],
  },
];

const mobileChildren: RouteObject[] = [
  {
    path: paths.mobileLogin,
    handle: PUBLIC,
    lazy: lazyPage(() => import('@/features/auth/mobile-login-page.tsx')),
  },
  planned('signVerify'),
  planned('mobileSignList'),
  {
    path: paths.h5,
    children: [
      to(paths.h5V1),
      {
        path: paths.h5V1,
        children: [
          to(paths.h5SigningRoom),
          ...(
            [
              'h5TempOutSignRoom',
              'h5SigningRoom',
              'h5StepRoom',
              'h5NameAuthentication',
              'h5UserAgreement',
              'h5Result',
              'h5ResultFalse',
              'h5SigningRoomFaceAuthResult',
              'h5FacePrintAuthResult',
            ] as const
          ).map((key) => planned(key)),
        ],
      },
      planned('h5OpenAccount'),
      planned('h5Agreement'),
    ],
  },
  ...(
    [
      'mobileHome',
      'accountSwitch',
      'realName',
      'realNameResult',
      'mobileOpenAccountBasic',
      'mobileOpenAccountVerify',
      'mobileOpenAccountFinish',
      'mobileRecoverAccountVerify',
      'mobileRecoverAccountFinish',
      'mobileJoinCompany',
      'mobileJoinCompanyWaiting',
      'mobileCompanyList',
      'mobileStaffList',
      'mobileAdminPowerAuth',
    ] as const
  ).map((key) => planned(key, PROTECTED)),
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
          ...(
            [
              'pcSigningRoom',
              'pcNameAuthentication',
              'pcOutsignRoom',
              'pcTempOutsignRoom',
              'pcTempSigningRoom',
            ] as const
          ).map((key) => planned(key)),
        ],
      },
      planned('pcGuide'),
      planned('pcGuideCompany'),
      planned('pcGuidePerson'),
    ],
  },
];

const publicPlanned = (
  [
    'home',
    'loginCopy',
    'osingPeople',
    'verifyInfo',
    'verifySignature',
    'verifyChain',
    'verifyPdf',
    'checkInfo',
    'checkSignature',
    'checkChain',
    'checkPdf',
    'signList',
    'pagesIndex',
    'signConfirm',
    'empty',
    'buyPackage',
    'buyGroupPurchase',
    'signingRoomTransition',
    'monitor',
    'message',
    'fileVerification',
    'singingRoom',
    'singingRoomOxq',
    'pcSignList',
    'costCalculator',
    'pcCostCalculator',
    'pcSignVerify',
  ] as const
).map((key) => planned(key));

const protectedPlanned = (
  ['buyCheckout', 'buyCheckoutGroup', 'foundCompany', 'personalDetails'] as const
).map((key) => planned(key, PROTECTED));

/** Access of a path: the deepest matched route that declares it decides (default public, PC scope). */
export function accessOf(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  return accessFromHandles(matches.map((m) => m.route.handle as RouteHandle | undefined));
}

async function guardLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const target = await runRouteGuard(url, accessOf(url.pathname));
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
        handle: PUBLIC,
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
      ...publicPlanned,
      ...protectedPlanned,
      { path: '*', lazy: lazyPage(() => import('./not-found-page.tsx')) },
    ],
  },
];
