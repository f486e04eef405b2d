// Every file of ../shared/pdf-wild/ (real-world PDFs from pdf.js's test corpus: damaged, encrypted, odd)
// gets the outcome its manifest expects: signed with every signature valid in pdfsig AND the platform's
// verifier, the original (or repaired) bytes a prefix of the signed file; or refused with a clear message
// (a password is needed, or the permissions forbid filling in forms). Where viewers open a file its class
// says they do not (encryption of attachments alone, a short V 4 key), the file's own outcome is listed. And
// every file whose first page poppler renders (pdftoppm exits 0 and writes a page image), decided with poppler at test time, is signed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localiseDetail } from '#server/modules/audit/index.ts';
import type { Signer, TimestampFn } from '#server/pdf/sign/cms.ts';
import { SignError, SignErrorCode } from '#server/pdf/sign/errors.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import type { PkiFixture } from '../../fixtures/pki.ts';
import {
  hasTool,
  isPrefix,
  pdfsigValid as pdfsigValidIn,
  run,
  startSigningKit,
} from '../../fixtures/pdf-signing.ts';

const WILD = '/work/shared/pdf-wild';
type Entry = { file: string; class: string; expected: string; permissions?: string; sha256: string };
const manifest = JSON.parse(readFileSync(`${WILD}/manifest.json`, 'utf8')) as { files: Entry[] };

/**
 * Damaged files refused as unreadable (the manifest allows "a clear refusal if nothing is readable"), each
 * with why. None of them is rendered by poppler either (see "poppler renders" below).
 */
const UNREADABLE: Record<string, string> = {
  'Brotli-Prototype-FileA.pdf': 'object streams and pages behind a /BrotliDecode filter',
  'REDHAT-1531897-0.pdf': 'a truncated linearized file: its catalog object is not in the file',
  'bug1020226.pdf': '184 bytes: the catalog dictionary never closes',
  'poppler-85140-0.pdf': 'the page tree leads to no page',
};

/**
 * Files whose outcome is not the one their manifest class names, and why: encryption that viewers open
 * without asking.
 */
const OPENS_WITHOUT_PASSWORD: Record<string, { signs: boolean; why: string }> = {
  'auth-event-ef-open.pdf': {
    signs: true,
    why: 'only the attachment is encrypted (/EFF, /AuthEvent /EFOpen; /StmF and /StrF /Identity): signed',
  },
  // "only Acrobat can open it", says the file itself; pdf.js too, since its issue 19484
  'issue19484_1.pdf': {
    signs: false,
    why: 'V 4 with a 40-bit key, padded to 128 bits as Acrobat does: opened; /P forbids filling in forms',
  },
  'issue19484_2.pdf': {
    signs: false,
    why: 'V 4 with a 48-bit key, padded to 128 bits as Acrobat does: opened; /P forbids filling in forms',
  },
};

/**
 * Whether poppler renders the first page of `file`: pdftoppm exits 0 and writes a page image (even a blank
 * one, or one of 1×1 pixels for a page of 0×0 points: what poppler shows of a file it opens).
 */
function popplerRenders(file: string, dir: string): boolean {
  const out = join(dir, 'page');
  const r = run('pdftoppm', ['-f', '1', '-l', '1', '-r', '20', '-gray', '-singlefile', file, out]);
  const drawn = r.status === 0 && existsSync(`${out}.pgm`);
  rmSync(`${out}.pgm`, { force: true });
  return drawn;
}

/** The first page as poppler draws it without annotations (the signature's widget aside), or undefined. */
function popplerPage(pdf: Uint8Array, dir: string): Buffer | undefined {
  const file = join(dir, 'in.pdf');
  writeFileSync(file, pdf);
  const out = join(dir, 'page');
  const args = ['-f', '1', '-l', '1', '-r', '20', '-gray', '-singlefile', '-hide-annotations', file, out];
  const r = run('pdftoppm', args);
  const page = r.status === 0 && existsSync(`${out}.pgm`) ? readFileSync(`${out}.pgm`) : undefined;
  rmSync(`${out}.pgm`, { force: true });
  return page;
}

/** Binary PGM ("P5", width, height, maxval, then a byte a pixel): its pixel count, and its pixels. */
const pgmSize = (pgm: Buffer) => {
  const [, w, h] = /^P5\s+(\d+)\s+(\d+)\s+\d+\s/.exec(pgm.toString('latin1', 0, 64)) ?? [];
  return Number(w) * Number(h);
};
const pgmPixels = (pgm: Buffer) => pgm.subarray(pgm.length - pgmSize(pgm));

const hasTools = ['pdfsig', 'certutil'].every(hasTool);
if (!hasTools) console.warn('SKIPPING pdfsig assertions: poppler-utils or libnss3-tools not installed');

let fx: PkiFixture;
let signer: Signer;
let ts: TimestampFn;
let seal: Uint8Array;

beforeAll(async () => {
  ({ fx, signer, ts, seal } = await startSigningKit('p-wild'));
}, 60_000);
afterAll(() => fx?.close());

/** pdfsig's verdict per signature: valid or not. */
const pdfsigValid = (pdf: Uint8Array, name: string) => pdfsigValidIn(fx, pdf, name);

async function attempt(input: Uint8Array) {
  try {
    const ready = prepareForSigning(input);
    const out = await signPdf(ready.bytes, {
      signer,
      timestamp: ts,
      appearance: { pdf: seal },
      placement: { pageIndex: 0, rect: [20, 20, 80, 80] },
    });
    return { ready, out };
  } catch (err) {
    if (err instanceof SignError) return { refusal: err };
    throw err;
  }
}

