// Local stand-ins for the SMS providers' SendSms APIs. Each one checks every request's signature by the
// provider's published algorithm (recomputed here from the bytes received, with node:crypto only) before
// it answers, and answers with whatever the test queued: success or one of the provider's error answers.
import { createHash, createHmac } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding as Aliyun specifies it (space %20, * %2A, ~ kept). */
const aliyunEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Aliyun ACS3-HMAC-SHA256 (help.aliyun.com "V3 版本请求体&签名机制"): the signature over the canonical
 * request. `headers` are the signed headers, lower-case names.
 */
export function acs3Signature(r: {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  signedHeaders: string[];
  hashedPayload: string;
  secret: string;
}): string {
  const canonicalQuery = [...r.query]
    .map(([k, v]) => [aliyunEncode(k), aliyunEncode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = [...r.signedHeaders].sort();
  const canonicalHeaders = names.map((n) => `${n}:${(r.headers[n] ?? '').trim()}\n`).join('');
  const canonicalRequest = [
    r.method,
    r.path,
    canonicalQuery,
    canonicalHeaders,
    names.join(';'),
    r.hashedPayload,
  ].join('\n');
  const stringToSign = `ACS3-HMAC-SHA256\n${sha256Hex(canonicalRequest)}`;
  return createHmac('sha256', r.secret).update(stringToSign).digest('hex');
}

/** Tencent Cloud TC3-HMAC-SHA256 (cloud.tencent.com/document/api/382/52071, "签名方法 v3"). */
export function tc3Signature(r: {
  canonicalRequest: string;
  timestamp: number;
  service: string;
  secretKey: string;
}): string {
  const date = new Date(r.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${r.service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${r.timestamp}\n${scope}\n${sha256Hex(r.canonicalRequest)}`;
  const kDate = hmac(`TC3${r.secretKey}`, date);
  const kService = hmac(kDate, r.service);
  const kSigning = hmac(kService, 'tc3_request');
  return createHmac('sha256', kSigning).update(stringToSign).digest('hex');
}

export type Received = {
  /** What the stand-in understood: phone, template, params and signer. */
  phone: string;
  templateId: string;
  signName: string;
  params: Record<string, string> | string[];
  accessKeyId: string;
  rawHeaders: Record<string, string | string[] | undefined>;
  url: string;
};

type Answer = { status: number; body: unknown };

export type StandIn = {
  url: string;
  received: Received[];
  /** Signature or shape problems found (a request that fails is answered 403 and listed here). */
  problems: string[];
  /** Answers for the next requests, in order; afterwards every request succeeds. */
  queue(...answers: ((r: Received) => Answer)[]): void;
  close(): Promise<void>;
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function standIn(
  handle: (
    req: IncomingMessage,
    body: Buffer,
  ) => { received: Received } | { problem: string; status: number },
  success: (r: Received, n: number) => Answer,
): Promise<StandIn> {
  const received: Received[] = [];
  const problems: string[] = [];
  const queued: ((r: Received) => Answer)[] = [];
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const outcome = handle(req, body);
    res.setHeader('content-type', 'application/json');
    if ('problem' in outcome) {
      problems.push(outcome.problem);
      res.statusCode = outcome.status;
      res.end(JSON.stringify({ problem: outcome.problem }));
      return;
    }
    received.push(outcome.received);
    n += 1;
    const answer = (queued.shift() ?? ((r: Received) => success(r, n)))(outcome.received);
    res.statusCode = answer.status;
    res.end(JSON.stringify(answer.body));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        received,
        problems,
        queue: (...a) => queued.push(...a),
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            // The SDKs keep connections alive; close() alone would wait for them to time out.
            server.closeAllConnections();
          }),
      });
    });
  });
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
};

/** Aliyun dysmsapi SendSms (RPC style, parameters in the query, ACS3-HMAC-SHA256). */
export function aliyunStandIn(secrets: Record<string, string>): Promise<StandIn> {
  return standIn(
    (req, body) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const auth = header(req, 'authorization');
      const m = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
      if (!m) return { problem: `not an ACS3-HMAC-SHA256 Authorization: ${auth}`, status: 401 };
      const [, accessKeyId, signedList, signature] = m;
      const secret = secrets[accessKeyId];
      if (!secret) return { problem: `unknown AccessKeyId ${accessKeyId}`, status: 404 };
      const signedHeaders = signedList.split(';');
      for (const required of [
        'host',
        'x-acs-action',
        'x-acs-content-sha256',
        'x-acs-date',
        'x-acs-signature-nonce',
        'x-acs-version',
      ])
        if (!signedHeaders.includes(required)) return { problem: `${required} is not signed`, status: 400 };
      if (header(req, 'x-acs-content-sha256') !== sha256Hex(body))
        return { problem: 'x-acs-content-sha256 does not match the body', status: 400 };
      const skew = Math.abs(Date.parse(header(req, 'x-acs-date')) - Date.now());
      if (!(skew < 15 * 60_000)) return { problem: 'x-acs-date is not within 15 minutes', status: 400 };
      const headers = Object.fromEntries(signedHeaders.map((h) => [h, header(req, h)]));
      const expected = acs3Signature({
        method: req.method ?? '',
        path: url.pathname,
        query: [...url.searchParams.entries()],
        headers,
        signedHeaders,
        hashedPayload: header(req, 'x-acs-content-sha256'),
        secret,
      });
      if (expected !== signature) return { problem: 'SignatureDoesNotMatch', status: 400 };
      if (header(req, 'x-acs-action') !== 'SendSms' || header(req, 'x-acs-version') !== '2017-05-25')
        return { problem: 'not SendSms 2017-05-25', status: 400 };
      const q = url.searchParams;
      return {
        received: {
          phone: q.get('PhoneNumbers') ?? '',
          templateId: q.get('TemplateCode') ?? '',
          signName: q.get('SignName') ?? '',
          params: JSON.parse(q.get('TemplateParam') ?? '{}'),
          accessKeyId,
          rawHeaders: req.headers,
          url: req.url ?? '',
        },
      };
    },
    (_r, n) => ({
      status: 200,
      body: { Code: 'OK', Message: 'OK', BizId: `9006197469364984${n}^0`, RequestId: `ALI-REQ-${n}` },
    }),
  );
}

/** An Aliyun SendSms business error (HTTP 200, Code other than OK). */
export const aliyunError = (code: string, message: string) => () => ({
  status: 200,
  body: { Code: code, Message: message, RequestId: `ALI-ERR-${code}` },
});

/** Tencent Cloud SMS SendSms 2021-01-11 (JSON body, TC3-HMAC-SHA256). */
export function tencentStandIn(secrets: Record<string, string>): Promise<StandIn> {
  return standIn(
    (req, body) => {
      const auth = header(req, 'authorization');
      const m =
        /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
          auth,
        );
      if (!m) return { problem: `not a TC3-HMAC-SHA256 Authorization: ${auth}`, status: 401 };
      const [, secretId, date, service, signedList, signature] = m;
      const secretKey = secrets[secretId];
      if (!secretKey) return { problem: `unknown SecretId ${secretId}`, status: 404 };
      const timestamp = Number(header(req, 'x-tc-timestamp'));
      if (!(Math.abs(timestamp * 1000 - Date.now()) < 5 * 60_000))
        return { problem: 'X-TC-Timestamp is not within 5 minutes', status: 400 };
      if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
        return { problem: 'credential date is not the timestamp date', status: 400 };
      // The SDK takes the service from the endpoint's first label: "sms" on sms.tencentcloudapi.com.
      const host = header(req, 'host');
      if (service !== host.split('.')[0])
        return { problem: `credential scope service ${service}`, status: 400 };
      const signedHeaders = signedList.split(';');
      for (const required of ['content-type', 'host'])
        if (!signedHeaders.includes(required)) return { problem: `${required} is not signed`, status: 400 };
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const hostName = host.replace(/:\d+$/, '');
      const canonicalRequest = [
        req.method,
        url.pathname,
        url.search.slice(1),
        signedHeaders
          // On the standard port Host carries no port; the official SDK signs the host name alone on
          // any port, so a stand-in on a high port compares the name without it.
          .map((h) => `${h}:${(h === 'host' ? hostName : header(req, h)).trim().toLowerCase()}\n`)
          .join(''),
        signedList,
        sha256Hex(body),
      ].join('\n');
      const expected = tc3Signature({ canonicalRequest, timestamp, service, secretKey });
      if (expected !== signature) return { problem: 'AuthFailure.SignatureFailure', status: 200 };
      if (header(req, 'x-tc-action') !== 'SendSms' || header(req, 'x-tc-version') !== '2021-01-11')
        return { problem: 'not SendSms 2021-01-11', status: 400 };
      const b = JSON.parse(body.toString('utf8'));
      return {
        received: {
          phone: b.PhoneNumberSet?.[0] ?? '',
          templateId: b.TemplateId,
          signName: b.SignName,
          params: b.TemplateParamSet ?? [],
          accessKeyId: `${secretId}/${b.SmsSdkAppId}/${header(req, 'x-tc-region')}`,
          rawHeaders: req.headers,
          url: req.url ?? '',
        },
      };
    },
    (r, n) => ({
      status: 200,
      body: {
        Response: {
          SendStatusSet: [
            {
              SerialNo: `5000:1045710669157053657849499${n}`,
              PhoneNumber: r.phone,
              Fee: 1,
              SessionContext: '',
              Code: 'Ok',
              Message: 'send success',
              IsoCode: 'CN',
            },
          ],
          RequestId: `TC-REQ-${n}`,
        },
      },
    }),
  );
}

/** A per-number failure in SendStatusSet (Tencent answers the call itself with success). */
export const tencentStatusError = (code: string, message: string) => (r: Received) => ({
  status: 200,
  body: {
    Response: {
      SendStatusSet: [
        {
          SerialNo: '',
          PhoneNumber: r.phone,
          Fee: 0,
          SessionContext: '',
          Code: code,
          Message: message,
          IsoCode: 'CN',
        },
      ],
      RequestId: `TC-ERR-${code}`,
    },
  },
});

/** An error answer of the whole call ({Response: {Error}}). */
export const tencentError = (code: string, message: string) => () => ({
  status: 200,
  body: { Response: { Error: { Code: code, Message: message }, RequestId: `TC-ERR-${code}` } },
});
