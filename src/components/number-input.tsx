import Input, { type InputProps } from 'antd/es/input';
import { useEffect, useState } from 'react';
import {
  type NumberBounds,
  sanitizeDecimalText,
  sanitizeNumberText,
  settleNumber,
} from '@/lib/number-format.ts';

type NumberInputProps = Omit<InputProps, 'value' | 'onChange' | 'defaultValue'> &
  NumberBounds & {
    value?: number | string | null;
    /** Called with the sanitised text while typing and with the settled value on blur. */
    onChange?: (value: string) => void;
  };

const toText = (value: NumberInputProps['value']) =>
  value === null || value === undefined ? '' : String(value);

function useNumberField(
  props: NumberInputProps,
  sanitize: (text: string) => string,
  bounds: NumberBounds,
): Pick<InputProps, 'value' | 'onChange' | 'onBlur'> {
  const { value, onChange, onBlur } = props;
  const [text, setText] = useState(() => toText(value));
  useEffect(() => setText(toText(value)), [value]);
  return {
    value: text,
    onChange: (event) => {
      const next = sanitize(event.target.value);
      setText(next);
      onChange?.(next);
    },
    onBlur: (event) => {
      const settled = settleNumber(text, bounds);
      setText(settled);
      onChange?.(settled);
      onBlur?.(event);
    },
  };
}

/** SPEC §5: digits, one dot and a minus; on blur clamped to [min, max] and written with `precision`; empty → 0. */
export function NumberInput(props: NumberInputProps) {
  const { min, max, precision, value: _v, onChange: _c, onBlur: _b, ...rest } = props;
  const field = useNumberField(props, sanitizeNumberText, { min, max, precision });
  return <Input inputMode="decimal" {...rest} {...field} />;
}

/** SPEC §5: non-negative decimals only (no minus), clamped on blur (min never below 0). */
export function DecimalInput(props: NumberInputProps) {
  const { min, max, precision, value: _v, onChange: _c, onBlur: _b, ...rest } = props;
  const field = useNumberField(props, sanitizeDecimalText, { min: Math.max(0, min ?? 0), max, precision });
  return <Input inputMode="decimal" {...rest} {...field} />;
}
