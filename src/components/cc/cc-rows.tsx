import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import { useTexts } from '@/i18n/i18n-store.ts';
import { type CcDraft, ccTexts } from './cc-texts.ts';

/** Rows of copy recipients being typed (name, phone, "progress too"); wraps on a phone. */
export function CcRows({
  list,
  onChange,
  limit,
}: {
  list: CcDraft[];
  onChange: (list: CcDraft[]) => void;
  limit: number;
}) {
  const tt = useTexts(ccTexts);
  const set = (key: string, change: Partial<CcDraft>) =>
    onChange(list.map((c) => (c.key === key ? { ...c, ...change } : c)));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {list.map((c, i) => (
        <div
          key={c.key}
          data-testid="cc-row"
          style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}
        >
          <Input
            aria-label={`${tt('name')} ${i + 1}`}
            placeholder={tt('name')}
            maxLength={32}
            style={{ width: 140, maxWidth: '100%' }}
            value={c.name}
            onChange={(e) => set(c.key, { name: e.target.value })}
          />
          <Input
            aria-label={`${tt('phone')} ${i + 1}`}
            placeholder={tt('phone')}
            inputMode="numeric"
            maxLength={11}
            style={{ width: 160, maxWidth: '100%' }}
            value={c.phone}
            onChange={(e) => set(c.key, { phone: e.target.value.replace(/\D/g, '') })}
          />
          <Checkbox
            checked={c.notifyProgress}
            onChange={(e) => set(c.key, { notifyProgress: e.target.checked })}
          >
            {tt('progress')}
          </Checkbox>
          <Button
            size="small"
            type="link"
            danger
            onClick={() => onChange(list.filter((x) => x.key !== c.key))}
          >
            {tt('remove')}
          </Button>
        </div>
      ))}
      {list.length < limit ? (
        <div>
          <Button
            onClick={() =>
              onChange([
                ...list,
                {
                  key: `cc${Date.now().toString(36)}${list.length}`,
                  name: '',
                  phone: '',
                  notifyProgress: false,
                },
              ])
            }
          >
            {tt('add')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
