import Alert from 'antd/es/alert';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { OrderStatus, PurchaseRequirement } from '#contract/enums.ts';
import { SALE_PRODUCT_TYPE_NAMES, type SaleProductType, UserType } from '#contract/enums.ts';
import { type Eligibility, getPurchaseEligibility } from '@/api/package.ts';
import { paths } from '@/config/paths.ts';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

export const MESSAGE_MS = 2000;
export const usePackageTexts = () => useTexts(texts);

/** Amounts travel in fen (integers); screens show CNY with two decimals. */
export const yuanText = (fen: number) => (fen / 100).toFixed(2);
export const formatYuan = (fen: number) => `¥${yuanText(fen)}`;

/** CNY typed with at most two decimals (a settled DecimalInput text) to whole fen, without float drift. */
export function fenOf(text: string): number {
  const [whole, frac = ''] = text.trim().split('.');
  return Number(whole || '0') * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
}

export function useSaleTypeName() {
  const locale = useI18nStore((s) => s.locale);
  return (code: string) =>
    pick(locale, SALE_PRODUCT_TYPE_NAMES[code as SaleProductType] ?? { zh: code, en: code });
}

/** Description of a package in the current language ('' when it has none). */
export function usePackageDescription() {
  const locale = useI18nStore((s) => s.locale);
  return (p: { description: string; descriptionEn: string }) =>
    pick(locale, { zh: p.description, en: p.descriptionEn });
}

/** Name of a package in the current language. */
export function usePackageName() {
  const locale = useI18nStore((s) => s.locale);
  return (p: { name: string; nameEn: string } | { packageName: string; packageNameEn: string }) =>
    'name' in p
      ? locale === 'zh-CN'
        ? p.name
        : p.nameEn
      : locale === 'zh-CN'
        ? p.packageName
        : p.packageNameEn;
}

const STATUS_COLORS: Record<OrderStatus, string> = {
  awaiting_payment: 'orange',
  paid: 'green',
  cancelled: 'default',
  refunded: 'purple',
  expired: 'default',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const tt = usePackageTexts();
  return <Tag color={STATUS_COLORS[status]}>{tt(`status_${status}`)}</Tag>;
}

/** Where to fix each missing requirement (person and company screens differ). */
export function fixPath(requirement: PurchaseRequirement, userType: number): string | null {
  const isCompany = userType === UserType.Company;
  switch (requirement) {
    case 'caCert':
      return isCompany ? paths.manageEnterpriseEsign : paths.managePersonalEsign;
    case 'seal':
      return isCompany ? paths.accountStamp : paths.accountStampPerson;
    case 'operator':
      return paths.accountOperator;
    default:
      return null;
  }
}

/** Whether the logged-in account may buy (null while loading or when nobody is logged in). */
export function useEligibility(): Eligibility | null {
  const userInfo = useSessionStore((s) => s.userInfo);
  const [eligibility, setEligibility] = useState<Eligibility | null>(null);
  useEffect(() => {
    if (!userInfo) {
      setEligibility(null);
      return;
    }
    getPurchaseEligibility().then(setEligibility, showApiError);
  }, [userInfo]);
  return eligibility;
}

/** What buying still needs, each with a link to where to get it (SPEC §6). */
export function MissingRequirements({ eligibility }: { eligibility: Eligibility }) {
  const tt = usePackageTexts();
  if (eligibility.canBuy) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="missing-requirements"
      title={tt('cannotBuy')}
      description={
        <div>
          {tt('missingIntro')}
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {eligibility.missing.map((m) => {
              const to = fixPath(m, eligibility.userType);
              return (
                <li key={m}>
                  {tt(`missing_${m}`)}
                  {' — '}
                  {to ? <Link to={to}>{tt(`fix_${m}`)}</Link> : tt(`fix_${m}`)}
                </li>
              );
            })}
          </ul>
        </div>
      }
    />
  );
}
