import { useCallback, useEffect, useState } from 'react';

/** Seconds before another SMS code may be requested. */
export const SMS_RESEND_SECONDS = 60;

/** A one-second countdown: start(n) begins it, `seconds` is 0 when idle. */
export function useCountdown() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  const start = useCallback((from: number = SMS_RESEND_SECONDS) => setSeconds(from), []);
  return { seconds, start };
}
