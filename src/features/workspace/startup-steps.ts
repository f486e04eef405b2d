import { UserType } from '#contract/enums.ts';
import type { LoginInfo } from '@/api/session.ts';
import { paths } from '@/config/paths.ts';

/** The getting-started steps, in order; `:next` of /manage/startup/:next names one of these keys. */
const STARTUP_STEPS = ['esign', 'cert', 'seal', 'package', 'contract'] as const;
export type StartupStepKey = (typeof STARTUP_STEPS)[number];

type StartupFacts = {
  info: LoginInfo | null;
  /** checkCurrentLoginUserOpenSign: real name and agreement (null while unknown or logged out). */
  isEsignOpen: boolean | null;
  /** listLaunchedFlows total (null while unknown). */
  launchedCount: number | null;
};

type StartupStep = { key: StartupStepKey; isDone: boolean; link: string };

/** Each step with whether it is done and where the user does it (person and company differ). */
export function startupSteps({ info, isEsignOpen, launchedCount }: StartupFacts): StartupStep[] {
  const isCompany = info?.userType === UserType.Company;
  return [
    {
      key: 'esign',
      // Opening is real name + agreement (+ certificate); the certificate itself is the next step.
      isDone: Boolean(info && (isEsignOpen || info.hasCaCert)),
      link: isCompany ? paths.manageEnterpriseEsign : paths.managePersonalEsign,
    },
    {
      key: 'cert',
      isDone: Boolean(info?.hasCaCert),
      link: isCompany ? paths.accountInfo : paths.managePersonalEsign,
    },
    {
      key: 'seal',
      isDone: Boolean(info?.hasSeal),
      link: isCompany ? paths.accountStamp : paths.accountStampPerson,
    },
    {
      key: 'package',
      isDone: Boolean(info && info.salePackageProductTypeList.length > 0),
      link: paths.buyPackage,
    },
    {
      key: 'contract',
      isDone: (launchedCount ?? 0) > 0,
      link: paths.manageQuicklyFileUpload,
    },
  ];
}

/** The step to continue at: the one `:next` names, else the first not done (null when all are done). */
export function currentStep(steps: StartupStep[], next?: string): StartupStepKey | null {
  const named = steps.find((s) => s.key === next || String(STARTUP_STEPS.indexOf(s.key) + 1) === next);
  if (named) return named.key;
  return steps.find((s) => !s.isDone)?.key ?? null;
}
