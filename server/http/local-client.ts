import type { FastifyRequest } from 'fastify';
import { Code } from '#contract/codes.ts';
import { AppError } from './app-error.ts';
import type { Text } from './texts.ts';

// Development aids (the SMS outbox, the simulated central login) hand out what logs anyone in: they
// answer only clients on the machine itself (issue 16).

const localOnly: Text = {
  en: 'this development page (SMS outbox, simulated login) answers only on the machine the server runs on (a loopback address such as 127.0.0.1): open it there',
  zh: '此开发用页面（短信发件箱、模拟登录）只响应服务器所在本机（127.0.0.1 等回环地址）的请求，请在本机打开',
};

const isLoopback = (address: string | undefined) =>
  !!address &&
  /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.test(address.trim());

/** Forwarded's node: "[::1]:port", "127.0.0.1:port" or a bare address -> the address. */
function nodeAddress(node: string): string {
  const v = node.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]*)\]/.exec(v);
  if (bracketed) return bracketed[1];
  return v.split(':').length === 2 ? v.split(':')[0] : v;
}

/** Every address a forwarding header names (X-Forwarded-For, X-Real-IP, Forwarded's for=). */
function forwardedAddresses(req: FastifyRequest): string[] {
  const values = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v : v ? [v] : []).flatMap((x) => x.split(','));
  };
  const forwarded = values('forwarded').flatMap((part) =>
    part
      .split(';')
      .map((kv) => kv.trim())
      .filter((kv) => /^for=/i.test(kv))
      .map((kv) => nodeAddress(kv.slice(4))),
  );
  return [...values('x-forwarded-for'), ...values('x-real-ip'), ...forwarded].map((a) => a.trim());
}

/**
 * Only a client on this machine: the connection's own peer must be loopback (whatever TRUST_PROXY
 * says), and a request that came through a proxy on this machine must name only loopback clients too.
 */
export function isLocalClient(req: FastifyRequest): boolean {
  return isLoopback(req.socket.remoteAddress) && forwardedAddresses(req).every(isLoopback);
}

/** An onRequest hook: 403 with a bilingual refusal unless the client is on this machine. */
export async function requireLocalClient(req: FastifyRequest): Promise<void> {
  if (!isLocalClient(req)) throw new AppError(Code.Refused, localOnly, { status: 403 });
}
