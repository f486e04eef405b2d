// The one place that decides what of a verification leaves the server: the verifier's report turned into
// the page's shape (contract/calls/verify.ts), with Adobe-like statuses and machine reason codes.
import type { SignatureCard, VerifyResult } from '#contract/calls/verify.ts';
import type { ChangedRegion } from '#contract/calls/verify.ts';
import { ChangedRegionKind, SignatureStatus } from '#contract/calls/verify.ts';
import { reasonsToShow } from '#contract/verify-claims.ts';
import type { SignatureReport, VerificationReport } from '../../pdf/verify/types.ts';
import type { DocumentLayout } from './layout.ts';
import { cleanTexts } from '../../lib/clean-text.ts';

type Status = SignatureCard['status'];
type Reason = SignatureCard['reasons'][number];

/** Adobe's words for one signature, decided from the report's machine values. */
const REVOKED_SUBS: readonly (string | null)[] = ['REVOKED', 'REVOKED_NO_POE'];

function statusOf(s: SignatureReport): Status {
  // A certificate revoked after the time-stamp proves the signature existed leaves the signature valid
  // (the card still shows the revocation and its time); only a revocation that counts makes it 'revoked'.
  if (REVOKED_SUBS.includes(s.subIndication)) return 'revoked';
  // Changed signed bytes or a false signature value: the signature itself is broken.
  if (s.intact === false || s.cryptoValid === false) return 'invalid';
  if (s.modifiedAfterSigning === 'disallowed') return 'modified';
  if (s.indication === 'TOTAL_FAILED') return 'invalid';
  if (s.indication === 'TOTAL_PASSED') return 'valid';
  // Indeterminate: sound with trust aside means only who signed is not vouched for by a trusted root.
  if (s.trustAside.indication === 'TOTAL_PASSED' && !s.trusted) return 'unknownIdentity';
  return 'indeterminate';
}

const PRECISE: readonly Reason[] = [
  'HASH_MISMATCH',
  'SIGNATURE_INVALID',
  'COVERAGE_BROKEN',
  'COVERAGE_PARTIAL',
  'MODIFIED_DISALLOWED',
  'NO_SIGNING_CERTIFICATE',
];

function reasonsOf(s: SignatureReport): Reason[] {
  return reasonsToShow(allReasonsOf(s), s.intact);
}

function allReasonsOf(s: SignatureReport): Reason[] {
  const out = new Set<Reason>();
  const subs = [s.subIndication, s.trustAside.subIndication];
  if (s.intact === false) out.add('HASH_MISMATCH');
  if (s.cryptoValid === false) out.add('SIGNATURE_INVALID');
  if (s.coverage === 'BROKEN') out.add('COVERAGE_BROKEN');
  if (s.coverage === 'PARTIAL') out.add('COVERAGE_PARTIAL');
  if (s.modifiedAfterSigning === 'disallowed') out.add('MODIFIED_DISALLOWED');
  if (s.modifiedAfterSigning === 'allowed') out.add('MODIFIED_ALLOWED');
  if (s.revocation === 'revoked' || subs.some((x) => REVOKED_SUBS.includes(x))) out.add('REVOKED');
  if (subs.includes('NO_SIGNING_CERTIFICATE_FOUND')) out.add('NO_SIGNING_CERTIFICATE');
  if (subs.includes('OUT_OF_BOUNDS_NO_POE')) out.add('CERT_EXPIRED');
  if (subs.includes('NOT_YET_VALID')) out.add('CERT_NOT_YET_VALID');
  if (subs.includes('CRYPTO_CONSTRAINTS_FAILURE_NO_POE')) out.add('WEAK_ALGORITHM');
  if (s.timestamp && !s.timestamp.valid) out.add('TIMESTAMP_INVALID');
  if (!s.trusted && s.kind !== 'doc_timestamp' && !out.has('NO_SIGNING_CERTIFICATE'))
    out.add(s.chain.length === 0 ? 'NO_CHAIN' : 'UNTRUSTED');
  if (s.trusted && s.revocation === 'unknown') out.add('REVOCATION_UNKNOWN');
  // A format failure not already explained by a more precise finding.
  const isExplained = [...out].some((r) => PRECISE.includes(r));
  if (subs.includes('FORMAT_FAILURE') && !isExplained) out.add('FORMAT_FAILURE');
  return [...out];
}

