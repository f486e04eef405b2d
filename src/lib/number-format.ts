// Pure rules behind NumberInput and DecimalInput (SPEC §5), kept apart from React so they are easy to test.

/** Keep only digits, the first dot and a minus in front; everything else typed is dropped. */
export function sanitizeNumberText(text: string, allowNegative = true): string {
  const negative = allowNegative && text.trimStart().startsWith('-');
  let seenDot = false;
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === '.' && !seenDot) {
      seenDot = true;
      out += ch;
    }
  }
  return negative ? `-${out}` : out;
}

/** Keep only a non-negative decimal: digits and the first dot. */
export const sanitizeDecimalText = (text: string): string => sanitizeNumberText(text, false);

export type NumberBounds = { min?: number; max?: number; precision?: number };

/**
 * The value a field settles on when it loses focus: empty or unparsable → 0, then clamped to [min, max],
 * then written with `precision` decimals when given.
 */
export function settleNumber(text: string, { min, max, precision }: NumberBounds = {}): string {
  let value = Number.parseFloat(text);
  if (!Number.isFinite(value)) value = 0;
  if (min !== undefined && value < min) value = min;
  if (max !== undefined && value > max) value = max;
  return precision !== undefined ? value.toFixed(precision) : String(value);
}
