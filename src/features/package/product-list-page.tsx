import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Space from 'antd/es/space';
import { useEffect, useState } from 'react';
import { SaleProductType } from '#contract/enums.ts';
import { getPackageList, getPlatformAdminInfo, type PackageInfo } from '@/api/package.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { PackageCard } from './package-card.tsx';
import { MissingRequirements, useEligibility, usePackageTexts } from './parts.tsx';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/**
 * /manage/productList: the packages on sale with their buy buttons, the account's remaining signings, and
 * what buying still needs (SPEC §6) with links to get it.
 */
export default function ProductListPage() {
  const tt = usePackageTexts();
  const navigate = useSafeNavigate();
  const info = useSessionStore((s) => s.userInfo);
  const eligibility = useEligibility();
  const [packages, setPackages] = useState<PackageInfo[] | null>(null);
  const [isAdmin, setIsAdmin] = useState(false);
  useEffect(() => {
    getPackageList().then(setPackages, showApiError);
    getPlatformAdminInfo().then((r) => setIsAdmin(r.isPlatformAdmin), showApiError);
    void refreshLoginInfo();
  }, []);
  const buy = (pkg: PackageInfo) =>
    navigate(
      `${pkg.saleProductType === SaleProductType.UnifiedPurchase ? paths.buyGroupPurchase : paths.buyPackage}?packageId=${pkg.id}`,
    );
  return (
    <Card title={tt('productListTitle')}>
      {info ? (
        <p data-testid="quantities">
          {tt('quantities', {
            total: info.totalQuantitySum,
            reserved: info.totalReserveQuantity,
            used: info.totalUseQuantity,
            remain: info.remainQuantity,
          })}
        </p>
      ) : null}
      <Space wrap style={{ marginBottom: 16 }}>
        <Button onClick={() => navigate(paths.accountUserPackageDetail)}>{tt('usageLink')}</Button>
        <Button onClick={() => navigate(paths.pcCostCalculator)}>{tt('calculatorLink')}</Button>
        {isAdmin ? (
          <Button onClick={() => navigate(paths.manageAdminPackages)}>{tt('adminLink')}</Button>
        ) : null}
      </Space>
      {eligibility ? <MissingRequirements eligibility={eligibility} /> : null}
      {packages && packages.length === 0 ? <Empty description={tt('noPackages')} /> : null}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, marginTop: 16 }}>
        {(packages ?? []).map((p) => (
          <PackageCard key={p.id} pkg={p} eligibility={eligibility} onBuy={buy} />
        ))}
      </div>
    </Card>
  );
}
