import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { useId, useState } from 'react';
import { SaleProductType } from '#contract/enums.ts';
import { adminSavePackage, type PackageInfo } from '@/api/package.ts';
import { DecimalInput, NumberInput } from '@/components/number-input.tsx';
import { fenOf, usePackageTexts, useSaleTypeName, yuanText } from './parts.tsx';
import { showApiError } from '@/api/http.ts';

type Draft = {
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  saleProductType: string;
  signings: string;
  price: string;
  validityDays: string;
  isActive: boolean;
  tiers: { minCopies: string; price: string }[];
};

const draftOf = (p: PackageInfo | null): Draft => ({
  name: p?.name ?? '',
  nameEn: p?.nameEn ?? '',
  description: p?.description ?? '',
  descriptionEn: p?.descriptionEn ?? '',
  saleProductType: p?.saleProductType ?? SaleProductType.CapacityPreSale,
  signings: String(p?.signings ?? 10),
  price: p ? yuanText(p.priceFen) : '0.00',
  validityDays: String(p?.validityDays ?? 365),
  isActive: p?.isActive ?? true,
  tiers: (p?.tiers ?? []).map((t) => ({ minCopies: String(t.minCopies), price: yuanText(t.priceFen) })),
});

/** Create or change a package (platform administrators); prices typed in CNY, sent in fen. */
export function PackageForm({
  pkg,
  isOpen,
  onClose,
  onSaved,
}: {
  /** null: a new package. */
  pkg: PackageInfo | null;
  isOpen: boolean;
  onClose: () => void;
  onSaved: (p: PackageInfo) => void;
}) {
  const tt = usePackageTexts();
  const typeName = useSaleTypeName();
  const id = useId();
  const [d, setD] = useState<Draft>(() => draftOf(pkg));
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const save = async () => {
    setIsBusy(true);
    setProblem(null);
    try {
      const saved = await adminSavePackage({
        ...(pkg ? { id: pkg.id } : {}),
        name: d.name,
        nameEn: d.nameEn,
        description: d.description,
        descriptionEn: d.descriptionEn,
        saleProductType: d.saleProductType as PackageInfo['saleProductType'],
        signings: Math.floor(Number(d.signings) || 0),
        priceFen: fenOf(d.price),
        validityDays: Math.floor(Number(d.validityDays) || 0),
        isActive: d.isActive,
        tiers: d.tiers.map((t) => ({
          minCopies: Math.floor(Number(t.minCopies) || 0),
          priceFen: fenOf(t.price),
        })),
      });
      onSaved(saved);
    } catch (e) {
      setProblem(showApiError(e));
    } finally {
      setIsBusy(false);
    }
  };
  const label = { display: 'block', fontWeight: 600, margin: '10px 0 4px' } as const;
  return (
    <Modal
      open={isOpen}
      title={pkg ? tt('edit') : tt('newPackage')}
      onCancel={onClose}
      onOk={save}
      okText={tt('save')}
      confirmLoading={isBusy}
      destroyOnHidden
    >
      <label htmlFor={`${id}-name`} style={label}>
        {tt('name')}
      </label>
      <Input id={`${id}-name`} value={d.name} onChange={(e) => set({ name: e.target.value })} />
      <label htmlFor={`${id}-name-en`} style={label}>
        {tt('nameEn')}
      </label>
      <Input id={`${id}-name-en`} value={d.nameEn} onChange={(e) => set({ nameEn: e.target.value })} />
      <label htmlFor={`${id}-desc`} style={label}>
        {tt('description')}
      </label>
      <Input id={`${id}-desc`} value={d.description} onChange={(e) => set({ description: e.target.value })} />
      <label htmlFor={`${id}-desc-en`} style={label}>
        {tt('descriptionEn')}
      </label>
      <Input
        id={`${id}-desc-en`}
        value={d.descriptionEn}
        onChange={(e) => set({ descriptionEn: e.target.value })}
      />
      <span style={label}>{tt('saleType')}</span>
      <Select
        aria-label={tt('saleType')}
        style={{ width: '100%' }}
        value={d.saleProductType}
        onChange={(saleProductType: string) => set({ saleProductType })}
        options={Object.values(SaleProductType).map((c) => ({ value: c, label: `${c} ${typeName(c)}` }))}
      />
      <label htmlFor={`${id}-signings`} style={label}>
        {tt('signingsPerCopy')}
      </label>
      <NumberInput
        id={`${id}-signings`}
        min={1}
        max={1_000_000}
        precision={0}
        value={d.signings}
        onChange={(signings) => set({ signings })}
      />
      <label htmlFor={`${id}-price`} style={label}>
        {tt('priceYuan')}
      </label>
      <DecimalInput
        id={`${id}-price`}
        min={0}
        max={1_000_000}
        precision={2}
        value={d.price}
        onChange={(price) => set({ price })}
      />
      <label htmlFor={`${id}-days`} style={label}>
        {tt('validityDays')}
      </label>
      <NumberInput
        id={`${id}-days`}
        min={1}
        max={3650}
        precision={0}
        value={d.validityDays}
        onChange={(validityDays) => set({ validityDays })}
      />
      <span style={label}>{tt('tiers')}</span>
      {d.tiers.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
        <div key={i} style={{ display: 'flex', gap: 8, marginBottom: 6 }}>
          <NumberInput
            aria-label={`${tt('tierMin')} ${i + 1}`}
            min={2}
            max={1000}
            precision={0}
            value={t.minCopies}
            onChange={(minCopies) =>
              set({ tiers: d.tiers.map((x, j) => (j === i ? { ...x, minCopies } : x)) })
            }
          />
          <DecimalInput
            aria-label={`${tt('tierPriceYuan')} ${i + 1}`}
            min={0}
            max={1_000_000}
            precision={2}
            value={t.price}
            onChange={(price) => set({ tiers: d.tiers.map((x, j) => (j === i ? { ...x, price } : x)) })}
          />
          <Button onClick={() => set({ tiers: d.tiers.filter((_, j) => j !== i) })}>{tt('remove')}</Button>
        </div>
      ))}
      <Button onClick={() => set({ tiers: [...d.tiers, { minCopies: '10', price: d.price }] })}>
        {tt('addTier')}
      </Button>
      <div style={{ marginTop: 12 }}>
        <Checkbox checked={d.isActive} onChange={(e) => set({ isActive: e.target.checked })}>
          {tt('active')}
        </Checkbox>
      </div>
      {problem ? <Alert type="error" title={problem} style={{ marginTop: 12 }} /> : null}
    </Modal>
  );
}
