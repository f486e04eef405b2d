import { loadPartnerSettings } from '../server/config/partner.ts';
import { mintPartnerToken, signingKeyFor } from '../server/modules/partner/index.ts';

/**
 * A partner login token minted by the same code as `npm run partner-token`, with the development settings
 * the Playwright server runs with (NODE_ENV=test, no PARTNER_* variables).
 */
export function partnerToken(code: 'ZHDB' | 'ZYPT', phone: string, name?: string): string {
  const settings = loadPartnerSettings({}, false);
  if (!settings.ok) throw new Error(settings.issues.join('\n'));
  const partner = settings.value.partners.find((p) => p.code === code);
  if (!partner) throw new Error(`partner ${code} is not configured`);
  return mintPartnerToken({ partner, key: signingKeyFor(partner), phone, name });
}

/** The link a partner platform opens: the login page with its platform code and the token. */
export const partnerLink = (code: 'ZHDB' | 'ZYPT', token: string) =>
  `/#/loginPage?${new URLSearchParams({ fromPtCode: code, jsToken: token })}`;

export const partnerTexts = {
  'en-US': {
    zhdbName: 'Guarantee-company platform',
    menuItem: 'Templates',
    // the ZHDB footer names ZHDB, never the default platform (issue 11 edge 5)
    footer: 'Guarantee-company platform · electronic signatures and contracts',
    replayed: /already used/,
  },
  'zh-CN': {
    zhdbName: '担保公司平台',
    menuItem: '模板管理',
    footer: '担保公司平台 · 电子签章与电子合同',
    replayed: /已使用过/,
  },
} as const;