const rank = (s: Status) => SignatureStatus.indexOf(s);

const REGION_KINDS: readonly string[] = ChangedRegionKind;

/** At most this many filled fields per signature reach the page (a form may have thousands). */
const MAX_FILLED = 200;

/** At most this many regions per signature reach the page (a hostile file could yield thousands). */
const MAX_REGIONS = 50;

/** Where a page shows something other than what was signed: only well-formed regions, coordinates rounded to 0.1 pt. */
function regionsOf(s: SignatureReport): ChangedRegion[] {
  return (s.changedRegions ?? [])
    .slice(0, MAX_REGIONS)
    .filter(
      (r) =>
        Number.isInteger(r.page) &&
        r.page >= 1 &&
        REGION_KINDS.includes(r.what) &&
        r.rect.length === 4 &&
        r.rect.every(Number.isFinite),
    )
    .map((r) => ({
      page: r.page,
      rect: r.rect.map((v) => Math.round(v * 10) / 10),
      what: r.what,
    }));
}

/**
 * A kept report as the page reads it today: a report kept before a field existed gets that field's empty
 * value (cards kept before issue 26 have no `changedRegions` nor `warnings`).
 */
export function presentKept(result: VerifyResult): VerifyResult {
  return {
    ...result,
    signatures: result.signatures.map((s) => ({
      ...s,
      changedRegions: s.changedRegions ?? [],
      warnings: s.warnings ?? [],
      filledFields: s.filledFields ?? [],
    })),
  };
}

/**
 * The page's shape of a verification. `trustRoots` names the platform root (by serial) so a card can say
 * whether its chain ends at the platform or at a configured anchor.
 */
export function presentVerification(
  report: VerificationReport,
  layout: DocumentLayout,
  file: { name: string | null; size: number; sha256: string },
  trustRoots: { platformSerial: string },
): Omit<VerifyResult, 'reportId' | 'expiresAt' | 'source'> {
  const signatures: SignatureCard[] = report.signatures.map((s, i) => {
    const root = s.chain[s.chain.length - 1];
    // the values the signature's own revision set (it signed them); none when its revision is unknown
    const filled = report.formFills.find((f) => s.revision !== null && f.revision === s.revision);
    const filledFields = (filled?.fields ?? [])
      .filter((f) => s.filledFields.includes(f.name))
      .slice(0, MAX_FILLED)
      .map(({ name, label, value, checkbox }) => ({ name, label, value, checkbox }));
    const isBroken = s.intact === false;
    return {
      index: i + 1,
      field: s.field,
      kind: s.kind,
      status: statusOf(s),
      signer: s.signer,
      signedAt: s.signedAt,
      timestamp: s.timestamp,
      intact: s.intact,
      cryptoValid: s.cryptoValid,
      coverage: s.coverage,
      modifiedAfterSigning: isBroken ? 'unknown' : s.modifiedAfterSigning,
      trusted: isBroken ? null : s.trusted,
      trustSource:
        isBroken || !s.trusted || !root
          ? null
          : root.serial === trustRoots.platformSerial
            ? 'platform'
            : 'anchor',
      revocation: s.revocation,
      revokedAt: s.revokedAt ?? null,
      indication: s.indication,
      subIndication: s.subIndication,
      trustAside: s.trustAside,
      docMdp: s.docMdp,
      subFilter: s.subFilter,
      chain: s.chain,
      reasons: reasonsOf(s),
      details: s.problems,
      changes: s.modifications,
      warnings: s.warnings,
      widgets: layout.widgets[s.field] ?? [],
      changedRegions: regionsOf(s),
      filledFields,
    };
  });
  const worst = signatures.reduce<Status | null>(
    (w, s) => (w === null || rank(s.status) < rank(w) ? s.status : w),
    null,
  );
  // Names, fields and reasons come out of an untrusted file: made safe to show and to keep (jsonb).
  return cleanTexts({
    file: { ...file, pages: layout.pages },
    verifiedAt: report.validationTime,
    status: worst ?? 'unsigned',
    verdict: report.verdict,
    subIndication: report.subIndication,
    trustAside: report.trustAside,
    revisions: report.revisions,
    signatures,
  });
}
