import { describe, expect, it } from 'vitest';
import { startServerProcess } from './fixtures/server-process.ts';

describe('a development start without ESIGN_MASTER_KEY', () => {
  it('warns about the development master key once, in one wording', async () => {
    const server = await startServerProcess();
    try {
      expect(server.listening, server.output()).not.toBeNull();
      // The CA is in use once its certificate is served: every start-up path that opens the key has run.
      const res = await fetch(`http://127.0.0.1:${server.listening!.port}/v1/pki/root.crt`);
      expect(res.status).toBe(200);
      const warnings = server
        .output()
        .split('\n')
        .filter((line) => line.includes('ESIGN_MASTER_KEY'));
      expect(warnings, server.output()).toHaveLength(1);
      expect(warnings[0]).toMatch(/development key in .*master\.key/);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