describe('pdf-wild: every file gets the outcome its manifest expects', () => {
  test('the manifest lists 90 files in four classes', () => {
    expect(manifest.files).toHaveLength(90);
    expect(new Set(manifest.files.map((f) => f.class))).toEqual(
      new Set(['owner-password-only', 'user-password', 'damaged-xref', 'qpdf-warnings']),
    );
  });

  const signs = (e: Entry) =>
    OPENS_WITHOUT_PASSWORD[e.file.slice(6)]?.signs ||
    e.class === 'qpdf-warnings' ||
    (e.class === 'owner-password-only' && e.permissions === 'filling forms allowed') ||
    (e.class === 'damaged-xref' && !UNREADABLE[e.file.slice(6)]);

  test.each(manifest.files.filter(signs).map((e) => [e.file.slice(6), e] as const))(
    'signs %s: every signature valid, the prepared bytes a prefix',
    async (name, e) => {
      const input = new Uint8Array(readFileSync(`${WILD}/${e.file}`));
      const r = await attempt(input);
      expect(r.refusal?.message).toBeUndefined();
      const { ready, out } = r as { ready: ReturnType<typeof prepareForSigning>; out: Uint8Array };
      expect(isPrefix(ready.bytes, out)).toBe(true);
      if (ready.repaired) {
        // the original bytes are kept: a prefix of the repaired file (after a %PDF header, when it had none)
        expect(Buffer.from(ready.bytes).includes(Buffer.from(input))).toBe(true);
        // repaired once: the repaired file needs no further repair
        expect(prepareForSigning(ready.bytes).repaired).toBe(false);
        // the audit trail says what was repaired, in Chinese too (PDF keywords aside)
        const zh = localiseDetail('repair', `repaired before signing: ${ready.problem}`, 'zh') ?? '';
        expect(zh).toMatch(/^签署前已修复：/);
        expect(zh.replace(/startxref|%PDF|\/Encrypt|\/Size|\/Prev/g, ''), zh).not.toMatch(/[A-Za-z]/);
      }
      const report = await verifyPdf(out, { trustAnchors: [fx.pki.ca.root.der] });
      const ours = report.signatures[report.signatures.length - 1];
      expect(ours.indication, JSON.stringify(ours)).toBe('TOTAL_PASSED');
      if (hasTools) {
        const before = pdfsigValid(ready.bytes, `in-${name}`);
        const after = pdfsigValid(out, `out-${name}`);
        // ours is valid, and every signature the file already had keeps its verdict
        expect(after).toEqual([...before, true]);
      }
      if (hasTool('pdftoppm')) {
        // poppler draws the page the signed file shows as it drew the file given (the widget aside)
        const dir = mkdtempSync(join(tmpdir(), 'wild-page-'));
        const was = popplerPage(input, dir);
        const now = popplerPage(out, dir);
        // a page of 0×0 points (poppler found no usable page: 1×1 pixels) stays blank: nothing is drawn
        if (was && pgmSize(was) === 1) expect(now && pgmPixels(now).every((v) => v === 255)).toBe(true);
        else if (was) expect(now?.equals(was)).toBe(true);
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );

  test.each(manifest.files.filter((e) => !signs(e)).map((e) => [e.file.slice(6), e] as const))(
    'refuses %s with a clear message',
    async (name, e) => {
      const input = new Uint8Array(readFileSync(`${WILD}/${e.file}`));
      const r = await attempt(input);
      expect(r.out, 'signed, but expected a refusal').toBeUndefined();
      const err = r.refusal as SignError;
      const expected = OPENS_WITHOUT_PASSWORD[name]
        ? SignErrorCode.SigningNotPermitted
        : e.class === 'user-password'
          ? SignErrorCode.PasswordRequired
          : e.class === 'owner-password-only'
            ? SignErrorCode.SigningNotPermitted
            : SignErrorCode.BrokenXref;
      expect(err.code, err.message).toBe(expected);
      expect(err.zh.length).toBeGreaterThan(4);
      expect(err.en.length).toBeGreaterThan(10);
    },
  );

  // "Sign what viewers open": every file whose first page poppler renders is among those signed above
  // (each signature checked by the verifier and pdfsig there). Decided here, with poppler itself.
  test.runIf(hasTool('pdftoppm'))(
    'every file poppler renders is signed',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'wild-render-'));
      const rendered = manifest.files.filter((e) => popplerRenders(`${WILD}/${e.file}`, dir));
      // unless the file's permissions forbid filling in forms (refused naming the permission, above), or
      // it needs a user password (poppler draws the encrypted bytes of a security handler it lacks as they
      // are; pdf.js asks for the password; refused asking for it, above)
      const forbidden = (e: Entry) =>
        e.class === 'user-password' ||
        e.permissions === 'filling forms not allowed' ||
        OPENS_WITHOUT_PASSWORD[e.file.slice(6)]?.signs === false;
      const refused = rendered.filter((e) => !signs(e) && !forbidden(e)).map((e) => e.file);
      expect(refused).toEqual([]);
      expect(rendered.length).toBeGreaterThanOrEqual(60);
    },
    120_000,
  );

  test('the damaged class is mostly repaired, not refused', () => {
    const damaged = manifest.files.filter((e) => e.class === 'damaged-xref');
    expect(damaged.length - Object.keys(UNREADABLE).length).toBeGreaterThanOrEqual(30);
  });
});
