// A local HTTP server standing in for an outside provider: it records every request (method, path,
// headers, exact body) and answers with what the test's handler returns.
import { generateKeyPairSync } from 'node:crypto';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SeenRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
export type StandInAnswer = { status?: number; headers?: Record<string, string>; body: string };

export type StandIn = {
  url: string;
  requests: SeenRequest[];
  handle(fn: (req: SeenRequest) => StandInAnswer): void;
  close(): Promise<void>;
};

export async function startStandIn(): Promise<StandIn> {
  const requests: SeenRequest[] = [];
  let handler: (req: SeenRequest) => StandInAnswer = () => ({ status: 500, body: 'no handler' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      let answer: StandInAnswer;
      try {
        answer = handler(seen);
      } catch (err) {
        answer = { status: 500, body: String(err) };
      }
      res.writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (fn) => {
      handler = fn;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A fresh RSA-2048 key pair as PEM (PKCS#8 private, SPKI public). */
export function rsaPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
