// Set-up of the package tests: a platform administrator (PLATFORM_ADMIN_PHONES), packages made through
// adminSavePackage, orders bought and confirmed through the real calls, launches through the flow calls.
import { launchFlow } from '#contract/calls/flow.ts';
import {
  adminConfirmOrder,
  adminSavePackage,
  createPackageOrder,
  type PackageInfo,
  type PackageInput,
  type PackageOrder,
} from '#contract/calls/package.ts';
import { switchAccount } from '#contract/calls/company.ts';
import { getUserQualification, type LoginInfo, userLogin } from '#contract/calls/session.ts';
import { ok, uploadPdf } from '../flow/flow-support.ts';
import {
  type Agent,
  TEST_PASSWORD,
  type TestApp,
  createTestApp,
  registerAndLogin,
  uniquePhone,
} from '../helper.ts';

export type PackageTestApp = { t: TestApp; admin: Agent; adminPhone: string };

/** A test app whose PLATFORM_ADMIN_PHONES names one registered, logged-in user. */
export async function appWithPlatformAdmin(env: Record<string, string> = {}): Promise<PackageTestApp> {
  const adminPhone = uniquePhone();
  const t = await createTestApp({ PLATFORM_ADMIN_PHONES: adminPhone, ...env });
  const { agent } = await registerAndLogin(t, { phone: adminPhone });
  return { t, admin: agent, adminPhone };
}

export async function makePackage(admin: Agent, input: Partial<PackageInput> = {}): Promise<PackageInfo> {
  return ok(
    await admin.call<PackageInfo>(adminSavePackage, {
      userType: 0,
      name: '基础套餐',
      nameEn: 'Basic',
      description: '',
      saleProductType: '10',
      signings: 5,
      priceFen: 9900,
      validityDays: 30,
      tiers: [],
      isActive: true,
      ...input,
    }),
    'save package',
  );
}

/** Buys copies of a package and has the administrator confirm the payment. */
export async function buyAndConfirm(
  buyer: Agent,
  admin: Agent,
  packageId: string,
  copies = 1,
  userType = 0,
): Promise<PackageOrder> {
  const order = ok(
    await buyer.call<PackageOrder>(createPackageOrder, { userType, packageId, copies }),
    'create order',
  );
  return ok(
    await admin.call<PackageOrder>(adminConfirmOrder, { userType: 0, orderNo: order.orderNo }),
    'confirm',
  );
}

export async function loginInfo(agent: Agent, userType = 0): Promise<LoginInfo> {
  return ok(await agent.call<LoginInfo>(getUserQualification, { userType }), 'login info');
}

/** Launches a one-party flow (a person signer) from the agent's account. */
export function launchOne(
  agent: Agent,
  pdf: Uint8Array,
  signerPhone: string,
  /** `documentId`: an upload made before (a race of launches then races launches only, not uploads). */
  opts: { userType?: number; title?: string; documentId?: string } = {},
) {
  return (async () => {
    const userType = opts.userType ?? 0;
    const doc = opts.documentId
      ? { documentId: opts.documentId }
      : ok(await uploadPdf(agent, pdf, userType), 'upload');
    return agent.call<{ flowId: string }>(launchFlow, {
      userType,
      title: opts.title ?? 'package test',
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: 'signer',
              phone: signerPhone,
              positions: [{ documentId: doc.documentId, page: 1, rect: [100, 100, 200, 150] }],
            },
          ],
        },
      ],
    });
  })();
}

/**
 * Sessions live at most a day: after the clock moved by days, a user logs in again (and switches to the
 * company when `companyId` is given). Returns the new browser.
 */
export async function loginAgain(t: TestApp, phone: string, companyId?: string): Promise<Agent> {
  const agent = t.agent();
  ok(await agent.call(userLogin, { userType: 0, phone, password: TEST_PASSWORD }), 'login again');
  if (companyId) ok(await agent.call(switchAccount, { userType: 0, targetUserType: 1, companyId }), 'switch');
  return agent;
}
