import type { Config } from '../../config.ts';

/**
 * Who may frame the app (CSP frame-ancestors): the app itself, every configured partner's origins
 * (PARTNER_<CODE>_ORIGINS) and FRAME_ANCESTORS. The hash router keeps `fromPtCode` out of the request the
 * server sees, so the policy cannot be narrowed per partner here; the client narrows its messages instead
 * (getPlatformConfig below).
 */
export function frameAncestorsOf(config: Pick<Config, 'frameAncestors' | 'partners'>): string[] {
  const sources = new Set(["'self'", ...config.frameAncestors]);
  for (const partner of config.partners.partners) for (const origin of partner.origins) sources.add(origin);
  // 'none' means no framing at all and cannot be combined with other sources.
  if (sources.has("'none'") && sources.size > 1) sources.delete("'none'");
  return [...sources];
}

/** The CSP sources that are exact http(s) origins. */
export function exactOrigins(sources: readonly string[]): string[] {
  return sources.filter((source) => {
    try {
      const url = new URL(source);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.origin === source &&
        !source.includes('*')
      );
    } catch {
      return false;
    }
  });
}
