import { type Env, envEndpoint, envSecret, envText, requireAll } from './env.ts';

/** IDENTITY_* settings of the real identity providers (Tencent Cloud faceid, Aliyun cloudauth). */
export type RealIdentitySettings = {
  provider: 'tencent' | 'aliyun';
  accessKeyId: string;
  accessKeySecret: string;
  region: string;
  /** Base address of the API, e.g. https://faceid.tencentcloudapi.com; http:// works (stand-ins). */
  endpoint: string;
  /** Tencent: the RuleId of the face-check (DetectAuth) rule; Aliyun: the SceneId. */
  faceScene: string;
};

const DEFAULTS = {
  tencent: { endpoint: 'https://faceid.tencentcloudapi.com', region: 'ap-guangzhou' },
  aliyun: { endpoint: 'https://cloudauth.aliyuncs.com', region: 'cn-shanghai' },
} as const;

export function loadRealIdentitySettings(
  env: Env,
  provider: 'tencent' | 'aliyun',
  issues: string[],
): RealIdentitySettings {
  const s = {
    provider,
    accessKeyId: envText(env, 'IDENTITY_ACCESS_KEY_ID') ?? '',
    accessKeySecret: envSecret(env, 'IDENTITY_ACCESS_KEY_SECRET', issues) ?? '',
    region: envText(env, 'IDENTITY_REGION') ?? DEFAULTS[provider].region,
    endpoint: envEndpoint(env, 'IDENTITY_ENDPOINT', DEFAULTS[provider].endpoint, issues),
    faceScene: envText(env, 'IDENTITY_FACE_SCENE') ?? '',
  };
  requireAll(
    {
      IDENTITY_ACCESS_KEY_ID: s.accessKeyId,
      IDENTITY_ACCESS_KEY_SECRET: s.accessKeySecret,
      IDENTITY_FACE_SCENE: s.faceScene,
    },
    `IDENTITY_PROVIDER=${provider}`,
    issues,
  );
  if (provider === 'aliyun' && s.faceScene && !/^\d+$/.test(s.faceScene))
    issues.push('IDENTITY_FACE_SCENE: the Aliyun SceneId is a number');
  return s;
}
