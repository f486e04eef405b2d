import { type Env, envEndpoint, envSecret, envText, requireAll } from './env.ts';

// The business-register check's settings (COMPANY_CHECK_*), read with every other setting at start;
// server/providers/company/aliyun-market.ts uses them.

export type AliyunMarketSettings = {
  endpoint: string;
  path: string;
  appKey: string;
  appSecret: string;
  /** Query parameter names for name, credit code and legal representative, in that order. */
  params: [string, string, string];
  /** Dotted path of the verdict in the JSON answer, and the values that mean "all three match". */
  resultField: string;
  matchValues: string[];
};

export function loadCompanyCheckSettings(env: Env, issues: string[]): AliyunMarketSettings | undefined {
  const provider = envText(env, 'COMPANY_CHECK_PROVIDER') ?? 'development';
  if (provider === 'development') return undefined;
  if (provider !== 'aliyun-market') {
    issues.push("COMPANY_CHECK_PROVIDER: must be 'development' or 'aliyun-market'");
    return undefined;
  }
  const params = (envText(env, 'COMPANY_CHECK_PARAMS') ?? 'companyName,creditNo,legalPerson')
    .split(',')
    .map((p) => p.trim());
  if (params.length !== 3 || params.some((p) => !/^[A-Za-z_][\w-]*$/.test(p)))
    issues.push(
      'COMPANY_CHECK_PARAMS: three parameter names (name, credit code, legal person), comma separated',
    );
  const s: AliyunMarketSettings = {
    endpoint: envEndpoint(env, 'COMPANY_CHECK_ENDPOINT', '', issues),
    path: envText(env, 'COMPANY_CHECK_PATH') ?? '',
    appKey: envText(env, 'COMPANY_CHECK_APP_KEY') ?? '',
    appSecret: envSecret(env, 'COMPANY_CHECK_APP_SECRET', issues) ?? '',
    params: params as [string, string, string],
    resultField: envText(env, 'COMPANY_CHECK_RESULT_FIELD') ?? 'data.result',
    matchValues: (envText(env, 'COMPANY_CHECK_MATCH') ?? '1,true,一致').split(',').map((v) => v.trim()),
  };
  requireAll(
    {
      COMPANY_CHECK_PATH: s.path,
      COMPANY_CHECK_APP_KEY: s.appKey,
      COMPANY_CHECK_APP_SECRET: s.appSecret,
    },
    'COMPANY_CHECK_PROVIDER=aliyun-market',
    issues,
  );
  if (s.path && !s.path.startsWith('/')) issues.push('COMPANY_CHECK_PATH: must start with /');
  return s;
}
