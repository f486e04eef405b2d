import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Radio from 'antd/es/radio';
import { useEffect, useId, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { MAX_COPIES } from './pricing.ts';
import { SaleProductType } from '#contract/enums.ts';
import { createPackageOrder, getPackageList, type PackageInfo } from '@/api/package.ts';
import { loginRedirect, paths } from '@/config/paths.ts';
import { CountUp } from '@/components/count-up.tsx';
import { NumberInput } from '@/components/number-input.tsx';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useSessionStore } from '@/session/session-store.ts';
import {
  formatYuan,
  MissingRequirements,
  useEligibility,
  usePackageName,
  usePackageTexts,
} from './parts.tsx';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** /buy/package: choose a package and the number of copies, then check out (creates the order). */
export default function BuyPackagePage() {
  const tt = usePackageTexts();
  const nameOf = usePackageName();
  const navigate = useSafeNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const info = useSessionStore((s) => s.userInfo);
  const eligibility = useEligibility();
  const [packages, setPackages] = useState<PackageInfo[]>([]);
  const [packageId, setPackageId] = useState(params.get('packageId') ?? '');
  const [copies, setCopies] = useState('1');
  const [isBusy, setIsBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const copiesId = useId();

  useEffect(() => {
    getPackageList().then((list) => {
      const single = list.filter((p) => p.saleProductType !== SaleProductType.UnifiedPurchase);
      setPackages(single);
      setPackageId((id) => (single.some((p) => p.id === id) ? id : (single[0]?.id ?? '')));
    }, showApiError);
  }, []);

  const pkg = packages.find((p) => p.id === packageId);
  const n = Math.max(0, Math.floor(Number(copies) || 0));
  const totalFen = pkg ? pkg.priceFen * n : 0;

  const checkout = async () => {
    if (!info) {
      navigate(loginRedirect(paths.loginPage, location.pathname + location.search));
      return;
    }
    if (!pkg || n < 1) return;
    setIsBusy(true);
    setProblem(null);
    try {
      const order = await createPackageOrder({ packageId: pkg.id, copies: n });
      void refreshLoginInfo();
      navigate(`${paths.buyCheckout}?orderNo=${encodeURIComponent(order.orderNo)}`);
    } catch (e) {
      setProblem(showApiError(e));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Card title={tt('buyTitle')} style={{ maxWidth: 720, margin: '16px auto' }}>
      {eligibility ? <MissingRequirements eligibility={eligibility} /> : null}
      <fieldset style={{ border: 0, padding: 0, margin: '16px 0' }}>
        <legend style={{ fontWeight: 600 }}>{tt('package')}</legend>
        <Radio.Group value={packageId} onChange={(e) => setPackageId(e.target.value)}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {packages.map((p) => (
              <Radio key={p.id} value={p.id}>
                {nameOf(p)} — {tt('signings', { n: p.signings })}, {tt('validity', { days: p.validityDays })},{' '}
                {formatYuan(p.priceFen)} {tt('perCopy')}
              </Radio>
            ))}
          </div>
        </Radio.Group>
      </fieldset>
      <label htmlFor={copiesId} style={{ display: 'block', fontWeight: 600 }}>
        {tt('copies')}
      </label>
      <NumberInput
        id={copiesId}
        min={1}
        max={MAX_COPIES}
        precision={0}
        value={copies}
        onChange={setCopies}
        style={{ maxWidth: 160 }}
      />
      {pkg ? (
        <p style={{ marginTop: 16 }}>
          {tt('totalSignings')}: <strong data-testid="total-signings">{pkg.signings * n}</strong>
          <br />
          {tt('total')}: ¥<CountUp end={totalFen / 100} decimals={2} className="order-total" />
        </p>
      ) : null}
      {problem ? <Alert type="error" title={problem} style={{ marginBottom: 12 }} /> : null}
      <Button
        type="primary"
        loading={isBusy}
        disabled={!pkg || n < 1 || (eligibility !== null && !eligibility.canBuy)}
        onClick={checkout}
      >
        {info ? tt('checkout') : tt('loginToBuy')}
      </Button>
    </Card>
  );
}
