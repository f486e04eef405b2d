import type { Config } from '../config.ts';

/**
 * The channels still on a development provider, by variable, that production is not allowed to run with
 * (README "Going live"). SMS_PROVIDER=outbox would let nobody log in; IDENTITY_PROVIDER=development checks
 * nobody. ALLOW_DEVELOPMENT_PROVIDERS=SMS_PROVIDER,IDENTITY_PROVIDER (or the older
 * ALLOW_DEV_IDENTITY_PROVIDER=1) allows them on purpose, for a demonstration. Offline payment is allowed.
 */
export function refusedDevelopmentProviders(config: Config): { variable: string; why: string }[] {
  if (!config.isProduction) return [];
  const allowed = new Set(config.allowDevelopmentProviders);
  const refused: { variable: string; why: string }[] = [];
  if (config.smsGateway.provider === 'outbox' && !allowed.has('SMS_PROVIDER'))
    refused.push({
      variable: 'SMS_PROVIDER',
      why: 'is outbox (development): no SMS reaches anyone; set aliyun or tencent and its SMS_* variables',
    });
  if (
    config.identity.provider === 'development' &&
    !config.identity.allowDevInProduction &&
    !allowed.has('IDENTITY_PROVIDER')
  )
    refused.push({
      variable: 'IDENTITY_PROVIDER',
      why: 'is development: it checks nothing about real people; configure a real identity provider',
    });
  return refused;
}

/** The refusal message serve.ts prints before exiting; null when production may start. */
export function developmentProvidersMessage(config: Config): string | null {
  const refused = refusedDevelopmentProviders(config);
  if (refused.length === 0) return null;
  return (
    'Refusing to start in production with development providers:\n' +
    refused.map((r) => `  ${r.variable} ${r.why}`).join('\n') +
    `\nSee README "Going live". To run a demonstration on purpose, set ALLOW_DEVELOPMENT_PROVIDERS=${refused
      .map((r) => r.variable)
      .join(',')}.`
  );
}
