// The ZIP writer of the contract centre's downloads: Info-ZIP's `unzip -t` reads what it writes (UTF-8 names,
// DEFLATE and STORE entries), a name used twice gets " (2)", and unsafe name characters are replaced.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { ZipWriter, zipSafeName } from '#server/lib/zip.ts';
import { hasTool } from '../fixtures/pdf-signing.ts';

const withUnzip = hasTool('unzip') ? test : test.skip;

function build() {
  const zip = new ZipWriter();
  const text = new TextEncoder().encode('合同 contract '.repeat(200));
  const noise = new Uint8Array(64).map((_, i) => (i * 97 + 13) % 251);
  const names = [
    zip.add({ name: '001 租赁合同/a.txt', bytes: text, modified: new Date('2026-11-30T06:00:00Z') }),
    zip.add({ name: '001 租赁合同/a.txt', bytes: noise }),
    zip.add({ name: 'b', bytes: noise }),
    zip.add({ name: 'b', bytes: noise }),
  ];
  return { bytes: zip.finish(), names, text, noise };
}

describe('ZipWriter', () => {
  test('names made unique; DEFLATE where it saves space, STORE otherwise; entries read back', () => {
    const { bytes, names, text, noise } = build();
    expect(names).toEqual(['001 租赁合同/a.txt', '001 租赁合同/a (2).txt', 'b', 'b (2)']);
    const buf = Buffer.from(bytes);
    // First local header: DEFLATE (8), UTF-8 flag; its data inflates to the text.
    expect(buf.readUInt32LE(0)).toBe(0x04034b50);
    expect(buf.readUInt16LE(6)).toBe(0x0800);
    expect(buf.readUInt16LE(8)).toBe(8);
    const size = buf.readUInt32LE(18);
    const start = 30 + buf.readUInt16LE(26);
    expect(new Uint8Array(inflateRawSync(buf.subarray(start, start + size)))).toEqual(text);
    // Second: the noise does not compress, STORE (0).
    const second = start + size;
    expect(buf.readUInt16LE(second + 8)).toBe(0);
    const at = second + 30 + buf.readUInt16LE(second + 26);
    expect(new Uint8Array(buf.subarray(at, at + noise.length))).toEqual(noise);
    // The end record counts four entries.
    expect(buf.readUInt16LE(buf.length - 22 + 10)).toBe(4);
  });

  withUnzip('Info-ZIP reads it and finds every CRC right', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    const file = join(dir, 'out.zip');
    writeFileSync(file, build().bytes);
    const out = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(out).toContain('No errors detected');
    expect(out.match(/OK/g)?.length).toBe(4);
  });

  test('unsafe name characters are replaced, long names cut', () => {
    expect(zipSafeName('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
    expect(zipSafeName('  ')).toBe('_');
    expect(zipSafeName('x'.repeat(100))).toHaveLength(80);
  });
});
