// Hostile variants of signed PDFs, seeded so that a case can be replayed: the verifier's fuzz test
// (verify-fuzz.test.ts) and the memory soak (bench/soak.ts) draw from the same kinds.

/** mulberry32: small and seeded, so a run (or a failing case, by its index) can be repeated. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a PDF's structure is made of: inserted where the bytes are parsed, they reach every parser path. */
const TOKENS = [
  'obj',
  'endobj',
  '<<',
  '>>',
  '[',
  ']',
  'stream\n',
  'endstream',
  'xref\n0 1\n',
  'trailer',
  'startxref\n0\n%%EOF',
  '/ByteRange [0 10 20 30]',
  '/Contents <00>',
  '1 0 R',
  '/Prev 0',
  '/Length 999999',
  '/Type /ObjStm',
  '/Filter /FlateDecode',
  '/N 2147483647',
  '/W [4 4 4]',
  '(',
  ')',
  '%%EOF\n',
];

export type Mutation = { bytes: Uint8Array; how: string };

/**
 * One mutation of `src`: flipped bytes, a truncation, a duplicated run, an inserted token or random bytes,
 * changed digits (what offsets, lengths and ByteRanges are made of), and with `repeats` a token repeated
 * hundreds to thousands of times (deep nesting, long arrays, many objects: the inputs that cost memory).
 */
export function mutate(src: Uint8Array, rnd: () => number, opts: { repeats?: boolean } = {}): Mutation {
  const int = (n: number) => Math.floor(rnd() * n);
  const b = new Uint8Array(src);
  const kind = int(opts.repeats ? 6 : 5);
  if (kind === 0) {
    const n = 1 + int(20);
    for (let i = 0; i < n; i++) b[int(b.length)] = int(256);
    return { bytes: b, how: `flip ${n}` };
  }
  if (kind === 1) {
    const cut = int(b.length);
    return { bytes: b.subarray(0, cut), how: `truncate ${cut}` };
  }
  if (kind === 2) {
    const start = int(b.length);
    const len = 1 + int(Math.min(4096, b.length - start));
    const at = int(b.length);
    return {
      bytes: Buffer.concat([b.subarray(0, at), b.subarray(start, start + len), b.subarray(at)]),
      how: `dup ${start}+${len}@${at}`,
    };
  }
  if (kind === 3 || kind === 5) {
    const at = int(b.length);
    const token = TOKENS[int(TOKENS.length)];
    const ins =
      kind === 5
        ? Buffer.from(token.repeat(100 + int(5000)), 'latin1')
        : rnd() < 0.5
          ? Buffer.from(token, 'latin1')
          : Buffer.from(Array.from({ length: 1 + int(64) }, () => int(256)));
    return {
      bytes: Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]),
      how: `${kind === 5 ? 'repeat' : 'insert'} ${ins.length}@${at}`,
    };
  }
  const n = 1 + int(10);
  for (let i = 0; i < n; i++) {
    const p = int(b.length);
    if (b[p] >= 0x30 && b[p] <= 0x39) b[p] = 0x30 + int(10);
  }
  return { bytes: b, how: `digits ${n}` };
}
