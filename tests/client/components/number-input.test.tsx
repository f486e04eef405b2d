import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DecimalInput, NumberInput } from '@/components/number-input.tsx';

const field = () => screen.getByRole('textbox') as HTMLInputElement;

describe('NumberInput (SPEC §5)', () => {
  it('accepts only digits, one dot and a minus while typing', async () => {
    const onChange = vi.fn();
    render(<NumberInput aria-label="Amount" onChange={onChange} />);
    await userEvent.type(field(), '-1a2.3.4x');
    expect(field().value).toBe('-12.34');
    expect(onChange).toHaveBeenLastCalledWith('-12.34');
  });

  it('clamps to min and max and formats to the precision on blur', async () => {
    const onChange = vi.fn();
    render(<NumberInput aria-label="Amount" min={-10} max={100} precision={2} onChange={onChange} />);
    await userEvent.type(field(), '250');
    fireEvent.blur(field());
    expect(field().value).toBe('100.00');
    expect(onChange).toHaveBeenLastCalledWith('100.00');
    await userEvent.clear(field());
    await userEvent.type(field(), '-99');
    fireEvent.blur(field());
    expect(field().value).toBe('-10.00');
    await userEvent.clear(field());
    await userEvent.type(field(), '3.14159');
    fireEvent.blur(field());
    expect(field().value).toBe('3.14');
  });

  it('turns an empty value into 0 on blur', () => {
    render(<NumberInput aria-label="Amount" />);
    fireEvent.blur(field());
    expect(field().value).toBe('0');
  });
});

describe('DecimalInput (SPEC §5)', () => {
  it('accepts only non-negative decimals and clamps on blur', async () => {
    render(<DecimalInput aria-label="Price" max={50} />);
    await userEvent.type(field(), '-7.5.5');
    expect(field().value).toBe('7.55');
    await userEvent.clear(field());
    await userEvent.type(field(), '80');
    fireEvent.blur(field());
    expect(field().value).toBe('50');
  });

  it('never settles below 0 even with a negative min', () => {
    render(<DecimalInput aria-label="Price" min={-5} value="" />);
    fireEvent.blur(field());
    expect(field().value).toBe('0');
  });
});
