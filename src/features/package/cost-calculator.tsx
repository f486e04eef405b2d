import Card from 'antd/es/card';
import Select from 'antd/es/select';
import { useEffect, useId, useState } from 'react';
import { getPackageList, type PackageInfo } from '@/api/package.ts';
import { CountUp } from '@/components/count-up.tsx';
import { DecimalInput, NumberInput } from '@/components/number-input.tsx';
import { fenOf, usePackageName, usePackageTexts, yuanText } from './parts.tsx';
import { showApiError } from '@/api/http.ts';

/** Largest numbers the calculator takes (SPEC §5: clamped on focus-out). */
const CALC_LIMITS = { quantity: 1_000_000, unitPrice: 100_000 } as const;

/** quantity × price per signing, in fen (integers: no float drift). */
export function calculatorTotalFen(quantityText: string, unitPriceText: string): number {
  const quantity = Math.max(0, Math.floor(Number(quantityText) || 0));
  return quantity * fenOf(unitPriceText || '0');
}

/**
 * The cost calculator (/costCalculator on phones, /pcCostCalculator): the number of signings with the
 * NumberInput rules, the price per signing with the DecimalInput rules, the total with CountUp.
 */
export function CostCalculator({ isPhone }: { isPhone: boolean }) {
  const tt = usePackageTexts();
  const nameOf = usePackageName();
  const ids = { quantity: useId(), price: useId() };
  const [quantity, setQuantity] = useState('100');
  const [price, setPrice] = useState('1.00');
  const [packages, setPackages] = useState<PackageInfo[]>([]);
  useEffect(() => {
    getPackageList().then(setPackages, showApiError);
  }, []);
  const totalFen = calculatorTotalFen(quantity, price);
  const field = { display: 'block', fontWeight: 600, margin: '12px 0 4px' } as const;
  return (
    <Card
      title={tt('calculatorTitle')}
      style={isPhone ? { maxWidth: 540, margin: 0, borderRadius: 0 } : { maxWidth: 640, margin: '24px auto' }}
    >
      <p style={{ color: '#666' }}>{tt('calcHint')}</p>
      {packages.length ? (
        <Select
          aria-label={tt('calcFromPackage')}
          placeholder={tt('calcFromPackage')}
          style={{ width: '100%' }}
          onChange={(id: string) => {
            const p = packages.find((x) => x.id === id);
            if (p) setPrice(yuanText(Math.round(p.priceFen / p.signings)));
          }}
          options={packages.map((p) => ({ value: p.id, label: nameOf(p) }))}
        />
      ) : null}
      <label htmlFor={ids.quantity} style={field}>
        {tt('calcQuantity')}
      </label>
      <NumberInput
        id={ids.quantity}
        min={0}
        max={CALC_LIMITS.quantity}
        precision={0}
        value={quantity}
        onChange={setQuantity}
        size={isPhone ? 'large' : 'middle'}
      />
      <label htmlFor={ids.price} style={field}>
        {tt('calcUnitPrice')}
      </label>
      <DecimalInput
        id={ids.price}
        min={0}
        max={CALC_LIMITS.unitPrice}
        precision={2}
        value={price}
        onChange={setPrice}
        size={isPhone ? 'large' : 'middle'}
      />
      <div style={{ marginTop: 20 }}>
        <div style={{ color: '#666' }}>{tt('calcTotal')}</div>
        <div style={{ fontSize: isPhone ? 32 : 40, color: '#ec1c23' }} data-testid="calc-total">
          ¥<CountUp end={totalFen / 100} decimals={2} />
        </div>
      </div>
    </Card>
  );
}
