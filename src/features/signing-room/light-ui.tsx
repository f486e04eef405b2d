// Small stand-ins for antd's Modal, Input, Progress, Tag and Segmented. The signing room is what a signer on
// a phone downloads (budget: 350 kB of gzipped JS with pdf.js); these few lines replace ~60 kB of antd.
import { type CSSProperties, type ReactNode, useEffect, useId, useRef } from 'react';

export const inputStyle: CSSProperties = {
  width: '100%',
  minWidth: 0,
  padding: '6px 11px',
  fontSize: 16, // 16 px: iOS does not zoom into the field
  lineHeight: 1.5,
  border: '1px solid #d9d9d9',
  borderRadius: 6,
  outline: 'none',
  boxSizing: 'border-box',
  fontFamily: 'inherit',
};

/** A modal dialog: focus moves in, Escape or the backdrop closes it (unless busy). */
export function Dialog({
  open,
  title,
  onClose,
  children,
  isBusy = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  isBusy?: boolean;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('input, textarea, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !isBusy) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open, isBusy, onClose]);
  if (!open) return null;
  return (
    <div
      onClick={(e) => {
        if (e.target === e.currentTarget && !isBusy) onClose();
      }}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        background: 'rgba(0,0,0,0.45)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 12,
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        style={{
          background: '#fff',
          borderRadius: 8,
          padding: 20,
          width: 460,
          maxWidth: '100%',
          maxHeight: '90vh',
          overflow: 'auto',
          boxShadow: '0 6px 24px rgba(0,0,0,0.2)',
        }}
      >
        <h2 id={titleId} style={{ fontSize: 17, marginTop: 0 }}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}

/** A progress bar that says work is going on without claiming a percentage. */
export function BusyBar({ label }: { label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-busy="true"
      style={{ height: 6, background: '#f0f0f0', borderRadius: 3, overflow: 'hidden' }}
    >
      <style>
        {'@keyframes esign-busy{0%{transform:translateX(-100%)}100%{transform:translateX(250%)}}'}
      </style>
      <div
        style={{
          width: '40%',
          height: '100%',
          background: '#ec1c23',
          animation: 'esign-busy 1.2s ease-in-out infinite',
        }}
      />
    </div>
  );
}

const TAG_COLORS: Record<string, [string, string]> = {
  red: ['#fff1f0', '#cf1322'],
  green: ['#f6ffed', '#389e0d'],
  blue: ['#e6f4ff', '#0958d9'],
  default: ['#fafafa', '#555'],
};

export function Badge({ color = 'default', children }: { color?: string; children: ReactNode }) {
  const [bg, fg] = TAG_COLORS[color] ?? TAG_COLORS.default;
  return (
    <span
      style={{
        display: 'inline-block',
        padding: '0 7px',
        fontSize: 12,
        lineHeight: '20px',
        borderRadius: 4,
        background: bg,
        color: fg,
        border: `1px solid ${fg}33`,
        whiteSpace: 'nowrap',
      }}
    >
      {children}
    </span>
  );
}

/** One choice among a few (documents of a flow): toggle buttons. */
export function Choice<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <fieldset
      aria-label={label}
      style={{ display: 'flex', gap: 6, overflowX: 'auto', margin: '0 0 8px', padding: 0, border: 0 }}
    >
      {options.map((o) => (
        <button
          key={String(o.value)}
          type="button"
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
          style={{
            padding: '4px 10px',
            border: `1px solid ${o.value === value ? '#ec1c23' : '#d9d9d9'}`,
            background: o.value === value ? '#fff1f0' : '#fff',
            color: o.value === value ? '#ec1c23' : '#333',
            borderRadius: 6,
            whiteSpace: 'nowrap',
            cursor: 'pointer',
          }}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}

const NOTICE_COLORS = {
  error: ['#fff2f0', '#ffccc7'],
  warning: ['#fffbe6', '#ffe58f'],
  info: ['#e6f4ff', '#91caff'],
  success: ['#f6ffed', '#b7eb8f'],
} as const;

/** A boxed message (stands in for antd's Alert); errors are announced. */
export function Notice({
  type,
  title,
  description,
  style,
}: {
  type: keyof typeof NOTICE_COLORS;
  title: ReactNode;
  description?: ReactNode;
  style?: CSSProperties;
}) {
  const [bg, border] = NOTICE_COLORS[type];
  return (
    <div
      role={type === 'error' ? 'alert' : type === 'success' ? 'status' : 'note'}
      style={{
        background: bg,
        border: `1px solid ${border}`,
        borderRadius: 8,
        padding: '8px 12px',
        ...style,
      }}
    >
      <div>{title}</div>
      {description ? <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>{description}</div> : null}
    </div>
  );
}
