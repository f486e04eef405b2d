// The webhook verification snippet integrators copy is the same in README.md and in the module README (the
// one webhook.test.ts runs against every delivery), and it accepts only what the server signs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { signatureOf } from '#server/modules/webhook/index.ts';
import { documentedVerifier } from '../fixtures/webhook-receiver.ts';

const root = join(import.meta.dirname, '../../..');
const snippetOf = (file: string) =>
  /```js\n([\s\S]*?function verifyWebhook[\s\S]*?)```/.exec(readFileSync(join(root, file), 'utf8'))?.[1];

describe('the documented verification snippet', () => {
  test('README.md and the module README carry the same code', () => {
    const top = snippetOf('README.md');
    expect(top).toBeTruthy();
    expect(top).toBe(snippetOf('server/modules/webhook/README.md'));
  });

  test("accepts the server's signature, refuses another body, secret, or a time outside 5 minutes", () => {
    const verify = documentedVerifier();
    const secret = 'whsec_test';
    const body = '{"id":"1","type":"flow.completed"}';
    const now = 1_800_000_000_000;
    const timestamp = String(now / 1000);
    const headers = {
      'x-esign-timestamp': timestamp,
      'x-esign-signature': signatureOf(secret, timestamp, body),
    };
    expect(verify(secret, headers, body, now)).toBe(true);
    expect(verify(secret, headers, body, now + 299_000)).toBe(true);
    expect(verify(secret, headers, body, now + 301_000)).toBe(false);
    expect(verify(secret, headers, `${body} `, now)).toBe(false);
    expect(verify('whsec_other', headers, body, now)).toBe(false);
  });
});
