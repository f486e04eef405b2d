import { createHmac, randomUUID } from 'node:crypto';
import type { Text } from '../../lib/text.ts';
import type { AliyunMarketSettings } from '../../config/company-check.ts';

// The business-register check (company name + unified social credit code + legal representative) through
// an API product of the Aliyun API market (市场 "企业三要素核验"), called through Aliyun API Gateway with
// its documented AppKey/AppSecret signature, computed here with node:crypto:
//   StringToSign = METHOD\nAccept\nContent-MD5\nContent-Type\nDate\n
//                  + each X-Ca-Signature-Headers header "name:value\n" (sorted)
//                  + path?sorted query (k=v joined with &)
//   X-Ca-Signature = base64(HMAC-SHA256(AppSecret, StringToSign))
// The gateway answers X-Ca-Request-Id, kept as evidence. Market products differ in parameter names and
// answer layout; both are settings (COMPANY_CHECK_PARAMS, COMPANY_CHECK_RESULT_FIELD, COMPANY_CHECK_MATCH).

/** The X-Ca-* headers of a signed GET (exported for the stand-in test's independent check). */
function apiGatewayHeaders(
  s: Pick<AliyunMarketSettings, 'appKey' | 'appSecret'>,
  path: string,
  query: Record<string, string>,
  now = Date.now(),
  nonce = randomUUID(),
): Record<string, string> {
  const accept = 'application/json';
  const signed: Record<string, string> = {
    'x-ca-key': s.appKey,
    'x-ca-nonce': nonce,
    'x-ca-signature-method': 'HmacSHA256',
    'x-ca-timestamp': String(now),
  };
  const names = Object.keys(signed).sort();
  const sortedQuery = Object.keys(query)
    .sort()
    .map((k) => (query[k] === '' ? k : `${k}=${query[k]}`))
    .join('&');
  const toSign =
    `GET\n${accept}\n\n\n\n` +
    names.map((n) => `${n}:${signed[n]}\n`).join('') +
    (sortedQuery ? `${path}?${sortedQuery}` : path);
  return {
    accept,
    ...signed,
    'x-ca-signature-headers': names.join(','),
    'x-ca-signature': createHmac('sha256', s.appSecret).update(toSign, 'utf8').digest('base64'),
  };
}

const at = (value: unknown, dotted: string): unknown =>
  dotted
    .split('.')
    .reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      value,
    );

type RegisterVerdict = { problem: Text | null; requestId?: string };

export async function checkCompanyRegister(
  s: AliyunMarketSettings,
  company: { name: string; creditCode: string; legalRepName: string },
): Promise<RegisterVerdict> {
  const query = {
    [s.params[0]]: company.name,
    [s.params[1]]: company.creditCode,
    [s.params[2]]: company.legalRepName,
  };
  const search = new URLSearchParams(query).toString();
  const res = await fetch(`${s.endpoint}${s.path}?${search}`, {
    headers: apiGatewayHeaders(s, s.path, query),
    signal: AbortSignal.timeout(15_000),
  });
  const requestId = res.headers.get('x-ca-request-id') ?? undefined;
  if (!res.ok) {
    // X-Ca-Error-Message names gateway refusals (signature, quota); never the AppSecret.
    throw new Error(
      `company register check: HTTP ${res.status} ${res.headers.get('x-ca-error-message') ?? ''} (request ${requestId ?? '?'})`,
    );
  }
  const verdict = at(await res.json(), s.resultField);
  if (verdict !== undefined && s.matchValues.includes(String(verdict))) return { problem: null, requestId };
  return {
    requestId,
    problem: {
      en: 'the company name, unified social credit code and legal representative do not match the business register',
      zh: '企业名称、统一社会信用代码与法定代表人信息与工商登记不一致',
    },
  };
}
