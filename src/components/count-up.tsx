import { useEffect, useRef, useState } from 'react';
import { COUNT_UP_DURATION_MS, FRAME_MS, isHexColor, toAnimatableNumber, tweenAt } from '@/lib/tween.ts';

type CountUpProps = {
  /** A number or numeric string; anything else renders nothing. */
  end: number | string;
  start?: number | string;
  durationMs?: number;
  decimals?: number;
  /** #abc or #aabbcc; other values are ignored. */
  color?: string;
  className?: string;
};

/** Animates from `start` to `end` with ease-out-quad at about 60 frames a second (SPEC §5, §9). */
export function CountUp({
  end,
  start = 0,
  durationMs = COUNT_UP_DURATION_MS,
  decimals = 0,
  color,
  className,
}: CountUpProps) {
  const target = toAnimatableNumber(end);
  const from = toAnimatableNumber(start) ?? 0;
  const [shown, setShown] = useState(from);
  const shownRef = useRef(from);

  useEffect(() => {
    if (target === null) return;
    const from = shownRef.current;
    const startedAt = Date.now();
    // Ticks about 60 times a second; the value comes from the elapsed time, so the length is exact.
    const timer = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      const value = tweenAt(from, target, elapsed, durationMs);
      shownRef.current = value;
      setShown(value);
      if (elapsed >= durationMs) clearInterval(timer);
    }, FRAME_MS);
    return () => clearInterval(timer);
  }, [target, durationMs]);

  if (target === null) return null;
  return (
    <span className={className} style={isHexColor(color) ? { color } : undefined}>
      {shown.toFixed(decimals)}
    </span>
  );
}
