import { notify } from '@/lib/notify.ts';
import { ApiError, ERROR_MESSAGE_MS } from './http.ts';

/**
 * After a failed call: shows a business refusal the HTTP layer has not already shown (session codes and
 * HTTP errors it shows itself), and returns the failure's text for an inline alert. Anything that is not an
 * ApiError is not shown here (no toast): its message is returned for the screen to show where it wants.
 */
export function showApiError(error: unknown): string {
  if (error instanceof ApiError) {
    if (!error.handled) notify.error(error.message, ERROR_MESSAGE_MS);
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
