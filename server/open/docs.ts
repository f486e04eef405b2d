// The readable reference of the integrator API (/open/v1/docs): one HTML page rendered on the server from
// the OpenAPI document itself, with no script (the app's CSP allows only same-origin scripts; inline styles
// are allowed), so it needs nothing beyond this file and shows exactly what openapi.json says.

type Doc = {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Error: { description: string } } };
};
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  'x-scope': string;
  parameters: (
    | { name: string; in: string; required: boolean; description?: string; schema: unknown }
    | { $ref: string }
  )[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** `code` spans in the descriptions. */
const prose = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');
const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

function operationHtml(method: string, path: string, op: Operation): string {
  const params = op.parameters
    .map((p) =>
      '$ref' in p
        ? '<tr><td><code>Idempotency-Key</code></td><td>header</td><td>no</td><td>see Idempotency above</td></tr>'
        : `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${prose(p.description ?? '')} <code>${esc(JSON.stringify(p.schema))}</code></td></tr>`,
    )
    .join('');
  const body = op.requestBody?.content['application/json']?.schema;
  const okStatus = Object.keys(op.responses).find((s) => s.startsWith('2')) ?? '200';
  const ok = op.responses[okStatus];
  const okSchema = ok.content?.['application/json']?.schema;
  return `<section id="${esc(op.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p>${prose(op.summary)}</p>
<p>${prose(op.description)}</p>
${params ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr>${params}</table>` : ''}
${body ? `<details><summary>Request body (JSON)</summary>${json(body)}</details>` : ''}
<details><summary>Answer ${okStatus}: ${prose(ok.description)}</summary>${okSchema ? json(okSchema) : ''}</details>
<p class="e">Errors: ${Object.entries(op.responses)
    .filter(([s]) => !s.startsWith('2'))
    .map(([s, r]) => `<b>${s}</b> ${prose(r.description)}`)
    .join(' · ')}</p>
</section>`;
}

/** The page. */
export function docsHtml(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
      toc.push(`<li><a href="#${esc(op.operationId)}">${method.toUpperCase()} ${esc(path)}</a></li>`);
    }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1f2328}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f6f8fa;padding:.8em;overflow:auto}
section{border-top:1px solid #d0d7de;padding:.5em 0}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}
.m{display:inline-block;min-width:4em;color:#fff;border-radius:4px;text-align:center;font-size:13px}.get{background:#0969da}.post{background:#1a7f37}.delete{background:#cf222e}
.e{color:#57606a;font-size:13px}
</style></head><body>
<h1>${esc(doc.info.title)}</h1>
<p>${prose(doc.info.description)}</p>
<p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<h2>Errors</h2><p>${prose(doc.components.schemas.Error.description)}</p>
<h2>Routes</h2><ul>${toc.join('')}</ul>
${[...byTag].map(([tag, ops]) => `<h2>${esc(tag)}</h2>${ops.join('\n')}`).join('\n')}
</body></html>`;
}
