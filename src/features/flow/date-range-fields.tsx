import { useId } from 'react';

type DateRange = { dateFrom: string; dateTo: string };

const labelStyle = { display: 'block', fontSize: 12, color: '#666' } as const;
const dateStyle = { padding: '4px 8px', border: '1px solid #d9d9d9', borderRadius: 6, height: 32 } as const;

/** The "from" and "to" date inputs of a list's filters (the launched and pending lists, batch signing). */
export function DateRangeFields({
  value,
  onChange,
  labels,
}: {
  value: DateRange;
  onChange: (next: DateRange) => void;
  labels: { from: string; to: string };
}) {
  const ids = { from: useId(), to: useId() };
  return (
    <>
      <div>
        <label htmlFor={ids.from} style={labelStyle}>
          {labels.from}
        </label>
        <input
          id={ids.from}
          type="date"
          value={value.dateFrom}
          onChange={(e) => onChange({ dateFrom: e.target.value, dateTo: value.dateTo })}
          style={dateStyle}
        />
      </div>
      <div>
        <label htmlFor={ids.to} style={labelStyle}>
          {labels.to}
        </label>
        <input
          id={ids.to}
          type="date"
          value={value.dateTo}
          onChange={(e) => onChange({ dateFrom: value.dateFrom, dateTo: e.target.value })}
          style={dateStyle}
        />
      </div>
    </>
  );
}
