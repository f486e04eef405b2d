/**
 * The attack-aware PDF signature verifier. See types.ts for the report and errors.ts for the typed
 * failures.
 */
import { type Deadline, PdfFile, PdfParseError, type Revision } from '../parse/document.ts';
import {
  indexOf,
  isArray,
  isDict,
  isName,
  isRef,
  isStream,
  isString,
  type PdfDict,
  textOf,
} from '../parse/objects.ts';
import { type Cert, certFromDer, type Name, withCertCache } from './cert.ts';
import {
  checkSigner,
  checkTimestampToken,
  hashChunks,
  nameAttr,
  OID,
  type ParsedCms,
  parseCms,
  serialHex,
  TST_ALTERED,
  type TimestampCheck,
} from './cms.ts';
import { DiffAnalyzer, Level, type LevelValue } from './diff.ts';
import { type Comparison, describe, MAX_PAGES, pagesToCompare, VisualComparer } from './visual.ts';
import { RevisionRules } from './revisions.ts';
import { VerifyError, VerifyErrorCode } from './errors.ts';
import { type FoundSignature, findSignatureFields } from './fields.ts';
import { FormFills } from './form-fills.ts';
import {
  adbeRevocationData,
  buildChain,
  mergeFindings,
  type RevocationFinding,
  revocationFindingOf,
  type ValidationData,
} from './trust.ts';
import {
  type CertificateInfo,
  type ChangedRegion,
  Coverage,
  type FormFill,
  Indication,
  type Modification,
  type SignatureKind,
  type RevocationHook,
  type SignatureReport,
  SubIndication,
  type VerificationReport,
  type VerifyOptions,
} from './types.ts';

const DEFAULT_TIME_LIMIT_MS = 5000;
const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
const DEFAULT_REVOCATION_TIMEOUT_MS = 2000;

const RANK: Record<Indication, number> = {
  TOTAL_PASSED: 0,
  NO_SIGNATURE_FOUND: 0,
  INDETERMINATE: 1,
  TOTAL_FAILED: 2,
};

type Result = { indication: Indication; subIndication: SubIndication | null };

function certInfo(c: Cert): CertificateInfo {
  const dn = (n: Name) =>
    [nameAttr(n, OID.commonName), nameAttr(n, OID.organisation)].filter(Boolean).join(', ');
  return {
    subject: dn(c.subject),
    issuer: dn(c.issuer),
    serial: serialHex(c),
    notBefore: c.notBefore.toISOString(),
    notAfter: c.notAfter.toISOString(),
  };
}

/** The per-signature working state, filled step by step. */
type Work = {
  found: FoundSignature;
  br: number[] | null;
  signedEnd: number;
  kind: SignatureKind;
  docMdp: number | null;
  coverage: Coverage;
  /** index of the revision the ByteRange ends in, when the signature belongs to it */
  signedRev: number | null;
  problems: string[];
  formatFailure: boolean;
  modification: Modification;
  modifications: string[];
  /** objects a viewer reads that lie in bytes inside the signed part of the file yet not signed */
  uncovered: string[];
  /** regions where the pages show something other than what was signed (visual.ts) */
  changedRegions: ChangedRegion[];
  /** what is odd but changes nothing the signature vouches for (see SignatureReport.warnings) */
  warnings: string[];
  /** form fields whose values the signature's own revision set */
  filledFields: string[];
};

