// Keyword search on files pdf.js cannot open (issue 23, L2: the launch fuzz found a 500 there: pdf.js threw
// "Invalid PDF structure" on a file upload accepts, because the PDF core reads or repairs it). Such a file
// has no keyword pdf.js can find: no hits, never an exception, and the launch refuses the position by
// name (tests/server/flow/launch-fuzz.test.ts places every third case by a keyword).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findKeyword } from '#server/pdf/compose/pdf-tools.ts';
import { prepareForSigning } from '#server/pdf/sign/repair.ts';

const WILD = join(import.meta.dirname, '../../../../shared/pdf-wild/files/issue17554.pdf');

describe('findKeyword on files pdf.js cannot open', () => {
  test('bytes that are no PDF at all: no hits, no exception', async () => {
    expect(await findKeyword(new Uint8Array(Buffer.from('%PDF-1.7\nnothing here\n%%EOF\n')), 'a')).toEqual(
      [],
    );
    expect(await findKeyword(new Uint8Array([1, 2, 3]), 'a')).toEqual([]);
  });

  test.skipIf(!existsSync(WILD))(
    'a damaged file the PDF core repairs and pdf.js refuses: no hits',
    async () => {
      const src = new Uint8Array(readFileSync(WILD));
      // a run of the file duplicated into the middle (case 13 of the launch fuzz)
      const damaged = new Uint8Array(
        Buffer.concat([src.subarray(0, 620), src.subarray(329, 329 + 214), src.subarray(620)]),
      );
      expect(prepareForSigning(damaged).repaired).toBe(true);
      const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
      const task = lib.getDocument({ data: new Uint8Array(damaged), verbosity: 0 });
      await expect(task.promise).rejects.toThrow();
      await task.destroy();
      expect(await findKeyword(damaged, 'e')).toEqual([]);
    },
  );
});
