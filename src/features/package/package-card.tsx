import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Tag from 'antd/es/tag';
import { Link } from 'react-router-dom';
import { SaleProductType } from '#contract/enums.ts';
import type { Eligibility, PackageInfo } from '@/api/package.ts';
import {
  fixPath,
  formatYuan,
  usePackageDescription,
  usePackageName,
  usePackageTexts,
  useSaleTypeName,
} from './parts.tsx';

/** One package on sale with its buy button; the button explains what is missing and links to it. */
export function PackageCard({
  pkg,
  eligibility,
  onBuy,
}: {
  pkg: PackageInfo;
  /** null: nobody logged in (or still loading): the button leads to buying, which asks for a login. */
  eligibility: Eligibility | null;
  onBuy: (pkg: PackageInfo) => void;
}) {
  const tt = usePackageTexts();
  const typeName = useSaleTypeName();
  const nameOf = usePackageName();
  const descriptionOf = usePackageDescription();
  const isGroup = pkg.saleProductType === SaleProductType.UnifiedPurchase;
  const isBlocked = eligibility !== null && !eligibility.canBuy;
  const label = isGroup ? tt('buyGroup') : tt('buy');
  return (
    <Card size="small" title={nameOf(pkg)} data-testid="package-card" style={{ width: 260 }}>
      <Tag>{typeName(pkg.saleProductType)}</Tag>
      <p style={{ fontSize: 22, margin: '8px 0', color: '#ec1c23' }}>{formatYuan(pkg.priceFen)}</p>
      <p style={{ margin: 0 }}>
        {tt('signings', { n: pkg.signings })} · {tt('validity', { days: pkg.validityDays })}
      </p>
      {descriptionOf(pkg) ? <p style={{ color: '#666', margin: '4px 0 0' }}>{descriptionOf(pkg)}</p> : null}
      <div style={{ marginTop: 12 }}>
        <Button
          type="primary"
          block
          disabled={isBlocked}
          aria-label={`${label} ${nameOf(pkg)}`}
          onClick={() => onBuy(pkg)}
        >
          {label}
        </Button>
        {isBlocked && eligibility ? (
          <div role="note" data-testid="buy-blocked" style={{ fontSize: 12, color: '#ad6800', marginTop: 6 }}>
            {tt('missingIntro')}{' '}
            {eligibility.missing.map((m, i) => {
              const to = fixPath(m, eligibility.userType);
              return (
                <span key={m}>
                  {i > 0 ? ', ' : ''}
                  {to ? <Link to={to}>{tt(`missing_${m}`)}</Link> : tt(`missing_${m}`)}
                </span>
              );
            })}
          </div>
        ) : null}
      </div>
    </Card>
  );
}
