/**
 * Mints a partner login token for local testing, as the partner platform would, and prints the link to open:
 *
 *   npm run partner-token -- --platform ZHDB --user 13800138000 [--name 张三] [--ttl 120]
 *                            [--sub PARTNER_USER_ID] [--key PRIVATE_KEY.pem] [--base http://localhost:5173]
 *
 * The partner's settings come from the same environment as the server (server/config.ts): outside production
 * ZHDB signs with the development secret and ZYPT with the development key pair. A partner configured with
 * its own public key needs --key (its private key). The token lives --ttl seconds (default 120, at most 300)
 * and is accepted once.
 */
import './require-node24.ts';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { JS_TOKEN_PARAM, PARTNER_TOKEN_MAX_LIFETIME_SECONDS } from '../contract/calls/partner.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { findPartner } from '../server/config/partner.ts';
import { mintPartnerToken, signingKeyFor } from '../server/modules/partner/index.ts';

const usage =
  'usage: npm run partner-token -- --platform ZHDB --user PHONE [--name NAME] [--ttl SECONDS] [--sub ID] [--key FILE] [--base URL]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    platform: { type: 'string' },
    user: { type: 'string' },
    name: { type: 'string' },
    ttl: { type: 'string' },
    sub: { type: 'string' },
    key: { type: 'string' },
    base: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.platform || !values.user) fail(usage);
if (!/^1\d{10}$/.test(values.user)) fail('--user must be an 11-digit mainland mobile number');
const ttl = values.ttl === undefined ? 120 : Number(values.ttl);
if (!Number.isInteger(ttl) || ttl < 1 || ttl > PARTNER_TOKEN_MAX_LIFETIME_SECONDS)
  fail(`--ttl must be a whole number of seconds from 1 to ${PARTNER_TOKEN_MAX_LIFETIME_SECONDS}`);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  fail(err instanceof ConfigError ? err.message : String(err));
}
const partner = findPartner(config.partners, values.platform);
if (!partner) {
  const known = config.partners.partners.map((p) => p.code).join(', ') || 'none';
  fail(`partner ${values.platform} is not configured (configured: ${known}); see server/config/partner.ts`);
}

let key: ReturnType<typeof signingKeyFor>;
try {
  key = signingKeyFor(partner, values.key ? readFileSync(values.key, 'utf8') : undefined);
} catch (err) {
  fail((err as Error).message);
}
const token = mintPartnerToken({
  partner,
  key,
  phone: values.user,
  partnerUserId: values.sub,
  name: values.name,
  ttlSeconds: ttl,
});
const base = (values.base ?? config.publicUrl).replace(/\/+$/, '');
const query = new URLSearchParams({ fromPtCode: partner.code, [JS_TOKEN_PARAM]: token });

console.log(
  `partner ${partner.code} (${partner.alg}${partner.isDevelopmentKey ? ', development key' : ''}), valid ${ttl} s, once`,
);
console.log(`token: ${token}`);
console.log(`open:  ${base}/#/loginPage?${query}`);
