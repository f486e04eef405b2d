import { SmsPurpose } from '#contract/enums.ts';

// The SMS gateway's settings (SMS_*), read with every other setting at start; server/providers/sms/ uses them.

/** Code purposes (contract SmsPurpose) and notice purposes, each with its template variable. */
const SMS_CODE_TEMPLATES: Record<SmsPurpose, string> = {
  [SmsPurpose.Register]: 'SMS_TEMPLATE_REGISTER',
  [SmsPurpose.Login]: 'SMS_TEMPLATE_LOGIN',
  [SmsPurpose.ResetPassword]: 'SMS_TEMPLATE_RESET_PASSWORD',
  [SmsPurpose.RoomLogin]: 'SMS_TEMPLATE_ROOM_LOGIN',
  [SmsPurpose.Sign]: 'SMS_TEMPLATE_SIGN',
  [SmsPurpose.RealName]: 'SMS_TEMPLATE_REAL_NAME',
  [SmsPurpose.RecoverAccount]: 'SMS_TEMPLATE_RECOVER_ACCOUNT',
  [SmsPurpose.CertChange]: 'SMS_TEMPLATE_CERT_CHANGE',
  [SmsPurpose.SigningPassword]: 'SMS_TEMPLATE_SIGNING_PASSWORD',
};

/** Notices of the signing flows (server/modules/flow/model.ts `notify`): optional templates. */
const SMS_NOTICE_TEMPLATES: Record<string, string> = {
  'flow:sign_request': 'SMS_TEMPLATE_SIGN_REQUEST',
  'flow:remind': 'SMS_TEMPLATE_REMIND',
  'flow:deadline_soon': 'SMS_TEMPLATE_DEADLINE_SOON',
  'flow:signed': 'SMS_TEMPLATE_SIGNED',
  'flow:completed': 'SMS_TEMPLATE_COMPLETED',
  'flow:declined': 'SMS_TEMPLATE_DECLINED',
  'flow:cancelled': 'SMS_TEMPLATE_CANCELLED',
  'flow:expired': 'SMS_TEMPLATE_EXPIRED',
  // Reassign and deadline change (issue 29): `name` who acted, `title` the contract, `deadline` the new one.
  'flow:reassigned': 'SMS_TEMPLATE_REASSIGNED',
  'flow:deadline_changed': 'SMS_TEMPLATE_DEADLINE_CHANGED',
  // A revised document (issue 29): to every party; `name` the launcher, link empty.
  'flow:revised': 'SMS_TEMPLATE_REVISED',
  // An operator invitation (server/modules/company/invitations.ts): name the company, title empty, link.
  'company:invitation': 'SMS_TEMPLATE_COMPANY_INVITATION',
  // Seal-use approval (server/modules/approval): `name` the notice's title (the seal), `title` the contract, link.
  'approval:requested': 'SMS_TEMPLATE_APPROVAL_REQUESTED',
  'approval:decided': 'SMS_TEMPLATE_APPROVAL_DECIDED',
  // A new comment on a flow (issue 29, server/modules/flow/comments.ts): `name` the author, title, link.
  'flow:comment': 'SMS_TEMPLATE_COMMENT',
};

export type SmsSettings =
  | { provider: 'outbox' }
  | {
      provider: 'aliyun' | 'tencent';
      accessKeyId: string;
      accessKeySecret: string;
      signName: string;
      /** Tencent's SmsSdkAppId; null for Aliyun. */
      appId: string | null;
      region: string;
      /** Host[:port] and protocol the SDK talks to (SMS_ENDPOINT), or the provider's default. */
      endpoint: { host: string; protocol: 'http' | 'https' } | null;
      /** Template id per purpose (code purposes always; notice purposes when configured). */
      templates: Record<string, string>;
      /** Attempts after the first for a temporary failure, and the first wait (doubled each time). */
      retries: number;
      retryBaseMs: number;
      timeoutMs: number;
    };

const trimmed = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

/** Reads SMS_* (README "Going live"); every missing or bad variable is named. */
export function loadSmsSettings(
  env: Record<string, string | undefined>,
): { ok: true; value: SmsSettings } | { ok: false; issues: string[] } {
  const provider = trimmed(env.SMS_PROVIDER) ?? 'outbox';
  if (provider !== 'outbox' && provider !== 'aliyun' && provider !== 'tencent')
    return { ok: false, issues: ['SMS_PROVIDER: must be aliyun, tencent or outbox'] };
  if (provider === 'outbox') return { ok: true, value: { provider } };
  const issues: string[] = [];
  const required = (name: string) => {
    const v = trimmed(env[name]);
    if (!v) issues.push(`${name}: required when SMS_PROVIDER=${provider}`);
    return v ?? '';
  };
  const accessKeyId = required('SMS_ACCESS_KEY_ID');
  const accessKeySecret = required('SMS_ACCESS_KEY_SECRET');
  const signName = required('SMS_SIGN_NAME');
  const appId = provider === 'tencent' ? required('SMS_APP_ID') : null;
  const templates: Record<string, string> = {};
  const fallback = trimmed(env.SMS_TEMPLATE_CODE);
  for (const [purpose, name] of Object.entries(SMS_CODE_TEMPLATES)) {
    const v = trimmed(env[name]) ?? fallback;
    if (v) templates[purpose] = v;
    else
      issues.push(
        `${name}: required when SMS_PROVIDER=${provider} (or set SMS_TEMPLATE_CODE for every code)`,
      );
  }
  for (const [purpose, name] of Object.entries(SMS_NOTICE_TEMPLATES)) {
    const v = trimmed(env[name]);
    if (v) templates[purpose] = v;
  }
  let endpoint: { host: string; protocol: 'http' | 'https' } | null = null;
  const rawEndpoint = trimmed(env.SMS_ENDPOINT);
  if (rawEndpoint) {
    const m = /^(https?):\/\/([^/?#\s]+)\/?$/.exec(rawEndpoint);
    if (m) endpoint = { protocol: m[1] as 'http' | 'https', host: m[2] };
    else issues.push('SMS_ENDPOINT: must be http(s)://host[:port] with no path');
  }
  const int = (name: string, def: number, min: number, max: number) => {
    const raw = trimmed(env[name]);
    if (raw === undefined) return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      issues.push(`${name}: must be a whole number from ${min} to ${max}`);
      return def;
    }
    return n;
  };
  const retries = int('SMS_RETRIES', 2, 0, 10);
  const retryBaseMs = int('SMS_RETRY_BASE_MS', 500, 0, 60_000);
  const timeoutMs = int('SMS_TIMEOUT_MS', 5000, 100, 120_000);
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      provider,
      accessKeyId,
      accessKeySecret,
      signName,
      appId,
      region: trimmed(env.SMS_REGION) ?? (provider === 'tencent' ? 'ap-guangzhou' : 'cn-hangzhou'),
      endpoint,
      templates,
      retries,
      retryBaseMs,
      timeoutMs,
    },
  };
}
