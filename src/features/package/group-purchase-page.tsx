import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useEffect, useId, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { SaleProductType, UserType } from '#contract/enums.ts';
import { createGroupOrder, getPackageList, type PackageInfo } from '@/api/package.ts';
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
  yuanText,
} from './parts.tsx';
import { MAX_COPIES, unitPriceFor } from './pricing.ts';
import { showApiError } from '@/api/http.ts';

type Row = { key: number; creditCode: string; quantity: string };

/**
 * /buy/groupPurchase: a company administrator buys copies of a unified purchase and distribution package
 * (type 20) at the tier price and distributes signings to other companies by credit code.
 */
export default function GroupPurchasePage() {
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
  const [rows, setRows] = useState<Row[]>([{ key: 1, creditCode: '', quantity: '1' }]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const ids = { copies: useId(), row: useId() };

  useEffect(() => {
    getPackageList({ saleProductType: SaleProductType.UnifiedPurchase }).then((list) => {
      setPackages(list);
      setPackageId((id) => (list.some((p) => p.id === id) ? id : (list[0]?.id ?? '')));
    }, showApiError);
  }, []);

  const pkg = packages.find((p) => p.id === packageId);
  const n = Math.max(0, Math.floor(Number(copies) || 0));
  const unitFen = pkg ? unitPriceFor(pkg, n) : 0;
  const total = pkg ? pkg.signings * n : 0;
  const distributed = rows.reduce((s, r) => s + Math.max(0, Math.floor(Number(r.quantity) || 0)), 0);
  const isTooMany = distributed > total;
  const isPerson = info !== null && info.userType !== UserType.Company;

  const submit = async () => {
    if (!info) {
      navigate(loginRedirect(paths.loginPage, location.pathname + location.search));
      return;
    }
    if (!pkg) return;
    setIsBusy(true);
    setProblem(null);
    try {
      const order = await createGroupOrder({
        packageId: pkg.id,
        copies: n,
        allocations: rows
          .filter((r) => r.creditCode.trim())
          .map((r) => ({
            creditCode: r.creditCode.trim().toUpperCase(),
            quantity: Math.floor(Number(r.quantity) || 0),
          })),
      });
      navigate(`${paths.buyCheckoutGroup}?orderNo=${encodeURIComponent(order.orderNo)}`);
    } catch (e) {
      setProblem(showApiError(e));
    } finally {
      setIsBusy(false);
    }
  };

  const setRow = (key: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  return (
    <Card title={tt('groupTitle')} style={{ maxWidth: 760, margin: '16px auto' }}>
      {isPerson ? (
        <Alert type="warning" title={tt('groupNeedsCompany')} style={{ marginBottom: 12 }} />
      ) : null}
      {eligibility && !isPerson ? <MissingRequirements eligibility={eligibility} /> : null}
      <fieldset style={{ border: 0, padding: 0, margin: '16px 0' }}>
        <legend style={{ fontWeight: 600 }}>{tt('package')}</legend>
        <Radio.Group value={packageId} onChange={(e) => setPackageId(e.target.value)}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {packages.map((p) => (
              <Radio key={p.id} value={p.id}>
                {nameOf(p)} — {tt('signings', { n: p.signings })}, {formatYuan(p.priceFen)} {tt('perCopy')}
              </Radio>
            ))}
          </div>
        </Radio.Group>
      </fieldset>
      {pkg?.tiers.map((t) => (
        <p key={t.minCopies} style={{ margin: 0, color: '#666' }}>
          {tt('tierPrice', { min: t.minCopies, price: yuanText(t.priceFen) })}
        </p>
      ))}
      <label htmlFor={ids.copies} style={{ display: 'block', fontWeight: 600, marginTop: 12 }}>
        {tt('copies')}
      </label>
      <NumberInput
        id={ids.copies}
        min={1}
        max={MAX_COPIES}
        precision={0}
        value={copies}
        onChange={setCopies}
        style={{ maxWidth: 160 }}
      />
      <h4 style={{ marginTop: 16 }}>{tt('receivers')}</h4>
      {rows.map((r, i) => (
        <div
          key={r.key}
          style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 8, alignItems: 'end' }}
        >
          <div>
            <label htmlFor={`${ids.row}-code-${r.key}`} style={{ display: 'block', fontSize: 12 }}>
              {tt('receiverCode')} {i + 1}
            </label>
            <Input
              id={`${ids.row}-code-${r.key}`}
              value={r.creditCode}
              maxLength={18}
              onChange={(e) => setRow(r.key, { creditCode: e.target.value })}
              style={{ width: 220 }}
            />
          </div>
          <div>
            <label htmlFor={`${ids.row}-qty-${r.key}`} style={{ display: 'block', fontSize: 12 }}>
              {tt('receiverQuantity')} {i + 1}
            </label>
            <NumberInput
              id={`${ids.row}-qty-${r.key}`}
              min={1}
              max={1_000_000}
              precision={0}
              value={r.quantity}
              onChange={(quantity) => setRow(r.key, { quantity })}
              style={{ width: 120 }}
            />
          </div>
          {rows.length > 1 ? (
            <Button onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>{tt('remove')}</Button>
          ) : null}
        </div>
      ))}
      <Button
        onClick={() =>
          setRows((rs) => [
            ...rs,
            { key: Math.max(...rs.map((x) => x.key)) + 1, creditCode: '', quantity: '1' },
          ])
        }
      >
        {tt('addReceiver')}
      </Button>
      {pkg ? (
        <p style={{ marginTop: 16 }}>
          {tt('unitPrice')}: {yuanText(unitFen)} · {tt('totalSignings')}: {total} ·{' '}
          {tt('keptByYou', { n: Math.max(0, total - distributed) })}
          <br />
          {tt('total')}: ¥<CountUp end={(unitFen * n) / 100} decimals={2} />
        </p>
      ) : null}
      {isTooMany ? (
        <Alert
          type="error"
          title={tt('tooMany', { asked: distributed, total })}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {problem ? <Alert type="error" title={problem} style={{ marginBottom: 12 }} /> : null}
      <Button
        type="primary"
        loading={isBusy}
        disabled={!pkg || n < 1 || isTooMany || isPerson || (eligibility !== null && !eligibility.canBuy)}
        onClick={submit}
      >
        {info ? tt('checkout') : tt('loginToBuy')}
      </Button>
    </Card>
  );
}