function pdfDate(s: string | undefined): Date | undefined {
  const m = s?.match(/D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', se = '00', tz, th = '00', tm = '00'] = m;
  let iso = `${y}-${mo}-${d}T${h}:${mi}:${se}`;
  iso += tz === '+' || tz === '-' ? `${tz}${th}:${tm}` : 'Z';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Verifies every signature and document time-stamp of a PDF.
 *
 * Resolves with a report for any readable PDF, however damaged or attacked its signatures are.
 * Rejects with a VerifyError for input that is empty, not a PDF, encrypted, over `maxBytes`,
 * structurally unreadable, or that takes longer than `timeLimitMs`.
 */
export async function verifyPdf(bytes: Uint8Array, options: VerifyOptions): Promise<VerificationReport> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeLimit = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  if (bytes.length === 0) throw new VerifyError(VerifyErrorCode.Empty);
  if (bytes.length > maxBytes)
    throw new VerifyError(VerifyErrorCode.TooLarge, `${bytes.length} > ${maxBytes} bytes`);
  if (indexOf(bytes, '%PDF-', 0, 1024) < 0) throw new VerifyError(VerifyErrorCode.NotPdf);
  const started = performance.now();
  const deadline: Deadline = () => {
    if (performance.now() - started > timeLimit)
      throw new VerifyError(VerifyErrorCode.Timeout, `${timeLimit} ms`);
  };
  try {
    const prepared = withCertCache(() => verifySync(bytes, options, deadline));
    const [answers] = await Promise.all([
      options.revocation
        ? askHook(options.revocation, prepared.questions, hookBudget(options, timeLimit, started))
        : new Map<string, HookFinding>(),
      compareVisually(bytes, prepared.visual, started + timeLimit - VISUAL_MARGIN_MS),
    ]);
    return prepared.finish(answers);
  } catch (err) {
    if (err instanceof VerifyError) throw err;
    if (err instanceof PdfParseError) throw new VerifyError(VerifyErrorCode.Unreadable, err.message);
    // Anything else is a defect here, but the caller still gets a typed, clear error.
    throw new VerifyError(VerifyErrorCode.Unreadable, (err as Error)?.message ?? String(err));
  }
}

/** What the hook answered, per question key. */
type HookFinding = RevocationFinding & { source: string; reason?: string };
type Question = { key: string; cert: Cert; issuer: Cert };

/** The hook's time per certificate: its own limit, within what is left of the file's time limit. */
function hookBudget(options: VerifyOptions, timeLimit: number, started: number): number {
  const left = timeLimit - (performance.now() - started);
  return Math.max(0, Math.min(options.revocationTimeoutMs ?? DEFAULT_REVOCATION_TIMEOUT_MS, left));
}

/** Asks the hook once per distinct certificate, in parallel; a failure or a late answer is 'unknown'. */
async function askHook(
  hook: RevocationHook,
  questions: Question[],
  budgetMs: number,
): Promise<Map<string, HookFinding>> {
  const out = new Map<string, HookFinding>();
  const distinct = new Map(questions.map((q) => [q.key, q]));
  if (budgetMs <= 0) return out;
  await Promise.all(
    [...distinct.values()].map(async (q) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), budgetMs);
        });
        const answer = await Promise.race([
          hook({ der: q.cert.der, serialHex: serialHex(q.cert) }, { der: q.issuer.der }),
          late,
        ]);
        const valid =
          answer &&
          (answer.status === 'good' || answer.status === 'revoked') &&
          (!answer.revokedAt || !Number.isNaN(answer.revokedAt.getTime()));
        if (valid)
          out.set(q.key, {
            status: answer.status,
            revokedAt: answer.revokedAt,
            source: String(answer.source),
            reason: answer.reason,
          });
      } catch {
        // the hook's failure leaves the embedded answer standing
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return out;
}

type Prepared = {
  questions: Question[];
  /** signatures whose pages a later revision may have changed: drawn and compared before `finish` */
  visual: VisualTask[];
  finish: (answers: Map<string, HookFinding>) => VerificationReport;
};

/** Time kept back from the visual comparison for the rest of the verification. */
const VISUAL_MARGIN_MS = 300;

type VisualTask = { work: Work; signedEnd: number; comparison: Comparison };

/**
 * Draws and compares the pages of each task (see visual.ts); a visible difference no allowed change
 * explains makes the signature's changes disallowed, naming page and region.
 */
async function compareVisually(bytes: Uint8Array, tasks: VisualTask[], due: number): Promise<void> {
  if (tasks.length === 0) return;
  const comparer = new VisualComparer(bytes);
  try {
    const outcomes = await comparer.compareMany(tasks, due);
    for (const [k, t] of tasks.entries()) {
      const w = t.work;
      const outcome = outcomes[k];
      for (const f of outcome.findings) {
        const what = describe(f);
        w.modification = 'disallowed';
        w.problems.push(what);
        w.modifications.push(what);
        w.changedRegions.push({ page: f.page, rect: f.region, what: f.what });
      }
      w.modifications.push(...outcome.notes);
    }
  } finally {
    await comparer.close();
  }
}

