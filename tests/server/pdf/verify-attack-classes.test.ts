// Issue 26's attack classes (tests/server/fixtures/attack-classes.ts): each attacked variant of a signed
// file is TOTAL_FAILED, with trust set aside too, for every signature it carries; each changes what
// poppler shows (rendered pages, extracted text), so none is a no-op; the file still starts with the
// signed bytes, so every signature value stays intact. The allowed changes pass. Where poppler reads a
// variant as the signer's reader does, pdf.js proves the difference.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findKeyword } from '#server/pdf/compose/pdf-tools.ts';
import type { VerificationReport } from '#server/pdf/verify/types.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import {
  type AttackBases,
  type BaseName,
  allowedSpecs,
  attackBases,
  attackSpecs,
  poppler,
  rendersDiffer,
} from '../fixtures/attack-classes.ts';
import { type Parties, parties } from '../fixtures/demo-contract.ts';
import { isPrefix } from '../fixtures/pdf-signing.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';

let fx: PkiFixture;
let p: Parties;
let bases: AttackBases;
let shown: Record<BaseName, ReturnType<typeof poppler>>;

beforeAll(async () => {
  fx = await createPkiFixture();
  p = await parties(fx);
  bases = await attackBases(p);
  shown = {
    contract: poppler(bases.contract),
    'contract-objstm': poppler(bases['contract-objstm']),
    form: poppler(bases.form),
  };
}, 120_000);
afterAll(() => fx?.close());

const verify = (bytes: Uint8Array) => verifyPdf(bytes, { trustAnchors: [fx.pki.ca.root.der] });
const why = (r: VerificationReport) =>
  JSON.stringify(
    r.signatures.map((s) => ({
      field: s.field,
      indication: s.indication,
      trustAside: s.trustAside.indication,
      modified: s.modifiedAfterSigning,
      problems: s.problems,
      modifications: s.modifications,
    })),
    null,
    1,
  );

test('the signed bases pass untouched', async () => {
  for (const bytes of [bases.contract, bases['contract-objstm'], bases.form]) {
    const r = await verify(bytes);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
  }
});

describe('attacks after the last signature are TOTAL_FAILED, trust aside too', () => {
  test.each(attackSpecs.map((s) => [`${s.cls}: ${s.name} (${s.base})`, s] as const))(
    '%s',
    async (_, spec) => {
      const signed = bases[spec.base];
      const bytes = await spec.build(bases, p);
      expect(isPrefix(signed, bytes)).toBe(true);

      // the attack is real: a viewer shows something else than what was signed
      const before = shown[spec.base];
      const after = poppler(bytes);
      if (spec.unseenByPoppler && spec.shows) {
        expect(await findKeyword(signed, spec.shows)).toEqual([]);
        expect((await findKeyword(bytes, spec.shows)).length, 'pdf.js shows it').toBeGreaterThan(0);
      } else if (!spec.unseenByPoppler) {
        expect(rendersDiffer(before, after), 'poppler renders the same pages').toBe(true);
      }
      if (spec.shows && !spec.unseenByPoppler) {
        expect(before.text).not.toContain(spec.shows);
        expect(after.text).toContain(spec.shows);
      }
      if (spec.hides) {
        expect(before.text).toContain(spec.hides);
        expect(after.text).not.toContain(spec.hides);
      }

      const r = await verify(bytes);
      expect(r.verdict, why(r)).toBe('TOTAL_FAILED');
      expect(r.trustAside.verdict, why(r)).toBe('TOTAL_FAILED');
      // every signature made before the attack fails; a later one covering it is judged on its own
      const signedBefore = spec.base === 'form' ? 1 : 2;
      expect(r.signatures.length, why(r)).toBe(signedBefore + (spec.thenSigned ? 1 : 0));
      for (const s of r.signatures.slice(0, signedBefore))
        expect(s.trustAside.indication, why(r)).toBe('TOTAL_FAILED');
    },
  );
});

describe('allowed changes after signing pass', () => {
  test.each(allowedSpecs.map((s) => [`${s.name} (${s.base})`, s] as const))('%s', async (_, spec) => {
    const signed = bases[spec.base];
    const bytes = await spec.build(bases, p, {
      certs: [fx.pki.ca.issuing.der, fx.pki.ca.root.der, fx.pki.ca.tsa.der],
      crls: [await fx.pki.crl(), fx.pki.rootCrl],
    });
    expect(isPrefix(signed, bytes)).toBe(true);
    if (spec.shows) expect(poppler(bytes).text).toContain(spec.shows);

    const r = await verify(bytes);
    expect(r.verdict, why(r)).toBe('TOTAL_PASSED');
    expect(r.trustAside.verdict, why(r)).toBe('TOTAL_PASSED');
    for (const s of r.signatures) expect(['none', 'allowed'], why(r)).toContain(s.modifiedAfterSigning);
  });
});
