// Build-time settings of the client (Vite modes: .env.dev, .env.test, .env.prod). Checked once at start so
// a bad value fails with the variable's name instead of as a mysterious network error later.

type ClientEnv = {
  /** API origin for pages served from the `dev.` sub-domain ('' = the page's own origin). */
  VITE_API_HOST_DEV: string;
  VITE_API_HOST_TEST: string;
  VITE_API_HOST_WWW: string;
};

const HOST_KEYS = ['VITE_API_HOST_DEV', 'VITE_API_HOST_TEST', 'VITE_API_HOST_WWW'] as const;

export function readEnv(raw: Record<string, unknown> = import.meta.env): ClientEnv {
  const env = {} as ClientEnv;
  for (const key of HOST_KEYS) {
    const value = raw[key];
    const text = typeof value === 'string' ? value.trim() : '';
    if (value !== undefined && typeof value !== 'string') throw new Error(`${key} must be a string`);
    if (text && !/^https?:\/\/[^/\s]+$/.test(text.replace(/\/$/, ''))) {
      throw new Error(`${key} must be empty or an origin like https://api.example.com (got "${text}")`);
    }
    env[key] = text.replace(/\/$/, '');
  }
  return env;
}

/**
 * SPEC §7: the API host is chosen by the page's sub-domain (dev, test, www). Any other host, or an
 * empty setting, means the page's own origin — what `npm start` serves.
 */
export function apiBaseUrl(hostname: string, env: ClientEnv): string {
  const sub = hostname.split('.')[0]?.toLowerCase();
  if (sub === 'dev') return env.VITE_API_HOST_DEV;
  if (sub === 'test') return env.VITE_API_HOST_TEST;
  if (sub === 'www') return env.VITE_API_HOST_WWW;
  return '';
}
