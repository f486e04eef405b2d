import { describe, expect, it } from 'vitest';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';

const env = readEnv({
  VITE_API_HOST_DEV: 'https://api-dev.example.com/',
  VITE_API_HOST_TEST: 'https://api-test.example.com',
  VITE_API_HOST_WWW: '',
});

describe('API host by sub-domain (SPEC §7)', () => {
  it('picks the dev, test and www settings by the first label of the host', () => {
    expect(apiBaseUrl('dev.esign.example.com', env)).toBe('https://api-dev.example.com');
    expect(apiBaseUrl('TEST.esign.example.com', env)).toBe('https://api-test.example.com');
  });
  it("uses the page's own origin for other hosts and for an empty setting", () => {
    expect(apiBaseUrl('www.esign.example.com', env)).toBe('');
    expect(apiBaseUrl('localhost', env)).toBe('');
    expect(apiBaseUrl('esign.example.com', env)).toBe('');
  });
  it('rejects a malformed setting naming the variable', () => {
    expect(() => readEnv({ VITE_API_HOST_TEST: 'api.example.com' })).toThrow(/VITE_API_HOST_TEST/);
    expect(() => readEnv({ VITE_API_HOST_WWW: 'https://x.example.com/path' })).toThrow(/VITE_API_HOST_WWW/);
  });
});
