import { randomInt } from 'node:crypto';
import type { AppDeps } from '../../deps.ts';
import type { Text } from '../../http/texts.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import { checkCompanyRegister } from '../../providers/company/aliyun-market.ts';

/** What a provider is told about the company under verification. */
type CompanyToVerify = { id: string; name: string; creditCode: string; legalRepName: string };

/**
 * Verification of a company's identity. The product asks the provider to pay a small random amount into
 * the company's registered bank account; the applicant proves control of the company by reading the amount
 * from the account statement and entering it. A production provider must:
 *  - check name, credit code and legal representative against the business register (checkRegistration),
 *  - find the company's settlement account and make a real transfer of `amountFen` (0.01-0.99 CNY) with a
 *    reference that names this platform (sendMicroPayment), and return only when the bank accepted it,
 *  - never return the amount to the applicant: the service keeps it hashed and compares what is typed.
 */
interface CompanyVerificationProvider {
  /** Shown to the user ('development' is labelled as simulated in the UI). */
  readonly name: string;
  readonly isDevelopment: boolean;
  /** problem null when the data matches the register, otherwise a reason for the user; the request id. */
  checkRegistration(company: CompanyToVerify): Promise<{ problem: Text | null; requestId?: string }>;
  /** Pays `amountFen` fen to the company's account. */
  sendMicroPayment(company: CompanyToVerify, amountFen: number): Promise<void>;
}

/** A random micro-payment amount: 1 to 99 fen (0.01-0.99 CNY). */
export const randomAmountFen = (): number => randomInt(1, 100);

/** Where the development bank "pays": an outbox address per credit code (GET /v1/dev/outbox?phone=...). */
export const devBankAddress = (creditCode: string) => `bank:${creditCode}`;
const MICRO_PAYMENT_PURPOSE = 'companyMicroPayment';

/**
 * DEVELOPMENT provider: accepts every well-formed company (no register lookup) and "pays" by writing a
 * notice to the message outbox addressed to `bank:<credit code>`, readable in the dev outbox only.
 * It moves no money and proves nothing about the applicant; it is never meant for production.
 */
function developmentProvider(deps: Pick<AppDeps, 'messenger'>): CompanyVerificationProvider {
  return {
    name: 'development',
    isDevelopment: true,
    checkRegistration: async () => ({ problem: null }),
    async sendMicroPayment(company, amountFen) {
      const yuan = (amountFen / 100).toFixed(2);
      await deps.messenger.notify({
        to: devBankAddress(company.creditCode),
        purpose: MICRO_PAYMENT_PURPOSE,
        text:
          `[development bank, simulated] ${yuan} CNY paid to the account of ${company.name} (${company.creditCode}) ` +
          `for e-signature verification / 【开发环境模拟银行】已向 ${company.name} 对公账户打款 ${yuan} 元，用于电子签章企业认证`,
      });
    },
  };
}

/** The app's provider (deps.perApp), chosen on first use. */
const PROVIDER = definePerAppSlot<CompanyVerificationProvider>('company.verificationProvider');

/**
 * COMPANY_CHECK_PROVIDER=aliyun-market: the register check through the Aliyun API market; the bank
 * micro-payment stays the development one (no bank integration is built: see README "Going live").
 */
function marketRegisterProvider(deps: AppDeps): CompanyVerificationProvider {
  const settings = deps.config.companyCheck!;
  const dev = developmentProvider(deps);
  return {
    // The UI keeps its development notice while the bank part is simulated ('+development').
    name: 'aliyun-market+development',
    isDevelopment: true,
    checkRegistration: (company) => checkCompanyRegister(settings, company),
    sendMicroPayment: dev.sendMicroPayment,
  };
}

/** The provider of an app: the market register check when configured, else the development one. */
export function verificationProviderFor(deps: AppDeps): CompanyVerificationProvider {
  return deps.perApp.get(PROVIDER, () => {
    if (deps.config.companyCheck) return marketRegisterProvider(deps);
    if (deps.config.isProduction)
      deps.log.warn('company verification uses the DEVELOPMENT provider: no real bank micro-payment is made');
    return developmentProvider(deps);
  });
}