function verifySync(bytes: Uint8Array, options: VerifyOptions, deadline: Deadline): Prepared {
  const now = options.now ?? new Date();
  const anchors = options.trustAnchors.map((d) => certFromDer(d)).filter((c): c is Cert => !!c);
  const pdf = new PdfFile(bytes, deadline);
  const latest = pdf.latest;
  // opened with the empty user password, the parser hands out decrypted objects; else it cannot be read
  if (pdf.encryption && pdf.encryption.kind !== 'open') throw new VerifyError(VerifyErrorCode.Encrypted);
  const byteRangeMarkers = countMarkers(bytes);
  const found = findSignatureFields(pdf, latest);
  const diff = new DiffAnalyzer(pdf, deadline);
  const catalog = pdf.catalog(latest);
  const permsDocMdp = pdf.get(latest, pdf.getDict(latest, catalog, 'Perms'), 'DocMDP');
  const permsRef = pdf.getDict(latest, catalog, 'Perms')?.v.get('DocMDP');

  const permsNum = isRef(permsRef) ? permsRef.num : null;
  const rules = new RevisionRules(pdf, deadline);
  const works: Work[] = found.map((f) => structure(pdf, f, permsNum, permsDocMdp, latest));
  // Signatures an earlier revision shows that the latest no longer does: removing a signature is a
  // change like any other, and the report lists every signature the file ever carried.
  const removed: Work[] = [];
  const seen = new Set(found.map((f) => f.sigObjNum ?? -1));
  for (let r = pdf.revisions.length - 2; r >= 0; r--) {
    for (const f of findSignatureFields(pdf, pdf.revisions[r])) {
      if (f.sigObjNum === null || seen.has(f.sigObjNum)) continue;
      seen.add(f.sigObjNum);
      const w = structure(
        pdf,
        { ...f, order: found.length + removed.length },
        permsNum,
        permsDocMdp,
        pdf.revisions[r],
      );
      removed.push(w);
    }
  }
  // Signatures in bytes after the last complete revision (a file cut short): listed as broken.
  const tailSigs = rules.tailSignatures().map((t, k) => {
    const f: FoundSignature = {
      field: t.field,
      sigObjNum: null,
      fieldObjNum: null,
      sig: t.sig ?? { t: 'dict', v: new Map(), start: -1, end: -1 },
      order: found.length + removed.length + k,
    };
    const w = structure(pdf, f, null, undefined, latest);
    w.problems.unshift(
      `this signature lies after the last complete revision: the file is cut short or damaged (offset ${t.at})`,
    );
    w.formatFailure = true;
    return w;
  });
  works.push(...removed, ...tailSigs);
  works.sort((a, b) => a.signedEnd - b.signedEnd || a.found.order - b.found.order);

  // Validation data for revocation: DSS of the latest revision.
  const vd = dssData(pdf, latest);

  // DocMDP: changes after a certification signature are limited by its P level.
  const certification = works.find(
    (w) => w.kind === 'certification' && w.signedRev !== null && !w.formatFailure,
  );
  const sigsPerRevision = new Map<number, string[]>();
  for (const w of works) {
    if (w.signedRev === null) continue;
    const carrier = carrierRevision(pdf, w);
    if (carrier !== null) {
      const list = sigsPerRevision.get(carrier) ?? [];
      list.push(w.kind);
      sigsPerRevision.set(carrier, list);
    }
  }
  const fills = new FormFills(pdf, deadline);
  for (const w of works) {
    modificationsOf(pdf, diff, rules, w, certification, sigsPerRevision);
    fieldsOf(pdf, fills, w);
  }
  const formFills = fills.all();
  for (const w of removed) {
    w.problems.unshift('a later revision removed this signature from the document');
    w.modifications.push('the signature field or its value was removed');
    w.modification = 'disallowed';
  }
  const tail = rules.tail();
  if (tail)
    for (const w of works) {
      const what = `the file continues for ${tail.length} bytes after its last complete revision (cut short, or bytes appended that are not a revision)`;
      w.problems.push(what);
      w.modifications.push(what);
      w.modification = 'disallowed';
    }

  const visual = visualTasks(pdf, diff, works);
  const pending = works.map((w) => crypto(pdf, bytes, w, anchors, vd, now));
  const questions = pending.flatMap((p) => (p.question ? [p.question] : []));
  const revisions = pdf.revisions.length;
  return {
    questions,
    visual,
    finish: (answers) =>
      summarise(
        pending.map((p) => p.finish(p.question ? answers.get(p.question.key) : undefined)),
        revisions,
        now,
        byteRangeMarkers,
        formFills,
      ),
  };
}

function summarise(
  reports: SignatureReport[],
  revisions: number,
  now: Date,
  byteRangeMarkers: number,
  formFills: FormFill[],
): VerificationReport {
  let verdict: Result = { indication: Indication.NoSignatureFound, subIndication: null };
  let aside: Result = { indication: Indication.NoSignatureFound, subIndication: null };
  if (reports.length > 0) {
    verdict = { indication: Indication.TotalPassed, subIndication: null };
    aside = { indication: Indication.TotalPassed, subIndication: null };
    for (const r of reports) {
      if (RANK[r.indication] > RANK[verdict.indication])
        verdict = { indication: r.indication, subIndication: r.subIndication };
      if (RANK[r.trustAside.indication] > RANK[aside.indication]) aside = { ...r.trustAside };
    }
  }
  return {
    verdict: verdict.indication,
    subIndication: verdict.subIndication,
    trustAside: { verdict: aside.indication, subIndication: aside.subIndication },
    signatures: reports,
    revisions,
    validationTime: now.toISOString(),
    byteRangeMarkers,
    formFills,
  };
}

function countMarkers(bytes: Uint8Array): number {
  let n = 0;
  let p = 0;
  while (n < 10_000) {
    const i = indexOf(bytes, '/ByteRange', p);
    if (i < 0) break;
    n++;
    p = i + 10;
  }
  return n;
}

