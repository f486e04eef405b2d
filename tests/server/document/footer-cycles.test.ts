// The verification footer on files whose object graph loops (issue 23, L2). pdf-lib rewrites a file by
// recursion (page tree, /Parent, serialisation of the direct objects drawing makes): the footer must see
// each cycle BEFORE pdf-lib recurses into it (an iterative walk, bounded work) and say why, as a
// PdfRejected('broken') the launch turns into "launched without the footer"; never a RangeError. Files
// pdf-lib can rewrite safely keep their footer. Upload (inspectPdf) measures every one of them. The
// template fill (the other pdf-lib rewrite before a launch) refuses the same files the same way.
import { describe, expect, test } from 'vitest';
import { PdfRejected, inspectPdf, stampFooter } from '#server/pdf/compose/pdf-tools.ts';
import { fillPdf } from '#server/pdf/compose/fill-pdf.ts';
import { CYCLIC_CASES, KEYWORD, indirectResources } from '../fixtures/cyclic-pdfs.ts';

const PUBLIC = 'https://esign.example';
const CODE = 'ABCD-EFGH-JKLM-NPQR';

describe('stampFooter on cyclic files', () => {
  test.each(CYCLIC_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const bytes = c.bytes();
    const { pages } = await inspectPdf(bytes);
    expect(pages).toBe(1);
    const outcome = await stampFooter(bytes, CODE, PUBLIC).then(
      (out) => ({ out }),
      (err: unknown) => ({ err }),
    );
    if (c.footer) {
      expect('out' in outcome, String((outcome as { err?: unknown }).err)).toBe(true);
      const out = (outcome as { out: Uint8Array }).out;
      expect(Buffer.from(out).toString('latin1')).toContain('%PDF-');
      // the rewrite reads back, with its one page
      expect((await inspectPdf(out)).pages).toBe(1);
      return;
    }
    expect('err' in outcome).toBe(true);
    const err = (outcome as { err: unknown }).err;
    expect(err).toBeInstanceOf(PdfRejected);
    expect((err as PdfRejected).problem).toBe('broken');
    // seen up front by the iterative walks, not by a stack overflow caught afterwards
    expect((err as Error).message).toMatch(/cycle|loops|twice|nested too deep/);
    expect((err as Error).message).not.toMatch(/call stack/i);
  });

  test('the sound file the launch fuzz rewrites gets its footer', async () => {
    const out = await stampFooter(indirectResources(), CODE, PUBLIC);
    expect(out.length).toBeGreaterThan(indirectResources().length);
    expect(KEYWORD.length).toBeGreaterThan(0);
  });
});

describe("fillPdf (a template's values) on cyclic files", () => {
  test.each(CYCLIC_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const fills = [
      {
        type: 'text' as const,
        page: 1,
        rect: [100, 100, 300, 120] as [number, number, number, number],
        value: 'abc',
      },
    ];
    const outcome = await fillPdf(c.bytes(), fills).then(
      (out) => ({ out }),
      (err: unknown) => ({ err }),
    );
    if (c.footer) {
      expect('out' in outcome, String((outcome as { err?: unknown }).err)).toBe(true);
      return;
    }
    const err = (outcome as { err?: unknown }).err;
    expect(err).toBeInstanceOf(PdfRejected);
    expect((err as Error).message).toMatch(/cycle|loops|twice|nested too deep/);
  });
});
