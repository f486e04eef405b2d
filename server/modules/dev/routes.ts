import { z } from 'zod';
import { Code } from '#contract/codes.ts';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { listOutbox } from '../../messaging/messenger.ts';
import type { ServerModule } from '../module.ts';

const zOutboxQuery = z.object({
  phone: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  // GET requests carry a random `ts` against caches (SPEC §7); it means nothing here.
  ts: z.string().optional(),
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const outboxRefused: Text = {
  en: 'the development outbox answers only on the machine the server runs on (a loopback address such as 127.0.0.1): open it there',
  zh: '开发用发件箱只响应服务器所在本机（127.0.0.1 等回环地址）的请求，请在本机打开',
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

/**
 * Development only (never registered in production): the outbox of the default message sender, so that
 * a developer, the server tests and Playwright can read SMS codes. Latest first.
 */
export const devModule: ServerModule = {
  name: 'dev',
  register(app, deps) {
    if (deps.config.isProduction) return;
    const typed = app.withTypeProvider<ZodTypeProvider>();
    // It hands out every SMS code: never to another machine (issue 16).
    app.addHook('onRequest', async (req) => {
      if (!isLocalClient(req)) throw new AppError(Code.Refused, outboxRefused, { status: 403 });
    });

    typed.get('/v1/dev/outbox', { schema: { hide: true, querystring: zOutboxQuery } }, async (req) => {
      const data = await listOutbox(deps.db, { to: req.query.phone, limit: req.query.limit });
      return { code: Code.Ok, msg: 'success', data };
    });

    typed.get(
      '/v1/dev/outbox.html',
      { schema: { hide: true, querystring: zOutboxQuery } },
      async (req, reply) => {
        const messages = await listOutbox(deps.db, { to: req.query.phone, limit: req.query.limit ?? 100 });
        const rows = messages
          .map(
            (m) =>
              `<tr><td>${m.id}</td><td>${escapeHtml(m.createdAt)}</td><td>${m.channel}</td><td>${escapeHtml(m.to)}</td>` +
              `<td>${escapeHtml(m.purpose)}</td><td><b>${escapeHtml(m.code ?? '')}</b></td><td>${escapeHtml(m.text)}</td></tr>`,
          )
          .join('\n');
        reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
        return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox (development)</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>
</head><body><h1>Outbox 发件箱 (development only)</h1>
<form method="get"><label>Phone 手机号 <input name="phone" value="${escapeHtml(req.query.phone ?? '')}"></label> <button>Filter 筛选</button></form>
<p>${messages.length} message(s), latest first.</p>
<table><thead><tr><th>id</th><th>created</th><th>channel</th><th>to</th><th>purpose</th><th>code</th><th>text</th></tr></thead>
<tbody>${rows}</tbody></table></body></html>`;
      },
    );
  },
};
