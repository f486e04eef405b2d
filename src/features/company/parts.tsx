import Alert from 'antd/es/alert';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { ApiError } from '@/api/http.ts';
import type { MemberStatus } from '@/api/company.ts';
import { POWER_OF_ATTORNEY_MAX_BYTES } from '#contract/rules/company.ts';
import {
  type CreditCodeProblem,
  creditCodeProblem,
  normaliseCreditCode,
} from '#contract/rules/credit-code.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { companyTexts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

export const useCompanyTexts = () => useTexts(companyTexts);
type CompanyT = ReturnType<typeof useCompanyTexts>;

/** Shows a refusal the transport did not already show (business codes: their msg is for the user), or any other failure. */
export function showError(error: unknown): void {
  showApiError(error);
  if (!(error instanceof ApiError)) notify.error(String(error), 2000);
}

/** Runs an async action with a busy flag and the error display every screen wants. */
export function useAction() {
  const [isBusy, setIsBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setIsBusy(true);
    try {
      await action();
    } catch (error) {
      showError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return { isBusy, run };
}

const CC_KEYS: Record<CreditCodeProblem, 'ccLength' | 'ccCharacters' | 'ccCheck'> = {
  length: 'ccLength',
  characters: 'ccCharacters',
  check: 'ccCheck',
};

/** antd validator of the credit-code field: the contract's own rule, with a localised message. */
export const creditCodeValidator = (tt: CompanyT) => async (_: unknown, value: string | undefined) => {
  if (!value) throw new Error(tt('required'));
  const problem = creditCodeProblem(normaliseCreditCode(value));
  if (problem) throw new Error(tt(CC_KEYS[problem]));
};

/** Client-side check of a letter before upload (the server checks the bytes again). */
export function letterProblem(file: File, tt: CompanyT): string | null {
  if (file.size > POWER_OF_ATTORNEY_MAX_BYTES) return tt('letterSize');
  if (!/\.(png|jpe?g|pdf)$/i.test(file.name) && !/^(image\/(png|jpeg)|application\/pdf)$/.test(file.type))
    return tt('letterType');
  return null;
}

/** Development providers are labelled as such wherever they act (README "Development providers"). */
export function DevProviderNotice({ provider }: { provider: string }) {
  const tt = useCompanyTexts();
  // 'aliyun-market+development': a real register check, the micro-payment still the development bank.
  if (!provider.split('+').includes('development')) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={tt('devProvider')}
      data-testid="dev-provider"
      style={{ marginBottom: 16 }}
    />
  );
}

const STATUS_COLORS: Record<MemberStatus, string> = {
  pending: 'gold',
  active: 'green',
  disabled: 'default',
  rejected: 'red',
  removed: 'default',
};

export function StatusTag({ status }: { status: MemberStatus }) {
  const tt = useCompanyTexts();
  return <Tag color={STATUS_COLORS[status]}>{tt(`status_${status}`)}</Tag>;
}

export function RoleTag({ role }: { role: 'admin' | 'operator' }) {
  const tt = useCompanyTexts();
  return <Tag color={role === 'admin' ? 'red' : 'blue'}>{tt(`role_${role}`)}</Tag>;
}

/** Mobile page frame: a heading and content that fits 375 px. */
export function MobilePage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main style={{ padding: 16, maxWidth: '100%', boxSizing: 'border-box' }}>
      <h1 style={{ fontSize: 20, margin: '0 0 16px' }}>{title}</h1>
      {children}
    </main>
  );
}