function dssData(pdf: PdfFile, rev: Revision): ValidationData {
  const out: ValidationData = { certs: [], crls: [], ocsps: [] };
  const dss = pdf.getDict(rev, pdf.catalog(rev), 'DSS');
  if (!dss) return out;
  const streams = (key: string): Uint8Array[] => {
    const arr = pdf.get(rev, dss, key);
    if (!isArray(arr)) return [];
    const res: Uint8Array[] = [];
    for (const el of arr.v.slice(0, 1000)) {
      const s = pdf.resolve(rev, el);
      if (isStream(s)) {
        const d = pdf.streamData(s);
        if (d) res.push(d);
      }
    }
    return res;
  };
  for (const d of streams('Certs')) {
    const c = certFromDer(d);
    if (c) out.certs.push(c);
  }
  out.crls = streams('CRLs');
  out.ocsps = streams('OCSPs');
  return out;
}

/** The revision in which the signature dictionary (as now read) was written. */
function carrierRevision(pdf: PdfFile, w: Work): number | null {
  const num = w.found.sigObjNum;
  if (num === null) return null;
  const latestEntry = pdf.latest.table.get(num);
  for (const rev of pdf.revisions) {
    const e = rev.table.get(num);
    if (e && latestEntry && JSON.stringify(e) === JSON.stringify(latestEntry)) return rev.index;
  }
  return null;
}

function structure(
  pdf: PdfFile,
  f: FoundSignature,
  permsNum: number | null,
  permsDict: unknown,
  /** the revision the signature was found in (the latest, unless a later one removed it) */
  latest: Revision,
): Work {
  const sig = f.sig;
  const problems: string[] = [];
  const sub = sig.v.get('SubFilter');
  const subFilter = isName(sub) ? sub.v : null;
  const type = sig.v.get('Type');
  let kind: SignatureKind = 'approval';
  if (subFilter === 'ETSI.RFC3161' || isName(type, 'DocTimeStamp')) kind = 'doc_timestamp';
  let docMdp: number | null = null;
  const refs = pdf.get(latest, sig, 'Reference');
  if (isArray(refs)) {
    for (const r of refs.v) {
      const rd = pdf.resolve(latest, r);
      if (isDict(rd) && isName(pdf.get(latest, rd, 'TransformMethod'), 'DocMDP')) {
        const tp = pdf.getDict(latest, rd, 'TransformParams');
        const p = pdf.get(latest, tp, 'P');
        docMdp = typeof p === 'number' && [1, 2, 3].includes(p) ? p : 2;
      }
    }
  }
  const isPermsTarget =
    (permsNum !== null && permsNum === f.sigObjNum) || (permsDict !== undefined && permsDict === sig);
  if (isPermsTarget || docMdp !== null) {
    kind = 'certification';
    if (docMdp === null) docMdp = 2;
    if (!isPermsTarget) problems.push('the DocMDP signature is not the one named in the catalog /Perms');
  }
  const w: Work = {
    found: f,
    br: null,
    signedEnd: Number.MAX_SAFE_INTEGER,
    kind,
    docMdp,
    coverage: Coverage.Broken,
    signedRev: null,
    problems,
    formatFailure: false,
    modification: 'none',
    modifications: [],
    uncovered: [],
    changedRegions: [],
    warnings: [],
    filledFields: [],
  };
  const fail = (msg: string) => {
    w.problems.push(msg);
    w.formatFailure = true;
  };
  if (f.unreadable) fail('the signature value is not a readable signature dictionary');
  if (!isName(sig.v.get('Filter'))) fail('signature dictionary has no /Filter');
  if (!subFilter) fail('signature dictionary has no /SubFilter');
  if (type !== undefined && !isName(type, 'Sig') && !isName(type, 'DocTimeStamp'))
    fail('signature dictionary has a wrong /Type');
  const brObj = pdf.resolve(latest, sig.v.get('ByteRange'));
  const len = pdf.bytes.length;
  if (
    !isArray(brObj) ||
    brObj.v.length !== 4 ||
    !brObj.v.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)
  ) {
    fail('/ByteRange is not four non-negative integers');
    return w;
  }
  const br = brObj.v as number[];
  w.br = br;
  w.signedEnd = br[2] + br[3];
  if (br[0] !== 0 || br[1] <= 0 || br[2] < br[1] || br[3] < 0) {
    fail('/ByteRange is not [0 a b c] with a gap');
    return w;
  }
  if (w.signedEnd > len) {
    fail('/ByteRange points past the end of the file');
    return w;
  }
  // The revision whose bytes contain the end of the signed range: that is the revision being signed.
  const containing = pdf.revisions.find((r) => r.end >= w.signedEnd) ?? latest;
  const atEnd = pdf.revisions.find((r) => r.end === w.signedEnd || r.eofEnd === w.signedEnd);
  // The signature dictionary must exist in that revision, and its /Contents must be exactly the gap.
  const num = f.sigObjNum;
  let signedSig: PdfDict | undefined;
  if (num !== null) {
    const o = pdf.entryObject(containing, num)?.obj;
    if (f.sigObjNum === f.fieldObjNum) {
      const v = isDict(o) ? pdf.resolve(containing, o.v.get('V')) : undefined;
      signedSig = isDict(v) ? v : undefined;
    } else signedSig = isDict(o) ? o : undefined;
  }
  if (!signedSig) {
    fail('the signature dictionary is not part of the revision its /ByteRange covers');
    w.modification = 'none';
    return w;
  }
  const contents = signedSig.v.get('Contents');
  if (!isString(contents)) {
    fail('/Contents is not a direct string');
    return w;
  }
  const exact = contents.start === br[1] && contents.end === br[2];
  // pdf.js' signer leaves the < > delimiters inside the signed ranges; only hex digits are excluded.
  const inner = contents.hex && contents.start + 1 === br[1] && contents.end - 1 === br[2];
  if (!exact && !inner) {
    fail("the /ByteRange gap is not exactly this signature's /Contents string");
  }
  if (!w.formatFailure || (!exact && !inner)) {
    if (w.signedEnd === len) w.coverage = exact || inner ? Coverage.EntireFile : Coverage.Broken;
    else if (atEnd) w.coverage = exact || inner ? Coverage.EntireRevision : Coverage.Broken;
    else {
      w.coverage = exact || inner ? Coverage.Partial : Coverage.Broken;
    }
  }
  if (w.coverage === Coverage.Partial) fail('the signed bytes do not end at the end of a revision');
  w.signedRev = atEnd ? atEnd.index : w.signedEnd === len ? latest.index : null;
  // Objects a viewer reads that sit in unsigned bytes inside the signed part of the file: wrapping.
  const unsigned: [number, number][] = [];
  if (!exact && !inner) unsigned.push([br[1], br[2]]);
  else if (inner) unsigned.push([br[1] + 0, br[1]]);
  if (!atEnd && w.signedEnd < len) unsigned.push([w.signedEnd, containing.end]);
  const sigOffset = (() => {
    const e = num !== null ? containing.table.get(num) : undefined;
    return e && e.type === 1 ? e.offset : -1;
  })();
  for (const [num2, e] of latest.table) {
    if (e.type !== 1 || e.offset === sigOffset) continue;
    if (unsigned.some(([a, b]) => e.offset >= a && e.offset < b) && e.offset < containing.end) {
      w.uncovered.push(`object ${num2} lies in bytes the signature does not cover`);
      break;
    }
  }
  return w;
}

