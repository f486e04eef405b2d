import { useState } from 'react';
import { retryAfterSecondsOf, showApiError } from '@/api/http.ts';
import { SMS_RESEND_SECONDS, useCountdown } from '@/hooks/use-countdown.ts';

/**
 * What every "Get code" button does: sends a code with `send` (null: it did not send, e.g. the phone is not
 * valid yet), then counts down the wait before another (the server's `resendAfterSeconds`, else 60 s). A
 * refusal during the wait says how long is left, and the button counts that down; any refusal is shown.
 * `sendCode` answers true when a code went out.
 */
export function useSmsCodeSender<A extends unknown[]>(
  send: (...args: A) => Promise<{ resendAfterSeconds: number } | null>,
) {
  const { seconds, start } = useCountdown();
  const [isSending, setIsSending] = useState(false);
  const sendCode = async (...args: A): Promise<boolean> => {
    setIsSending(true);
    try {
      const answer = await send(...args);
      if (!answer) return false;
      start(answer.resendAfterSeconds > 0 ? answer.resendAfterSeconds : SMS_RESEND_SECONDS);
      return true;
    } catch (err) {
      const wait = retryAfterSecondsOf(err);
      if (wait) start(wait);
      showApiError(err);
      return false;
    } finally {
      setIsSending(false);
    }
  };
  return { seconds, isSending, sendCode };
}
