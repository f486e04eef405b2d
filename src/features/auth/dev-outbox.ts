// Development only: where an SMS code went. The server's development message sender writes to an outbox
// page (/v1/dev/outbox.html) that exists only outside production. The hint is offered only to a page opened
// on this machine (a loopback address) and only when the outbox answers, so production never shows it.

const DEV_OUTBOX_PAGE = '/v1/dev/outbox.html';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '[::1]' ||
    h === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(h)
  );
}

let probe: Promise<boolean> | undefined;

/** Whether the development outbox can be shown to this page (asked once per page load). */
export function devOutboxAvailable(): Promise<boolean> {
  if (typeof window === 'undefined' || !isLoopbackHost(window.location.hostname))
    return Promise.resolve(false);
  probe ??= fetch(new URL('/v1/dev/outbox?limit=1', window.location.href).toString(), {
    credentials: 'include',
  })
    .then((r) => r.ok)
    .catch(() => false);
  return probe;
}

/** The outbox page filtered to one phone. */
export const devOutboxUrl = (phone: string) => `${DEV_OUTBOX_PAGE}?phone=${encodeURIComponent(phone)}`;

/** Tests: forget the answer of the last probe. */
export function resetDevOutboxProbe(): void {
  probe = undefined;
}
