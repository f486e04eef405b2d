import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CountUp } from '@/components/count-up.tsx';

describe('CountUp (SPEC §5, §9)', () => {
  it('animates to the end in about 1000 ms, eased out, in ~60 frames', () => {
    vi.useFakeTimers();
    const ticks = vi.spyOn(globalThis, 'setInterval');
    const { container } = render(<CountUp end={200} decimals={2} />);
    expect(ticks).toHaveBeenCalledWith(expect.any(Function), 1000 / 60);
    const text = () => container.textContent;
    expect(text()).toBe('0.00');
    act(() => vi.advanceTimersByTime(500));
    // ease-out-quad: halfway through time, three quarters of the way
    expect(Number(text())).toBeGreaterThanOrEqual(145);
    expect(Number(text())).toBeLessThanOrEqual(155);
    act(() => vi.advanceTimersByTime(480));
    expect(Number(text())).toBeLessThan(200);
    act(() => vi.advanceTimersByTime(40));
    expect(text()).toBe('200.00');
  });

  it('accepts a numeric string and decimals', () => {
    vi.useFakeTimers();
    const { container } = render(<CountUp end="12.5" decimals={1} durationMs={100} />);
    act(() => vi.advanceTimersByTime(200));
    expect(container.textContent).toBe('12.5');
  });

  it('renders nothing for a value that is not numeric', () => {
    const { container } = render(<CountUp end="12abc" />);
    expect(container.textContent).toBe('');
  });

  it('uses 3- or 6-digit hex colours and ignores anything else', () => {
    const { container, rerender } = render(<CountUp end={1} color="#e1c" />);
    expect((container.firstChild as HTMLElement).style.color).toBe('rgb(238, 17, 204)');
    rerender(<CountUp end={1} color="#ec1c23" />);
    expect((container.firstChild as HTMLElement).style.color).toBe('rgb(236, 28, 35)');
    rerender(<CountUp end={1} color="red" />);
    expect((container.firstChild as HTMLElement).style.color).toBe('');
    rerender(<CountUp end={1} color="#ec1c2" />);
    expect((container.firstChild as HTMLElement).style.color).toBe('');
  });
});