/**
 * The signatures whose signed pages a later revision may have changed, with those pages. A file that only
 * gained signatures and validation data after a signature has none: nothing is drawn.
 */
function visualTasks(pdf: PdfFile, diff: DiffAnalyzer, works: Work[]): VisualTask[] {
  const out: VisualTask[] = [];
  const latest = pdf.latest;
  let signedNow: Set<number> | undefined;
  // an attack the object rules found needs no drawing to fail: the latest signature it concerns is drawn
  // (two pages) only to name where it shows
  let namingDone = false;
  for (const w of [...works].sort((a, b) => (b.signedRev ?? -1) - (a.signedRev ?? -1))) {
    if (w.signedRev === null || w.modification === 'none' || w.signedRev >= latest.index) continue;
    if (w.uncovered.length > 0 || w.formatFailure) continue;
    if (w.modification === 'disallowed' && namingDone) continue;
    // revisions that only added signatures and validation data change no page: nothing to draw
    let touched = false;
    for (let i = w.signedRev + 1; i <= latest.index && !touched; i++) touched = diff.diff(i).touchesPages;
    if (!touched) continue;
    const signed = pdf.revisions[w.signedRev];
    signedNow ??= diff.signedSigNodes(latest);
    const pages = pagesToCompare(pdf, signed, latest, signedNow);
    if (pages.length === 0) continue;
    if (w.modification === 'disallowed') namingDone = true;
    const limit = w.modification === 'disallowed' ? 2 : MAX_PAGES;
    out.push({
      work: w,
      signedEnd: signed.end,
      comparison: { pages: pages.slice(0, limit), signedWidgets: diff.signedSigNodes(signed), signedNow },
    });
  }
  return out;
}

function modificationsOf(
  pdf: PdfFile,
  diff: DiffAnalyzer,
  rules: RevisionRules,
  w: Work,
  certification: Work | undefined,
  sigsPerRevision: Map<number, string[]>,
): void {
  if (w.uncovered.length > 0) return;
  if (w.coverage === Coverage.Partial) {
    w.modification = 'disallowed';
    w.modifications.push('bytes after the signed range are not a complete revision');
    return;
  }
  if (w.signedRev === null) return;
  let worst: Modification = 'none';
  for (let i = w.signedRev + 1; i < pdf.revisions.length; i++) {
    const d = diff.diff(i);
    let level: LevelValue = d.level;
    if (level === Level.form && diff.onlyTimestamps(i, sigsPerRevision)) level = Level.timestamp;
    const certified = certification && certification.signedRev !== null && certification.signedRev < i;
    const p = certified ? (certification.docMdp ?? 2) : null;
    const max = p === 1 ? Level.timestamp : p === 2 ? Level.form : p === 3 ? Level.annot : Level.form;
    w.modifications.push(...d.changes.map((c) => `revision ${i + 1}: ${c}`));
    w.warnings.push(...rules.warnings(i));
    const broken = rules.problems(i);
    if (broken.length > 0) {
      worst = 'disallowed';
      w.modifications.push(...broken);
      w.problems.push(...broken.slice(0, 3));
    }
    if (level > max) {
      worst = 'disallowed';
      const reasons = d.disallowedReasons.length > 0 ? d.disallowedReasons : d.changes;
      w.problems.push(
        `revision ${i + 1} makes changes not permitted after signing${p ? ` (DocMDP P=${p})` : ''}: ${reasons.slice(0, 3).join('; ')}`,
      );
    } else if (worst === 'none') worst = 'allowed';
  }
  w.modification = worst;
}

