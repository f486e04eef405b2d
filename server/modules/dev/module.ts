import { z } from 'zod';
import { Code } from '#contract/codes.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireLocalClient } from '../../http/local-client.ts';
import { listOutbox } from '../../messaging/messenger.ts';
import type { ServerModule } from '../server-module.ts';
import { countOf } from '#contract/plural.ts';

const zOutboxQuery = z.object({
  phone: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  // GET requests carry a random `ts` against caches (SPEC §7); it means nothing here.
  ts: z.string().optional(),
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
    app.addHook('onRequest', requireLocalClient);

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
<p>${countOf(messages.length, 'message', 'messages')}, latest first.</p>
<table><thead><tr><th>id</th><th>created</th><th>channel</th><th>to</th><th>purpose</th><th>code</th><th>text</th></tr></thead>
<tbody>${rows}</tbody></table></body></html>`;
      },
    );
  },
};
