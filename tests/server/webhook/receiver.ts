// A webhook receiver for tests: node:http on 127.0.0.1 that checks every delivery with the verification
// snippet of server/modules/webhook/README.md (the very code block integrators copy), and answers with the
// statuses a test sets.
import { readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Verify = (secret: string, headers: IncomingHttpHeaders, rawBody: string, now?: number) => boolean;

/** The README's `verifyWebhook`, compiled from its text. */
export function documentedVerifier(): Verify {
  const readme = readFileSync(join(import.meta.dirname, '../../../server/modules/webhook/README.md'), 'utf8');
  const block = /```js\n([\s\S]*?function verifyWebhook[\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('no verifyWebhook snippet in the webhook README');
  return new Function('require', `${block[1]}\nreturn verifyWebhook;`)(
    createRequire(import.meta.url),
  ) as Verify;
}

export type Received = {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  verified: boolean;
};

export type Receiver = {
  url: string;
  received: Received[];
  /** The next answers' statuses, in order (then 200); replaces what was queued before. */
  failNext(...statuses: number[]): void;
  /** The secret to verify with, and the time the receiver believes it is (the app's test clock). */
  expect(secret: string, now: () => number): void;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const verify = documentedVerifier();
  const received: Received[] = [];
  const queue: number[] = [];
  let secret = '';
  let now = () => Date.now();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        headers: req.headers,
        body,
        json: JSON.parse(body),
        verified: verify(secret, req.headers, body, now()),
      });
      res.statusCode = queue.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    failNext: (...statuses) => queue.splice(0, queue.length, ...statuses),
    expect(s, clock) {
      secret = s;
      now = clock;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