/**
 * The fields a signature filled (those its own revision set), and each later change of a field it vouches
 * for (one holding a value when signed, or named by its /Lock): a disallowed change, named by field.
 */
function fieldsOf(pdf: PdfFile, fills: FormFills, w: Work): void {
  const s = w.signedRev;
  if (s === null || w.uncovered.length > 0) return;
  if (s > 0) w.filledFields = fills.changedIn(s).map((f) => f.name);
  let covered: ((name: string) => boolean) | undefined;
  for (let i = s + 1; i < pdf.revisions.length; i++) {
    for (const f of fills.changedIn(i)) {
      covered ??= fills.covered(s, w.found.fieldObjNum);
      if (!covered(f.name)) continue;
      const what = `field ${f.name} changed after signing`;
      w.modification = 'disallowed';
      w.problems.push(`revision ${i + 1}: ${what}`);
      w.modifications.push(`revision ${i + 1}: ${what}`);
    }
  }
}

function crypto(
  _pdf: PdfFile,
  bytes: Uint8Array,
  w: Work,
  anchors: Cert[],
  vd: ValidationData,
  now: Date,
): { question?: Question; finish: (extra: HookFinding | undefined) => SignatureReport } {
  const sig = w.found.sig;
  const problems = w.problems;
  let intact: boolean | null = null;
  let cryptoValid: boolean | null = null;
  let signerCert: Cert | undefined;
  let certBound: boolean | null = null;
  let signedAt: Date | undefined = pdfDate(textOf(sig.v.get('M')));
  let ts: TimestampCheck | undefined;
  let cmsFormat = false;
  let pool: Cert[] = [...vd.certs];
  let revData: ValidationData = vd;
  const subFilterObj = sig.v.get('SubFilter');
  const subFilter = isName(subFilterObj) ? subFilterObj.v : null;
  const contents = sig.v.get('Contents');
  const br = w.br;
  const chunks = (): Uint8Array[] => {
    if (!br) return [];
    const end1 = Math.min(br[0] + br[1], bytes.length);
    const end2 = Math.min(br[2] + br[3], bytes.length);
    return [
      bytes.subarray(Math.min(br[0], bytes.length), end1),
      bytes.subarray(Math.min(br[2], bytes.length), end2),
    ];
  };
  if (!isString(contents) || contents.v.every((b) => b === 0)) {
    problems.push('/Contents holds no signature value');
    cmsFormat = true;
  } else if (br) {
    if (w.kind === 'doc_timestamp') {
      ts = checkTimestampToken(contents.v, chunks());
      w.warnings.push(...ts.warnings);
      // a TSTInfo altered after the TSA signed it proves nothing about the bytes: a hash failure
      const altered = ts.problems.includes(TST_ALTERED);
      const hashProblem = (p: string) => p === 'messageImprint does not match' || p === TST_ALTERED;
      intact = ts.imprintMatches && !altered;
      signerCert = ts.tsaCert;
      cryptoValid = ts.tsaCert ? ts.problems.every(hashProblem) : null;
      if (ts.problems.some((p) => !hashProblem(p))) {
        if (ts.tsaCert) cryptoValid = false;
        problems.push(...ts.problems.filter((p) => !hashProblem(p)));
      }
      if (altered) problems.push(TST_ALTERED);
      if (!ts.tsaCert) problems.push('the time-stamp token holds no TSA certificate');
      pool = [...pool, ...ts.certs];
      signedAt = ts.genTime;
    } else {
      let cms: ParsedCms | undefined;
      try {
        cms = parseCms(contents.v);
      } catch (e) {
        problems.push((e as Error).message);
        cmsFormat = true;
      }
      if (cms) {
        w.warnings.push(...cms.warnings);
        signerCert = cms.signerCert;
        pool = [...pool, ...cms.certs];
        const adbe = adbeRevocationData(cms.signedAttr(OID.adbeRevocation)[0]);
        revData = { certs: vd.certs, crls: [...vd.crls, ...adbe.crls], ocsps: [...vd.ocsps, ...adbe.ocsps] };
        const detached = subFilter === 'adbe.pkcs7.detached' || subFilter === 'ETSI.CAdES.detached';
        if (!cms.digestAlg) {
          problems.push('unsupported digest algorithm');
        } else if (detached && cms.eContent) {
          problems.push('a detached signature must not encapsulate content');
          cmsFormat = true;
          const r = checkSigner(cms, hashChunks(cms.digestAlg, chunks()), chunks);
          intact = r.intact;
          cryptoValid = r.cryptoValid;
        } else if (subFilter === 'adbe.pkcs7.sha1') {
          const d = hashChunks('sha1', chunks());
          const content = cms.eContent;
          if (!content) {
            problems.push('adbe.pkcs7.sha1 signature without encapsulated digest');
            cmsFormat = true;
          } else {
            const r = checkSigner(cms, hashChunks(cms.digestAlg, [content]), () => [content]);
            intact = r.intact === true && Buffer.compare(Buffer.from(content), d) === 0;
            cryptoValid = r.cryptoValid;
            certBound = r.certBound;
            signedAt = r.signingTime ?? signedAt;
            problems.push(...r.problems);
          }
        } else if (detached) {
          const r = checkSigner(cms, hashChunks(cms.digestAlg, chunks()), chunks);
          intact = r.intact;
          cryptoValid = r.cryptoValid;
          certBound = r.certBound;
          signedAt = r.signingTime ?? signedAt;
          if (r.problems.length > 0) {
            problems.push(...r.problems);
            cmsFormat = true;
          }
        } else {
          problems.push(`unsupported /SubFilter ${subFilter ?? '(none)'}`);
          cmsFormat = true;
        }
        const tokAttr = cms.unsignedAttr(OID.signatureTimeStamp)[0];
        if (tokAttr?.values[0]) {
          const v = tokAttr.values[0];
          const token = checkTimestampToken(tokAttr.b.subarray(v.start, v.end), [cms.signature]);
          w.warnings.push(...token.warnings.map((x) => `signature time-stamp token: ${x}`));
          // an unsigned attribute that cannot be read is no time-stamp at all, as if it were missing
          if (token.unreadable)
            w.warnings.push(
              `the signature time-stamp token cannot be read (${token.problems.join('; ')}): the signature has no usable time-stamp`,
            );
          else {
            ts = token;
            if (!ts.ok) problems.push(`signature time-stamp is not valid: ${ts.problems.join('; ')}`);
            pool = [...pool, ...ts.certs];
          }
        }
      }
    }
  }
  if (intact === false) problems.push('the signed bytes do not match the digest in the signature');
  // Unsigned objects inside the signed part matter when the signature does sign its declared ranges
  // (signature wrapping); a signature whose digest does not match signs nothing to compare against.
  if (w.uncovered.length > 0 && intact === true) {
    w.modification = 'disallowed';
    w.modifications.push(...w.uncovered);
    problems.push(w.uncovered[0]);
  }
  if (cryptoValid === false) problems.push("the signature value does not verify with the signer's key");

  // Trust: validity at the time proven by a valid time-stamp, else now.
  const tsTime = ts?.ok && ts.genTime ? ts.genTime : undefined;
  const at = w.kind === 'doc_timestamp' ? (ts?.genTime ?? now) : (tsTime ?? now);
  // The time a time-stamp proves the signature existed at (a document time-stamp proves itself).
  const poe = w.kind === 'doc_timestamp' ? (ts?.ok ? ts.genTime : undefined) : tsTime;
  const chain = signerCert ? buildChain(signerCert, pool, anchors, at) : undefined;
  const issuerCert = chain?.chain[1];
  const embedded: RevocationFinding =
    signerCert && issuerCert ? revocationFindingOf(signerCert, issuerCert, revData) : { status: 'unknown' };
  const question: Question | undefined =
    signerCert && issuerCert
      ? {
          key: `${Buffer.from(signerCert.der).toString('base64')}|${Buffer.from(issuerCert.der).toString('base64')}`,
          cert: signerCert,
          issuer: issuerCert,
        }
      : undefined;

  const finish = (extra: HookFinding | undefined): SignatureReport => {
    const problems = [...w.problems];
    let trusted = false;
    let chainInfo: SignatureReport['chain'] = [];
    let trustSub: SubIndication | null = null;
    // Embedded data and the hook combined (see VerifyOptions.revocation for the precedence).
    const merged = mergeFindings(extra ? [embedded, extra] : [embedded]);
    let revocation = merged.status;
    const revokedAt = revocation === 'revoked' ? merged.revokedAt : undefined;
    // A revocation dated after the validation time is not in force yet.
    if (revokedAt && revokedAt.getTime() > now.getTime()) revocation = 'good';
    // Who gave the answer that stands: the hook when its revocation (or its 'good') is the one used.
    const hookRevoked =
      merged.status === 'revoked' &&
      extra?.status === 'revoked' &&
      (embedded.status !== 'revoked' || extra.revokedAt?.getTime() === merged.revokedAt?.getTime());
    const fromHook = hookRevoked || (merged.status === 'good' && embedded.status !== 'good');
    const revocationSource = merged.status === 'unknown' ? null : fromHook && extra ? extra.source : 'dss';
    if (signerCert && chain) {
      chainInfo = chain.chain.map(certInfo);
      // Revoked after the time a time-stamp proves: the signature was made before, and stays valid.
      const revokedAfterPoe =
        revocation === 'revoked' && !!revokedAt && !!poe && poe.getTime() < revokedAt.getTime();
      const effective = revocation === 'revoked' && !revokedAfterPoe;
      trusted = chain.anchored && chain.validAt && !effective;
      if (!chain.anchored) trustSub = SubIndication.NoCertificateChainFound;
      else if (chain.notYetValid) trustSub = SubIndication.NotYetValid;
      else if (!chain.validAt) trustSub = SubIndication.OutOfBoundsNoPoe;
      if (effective) trustSub = poe ? SubIndication.Revoked : SubIndication.RevokedNoPoe;
      const when = revokedAt ? ` on ${revokedAt.toISOString()}` : '';
      const by = revocationSource && revocationSource !== 'dss' ? ` (${revocationSource})` : '';
      const why = extra?.reason && fromHook ? `, reason: ${extra.reason}` : '';
      if (revokedAfterPoe)
        problems.push(
          `the signing certificate was revoked${when}${by}${why}, after the time-stamp proves the signature existed (${poe?.toISOString()}): the signature stays valid`,
        );
      else if (effective && poe)
        problems.push(
          `the signing certificate was revoked${when}${by}${why}, before the time-stamp's time (${poe.toISOString()})`,
        );
      else if (effective)
        problems.push(
          `the signing certificate was revoked${when}${by}${why}, and no time-stamp proves the signature was made before`,
        );
    }

    // Indication, trust aside: structure, then integrity, then the signing certificate.
    let aside: Result = { indication: Indication.TotalPassed, subIndication: null };
    if (w.formatFailure || cmsFormat || w.modification === 'disallowed')
      aside = { indication: Indication.TotalFailed, subIndication: SubIndication.FormatFailure };
    else if (intact === false)
      aside = { indication: Indication.TotalFailed, subIndication: SubIndication.HashFailure };
    else if (cryptoValid === false)
      aside = { indication: Indication.TotalFailed, subIndication: SubIndication.SigCryptoFailure };
    else if (!signerCert || certBound === false) {
      if (certBound === false)
        problems.push('the signing-certificate attribute does not match the certificate');
      else problems.push("the signer's certificate is not in the signature");
      aside = {
        indication: Indication.Indeterminate,
        subIndication: SubIndication.NoSigningCertificateFound,
      };
    } else if (intact === null || cryptoValid === null)
      aside = {
        indication: Indication.Indeterminate,
        subIndication: SubIndication.CryptoConstraintsFailureNoPoe,
      };
    let full = aside;
    if (aside.indication === Indication.TotalPassed && trustSub) {
      full =
        trustSub === SubIndication.Revoked || trustSub === SubIndication.NotYetValid
          ? { indication: Indication.TotalFailed, subIndication: trustSub }
          : { indication: Indication.Indeterminate, subIndication: trustSub };
      if (trustSub === SubIndication.NoCertificateChainFound)
        problems.push('the certificate does not chain to a trust anchor');
      if (trustSub === SubIndication.OutOfBoundsNoPoe)
        problems.push(`a certificate of the chain is not valid at ${at.toISOString()}`);
    }
    const signer = signerCert
      ? {
          name: nameAttr(signerCert.subject, OID.commonName) ?? textOf(sig.v.get('Name')) ?? null,
          organisation: nameAttr(signerCert.subject, OID.organisation) ?? null,
          serial: serialHex(signerCert),
        }
      : textOf(sig.v.get('Name'))
        ? { name: textOf(sig.v.get('Name')) ?? null, organisation: null, serial: null }
        : null;
    return {
      field: w.found.field,
      kind: w.kind,
      signer,
      signedAt: signedAt ? signedAt.toISOString() : null,
      timestamp: ts?.genTime
        ? { time: ts.genTime.toISOString(), authority: ts.tsaName ?? null, valid: ts.ok }
        : null,
      intact,
      cryptoValid,
      coverage: w.coverage,
      modifiedAfterSigning: w.modification,
      trusted,
      revocation,
      revokedAt: revocation === 'revoked' && revokedAt ? revokedAt.toISOString() : null,
      revocationSource,
      indication: full.indication,
      subIndication: full.subIndication,
      trustAside: aside,
      subFilter,
      byteRange: br,
      docMdp: w.docMdp,
      chain: chainInfo,
      problems: [...new Set(problems)],
      modifications: w.modifications,
      changedRegions: w.changedRegions,
      warnings: [...new Set(w.warnings)],
      filledFields: w.filledFields,
      revision: w.signedRev === null ? null : w.signedRev + 1,
    };
  };
  return { question, finish };
}
