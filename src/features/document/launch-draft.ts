// The launch being prepared: documents, signers in steps, their positions. Kept in session storage so the
// position screens (/pc/v1/outsignRoom) and the launch screens work on the same draft, and a reload keeps it.
import { type CcDraft, ccRequest } from '@/components/cc/cc-texts.ts';
import { SealType } from '#contract/enums.ts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { type DocumentInfo, PT_PER_MM } from '@/api/document.ts';
import { type Applies, FLOW_LIMITS, type IntentCheck, type LaunchRequest } from '@/api/flow.ts';
import type { PdfRect } from '@/components/pdf-viewer.tsx';
import { sessionStore } from '@/lib/safe-storage.ts';
import { CHOICE_KINDS, FIELD_LIMITS, type FieldKind } from '#contract/rules/fields.ts';
import { type TermDraft, termIssue, termRequest } from '@/components/term-fields.tsx';

export type LaunchMode = 'quick' | 'regular';

export type DraftParty = {
  key: string;
  kind: 'person' | 'company';
  /** Person: the signer. Company: the operator who receives the link. */
  name: string;
  phone: string;
  /** A user chosen in a picker instead of a typed phone (the launcher sees the phone masked only). */
  picked?: { userId: string; phoneMasked: string };
  /** Company parties: the caller's own company, or another one named exactly as registered. */
  companyMode: 'own' | 'other';
  companyId?: string;
  companyName: string;
  /** A company not on the platform yet: its handler opens it from the signing room (issue 11). */
  inviteToOpen?: boolean;
  /**
   * Company parties: the launcher chose the seal type (or whether to insist on it) themselves; until then the
   * type follows the seals the signer may use (readiness), so it is never one the company lacks.
   */
  isSealTypeChosen?: boolean;
  /** The intent check asked before this party signs (SMS code, face, signing password); default SMS. */
  intent?: IntentCheck;
  /** The launcher does not allow this party to hand its turn to someone else (reassign, issue 29). */
  noReassign?: boolean;
  applies: Applies;
  /** Fields this party fills in the signing room before signing (issue 28). */
  fields?: DraftField[];
};

/** A field a party fills in the room: what it is, and where it sits (one document, one box). */
export type DraftField = {
  key: string;
  label: string;
  kind: FieldKind;
  isRequired: boolean;
  /** radio and select: one a line as typed, kept trimmed. */
  options?: string[];
  at?: Placement & { documentId: string };
};

/** A new field of a party (key unique enough within the party: letters, digits). */
export const newDraftField = (kind: FieldKind, label: string): DraftField => ({
  key: newKey('f').slice(0, 24),
  label,
  kind,
  isRequired: kind !== 'signDate',
  ...(CHOICE_KINDS.includes(kind) ? { options: [] } : {}),
});

/** The draft with one party's field placed (or taken off the page with null). */
export const placeField = (
  d: LaunchDraft,
  partyKey: string,
  fieldKey: string,
  at: DraftField['at'] | null,
): LaunchDraft => ({
  ...d,
  steps: d.steps.map((s) => ({
    ...s,
    parties: s.parties.map((p) =>
      p.key === partyKey
        ? {
            ...p,
            fields: (p.fields ?? []).map((f) => (f.key === fieldKey ? { ...f, at: at ?? undefined } : f)),
          }
        : p,
    ),
  })),
});

/** The box of a new field, in points as it reads on the page. */
export function fieldBoxPt(kind: FieldKind): { widthPt: number; heightPt: number } {
  if (kind === 'checkbox') return { widthPt: 16, heightPt: 16 };
  if (kind === 'multiline') return { widthPt: 220, heightPt: 60 };
  return { widthPt: 150, heightPt: 22 };
}

type DraftStep = { key: string; parties: DraftParty[] };
export type Placement = { page: number; rect: PdfRect };

export type LaunchDraft = {
  mode: LaunchMode;
  title: string;
  message: string;
  /** ISO time, or '' for the default (7 days). */
  deadline: string;
  /** Remind the unsigned parties every N days; null (or absent in an older draft): no automatic reminders. */
  remindEveryDays?: number | null;
  documents: DocumentInfo[];
  steps: DraftStep[];
  /** placements[partyKey][documentId]: ONE rectangle per party and document (the contract's rule). */
  placements: Record<string, Record<string, Placement>>;
  /** Copy recipients (抄送, issue 29; cc-card.tsx). */
  cc?: CcDraft[];
  /** The contract's own term (issue 29); absent or null: none. */
  term?: TermDraft | null;
  /** The completed flow this launch renews ("Renew" on its detail). */
  renewsFlowId?: string;
  /** The server-side draft this launch was saved as or opened from (launch-term.tsx). */
  serverDraftId?: string;
};

let counter = 0;
export const newKey = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

export const personApplies = (): Applies => ({
  companySealType: null,
  legalPersonSeal: false,
  personSignature: true,
  date: false,
  crossPageSeal: false,
});
/** A company party seals with a company seal the signer chooses; the contract seal is offered first. */
export const companyApplies = (): Applies => ({
  companySealType: SealType.Contract,
  anyCompanySeal: true,
  legalPersonSeal: false,
  personSignature: false,
  date: false,
  crossPageSeal: false,
});

/**
 * The company seal type to offer first among the types a signer may use: the contract seal, else the official
 * seal, else the first other company seal; null when they have none (the legal-person seal has its own box).
 */
export function preferredSealType(sealTypes: readonly number[]): number | null {
  for (const t of [SealType.Contract, SealType.Official]) if (sealTypes.includes(t)) return t;
  return sealTypes.find((t) => t !== SealType.LegalPerson) ?? null;
}

export const newParty = (kind: DraftParty['kind'] = 'person'): DraftParty => ({
  key: newKey('p'),
  kind,
  name: '',
  phone: '',
  companyMode: 'own',
  companyName: '',
  applies: kind === 'person' ? personApplies() : companyApplies(),
});

/** A company party: the caller's own company when acting for one (the usual case), else one named by hand. */
export function companyParty(
  me: { userType: number; companyId: string | null; companyName: string | null } | null,
): DraftParty {
  const party = newParty('company');
  return me?.userType === 1 && me.companyId
    ? { ...party, companyMode: 'own', companyId: me.companyId, companyName: me.companyName ?? '' }
    : { ...party, companyMode: 'other' };
}

/**
 * "Add myself" in one click: the caller as a person signer, or, acting for a company, the own company with the
 * caller as the handler who receives the link. Chosen by id (the phone stays masked, as with the pickers).
 */
export function myselfParty(me: {
  userId: string;
  userType: number;
  phone: string;
  name: string | null;
  companyId: string | null;
  companyName: string | null;
}): DraftParty {
  const picked = { userId: me.userId, phoneMasked: `${me.phone.slice(0, 3)}****${me.phone.slice(-4)}` };
  const base = me.userType === 1 && me.companyId ? companyParty(me) : newParty('person');
  return { ...base, picked, phone: '', name: me.name ?? '' };
}

export const emptyDraft = (mode: LaunchMode): LaunchDraft => ({
  mode,
  title: '',
  message: '',
  deadline: '',
  remindEveryDays: null,
  documents: [],
  steps: [{ key: newKey('s'), parties: [newParty()] }],
  placements: {},
});

/**
 * The box a party's appearance needs, in millimetres as it reads on the page: the seal or signature, the
 * legal-person seal beside it, the date below (what the server lays out inside the rectangle).
 */
export function boxSizeMm(party: Pick<DraftParty, 'kind' | 'applies'>): { width: number; height: number } {
  const a = party.applies;
  let width = 0;
  let height = 0;
  if (party.kind === 'company' && a.companySealType != null) {
    width += 42;
    height = 42;
  }
  if (party.kind === 'company' && a.legalPersonSeal) {
    width += 24;
    height = Math.max(height, 24);
  }
  if (a.personSignature || width === 0) {
    width += 40;
    height = Math.max(height, 20);
  }
  if (a.date) height += 8;
  return { width, height };
}

export const boxSizePt = (party: Pick<DraftParty, 'kind' | 'applies'>) => {
  const mm = boxSizeMm(party);
  return { widthPt: mm.width * PT_PER_MM, heightPt: mm.height * PT_PER_MM };
};

export const allParties = (d: Pick<LaunchDraft, 'steps'>) => d.steps.flatMap((s) => s.parties);

/** A problem of the draft, as a text key of the feature and where it is. */
export type DraftIssue = { key: IssueKey; partyKey?: string; step?: number };
type IssueKey =
  | 'needTitle'
  | 'needDocument'
  | 'quickOneDocument'
  | 'tooManyDocuments'
  | 'needSigner'
  | 'tooManySteps'
  | 'tooManyParties'
  | 'needName'
  | 'badPhone'
  | 'needCompany'
  | 'needCompanyApplies'
  | 'needPosition'
  | 'duplicateSigner'
  | 'deadlinePast'
  | 'fieldLabel'
  | 'fieldOptions'
  | 'fieldNotPlaced'
  | 'tooManyFields'
  | 'termInvalid';

const PHONE = /^1\d{10}$/;

/** The form rules of a launch, checked on the client so users see them in their language first. */
export function draftIssues(d: LaunchDraft, now = Date.now()): DraftIssue[] {
  const issues: DraftIssue[] = [];
  if (!d.title.trim()) issues.push({ key: 'needTitle' });
  if (d.documents.length === 0) issues.push({ key: 'needDocument' });
  if (d.mode === 'quick' && d.documents.length > 1) issues.push({ key: 'quickOneDocument' });
  if (d.documents.length > FLOW_LIMITS.documents) issues.push({ key: 'tooManyDocuments' });
  const steps = d.steps.filter((s) => s.parties.length > 0);
  if (steps.length === 0) issues.push({ key: 'needSigner' });
  if (d.steps.length > FLOW_LIMITS.steps) issues.push({ key: 'tooManySteps' });
  const parties = allParties(d);
  if (
    parties.length > FLOW_LIMITS.parties ||
    d.steps.some((s) => s.parties.length > FLOW_LIMITS.partiesPerStep)
  )
    issues.push({ key: 'tooManyParties' });
  const seen = new Set<string>();
  d.steps.forEach((s, step) => {
    for (const p of s.parties) {
      if (p.kind === 'person' && !p.name.trim()) issues.push({ key: 'needName', partyKey: p.key, step });
      if (!p.picked && !PHONE.test(p.phone)) issues.push({ key: 'badPhone', partyKey: p.key, step });
      if (p.kind === 'company') {
        if (p.companyMode === 'own' ? !p.companyId : p.companyName.trim().length < 2)
          issues.push({ key: 'needCompany', partyKey: p.key, step });
        if (p.applies.companySealType == null && !p.applies.legalPersonSeal && !p.applies.personSignature)
          issues.push({ key: 'needCompanyApplies', partyKey: p.key, step });
      }
      // The same signer twice (same phone, same company or none) would sign the same documents twice.
      const who = `${p.kind}:${p.kind === 'company' ? (p.companyId ?? p.companyName.trim()) : ''}:${p.picked?.userId ?? p.phone}`;
      if ((p.picked || PHONE.test(p.phone)) && seen.has(who))
        issues.push({ key: 'duplicateSigner', partyKey: p.key, step });
      seen.add(who);
      const placed = Object.keys(d.placements[p.key] ?? {}).filter((id) =>
        d.documents.some((x) => x.documentId === id),
      );
      if (d.documents.length > 0 && placed.length === 0)
        issues.push({ key: 'needPosition', partyKey: p.key, step });
      const fields = p.fields ?? [];
      if (fields.length > FIELD_LIMITS.perParty) issues.push({ key: 'tooManyFields', partyKey: p.key, step });
      for (const f of fields) {
        if (!f.label.trim()) issues.push({ key: 'fieldLabel', partyKey: p.key, step });
        const o = f.options ?? [];
        if (CHOICE_KINDS.includes(f.kind) && (o.length < 2 || new Set(o).size !== o.length))
          issues.push({ key: 'fieldOptions', partyKey: p.key, step });
        if (d.documents.length > 0 && !(f.at && d.documents.some((x) => x.documentId === f.at?.documentId)))
          issues.push({ key: 'fieldNotPlaced', partyKey: p.key, step });
      }
    }
  });
  if (d.deadline && !(Date.parse(d.deadline) > now)) issues.push({ key: 'deadlinePast' });
  if (d.term && termIssue(d.term)) issues.push({ key: 'termInvalid' });
  return issues;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The launchFlow request of a draft (empty steps dropped; positions only on the draft's documents). */
export function toLaunchRequest(d: LaunchDraft): LaunchRequest {
  const documentIds = d.documents.map((x) => x.documentId);
  const positionsOf = (p: DraftParty) =>
    documentIds.flatMap((documentId) => {
      const at = d.placements[p.key]?.[documentId];
      return at ? [{ documentId, page: at.page, rect: at.rect.map(round) as PdfRect }] : [];
    });
  const fieldsOf = (p: DraftParty) =>
    (p.fields ?? []).flatMap((f) =>
      f.at && documentIds.includes(f.at.documentId)
        ? [
            {
              key: f.key,
              label: f.label.trim(),
              kind: f.kind,
              isRequired: f.isRequired,
              ...(CHOICE_KINDS.includes(f.kind) ? { options: f.options ?? [] } : {}),
              position: {
                documentId: f.at.documentId,
                page: f.at.page,
                rect: f.at.rect.map(round) as PdfRect,
              },
            },
          ]
        : [],
    );
  const withFields = (p: DraftParty) => {
    const fields = fieldsOf(p);
    return fields.length > 0 ? { fields } : {};
  };
  return {
    title: d.title.trim(),
    documentIds,
    isQuick: d.mode === 'quick',
    ...(d.deadline ? { deadline: new Date(d.deadline).toISOString() } : {}),
    ...(d.message.trim() ? { message: d.message.trim() } : {}),
    ...(d.remindEveryDays ? { remindEveryDays: d.remindEveryDays } : {}),
    ...(d.cc?.length ? { cc: ccRequest(d.cc) } : {}),
    ...(d.term ? { term: termRequest(d.term) } : {}),
    ...(d.renewsFlowId ? { renewsFlowId: d.renewsFlowId } : {}),
    steps: d.steps
      .filter((s) => s.parties.length > 0)
      .map((s) => ({
        parties: s.parties.map((p) =>
          p.kind === 'person'
            ? {
                kind: 'person' as const,
                name: p.name.trim(),
                ...(p.picked ? { userId: p.picked.userId } : { phone: p.phone }),
                intent: p.intent ?? 'sms',
                applies: {
                  ...p.applies,
                  companySealType: null,
                  legalPersonSeal: false,
                  personSignature: true,
                },
                positions: positionsOf(p),
                ...withFields(p),
                ...(p.noReassign ? { allowReassign: false } : {}),
              }
            : {
                kind: 'company' as const,
                ...(p.companyMode === 'own' && p.companyId
                  ? { companyId: p.companyId }
                  : { companyName: p.companyName.trim() }),
                ...(p.picked ? { operatorUserId: p.picked.userId } : { operatorPhone: p.phone }),
                ...(p.name.trim() ? { operatorName: p.name.trim() } : {}),
                ...(p.companyMode === 'other' && p.inviteToOpen ? { inviteToOpen: true } : {}),
                intent: p.intent ?? 'sms',
                applies: p.applies,
                positions: positionsOf(p),
                ...withFields(p),
                ...(p.noReassign ? { allowReassign: false } : {}),
              },
        ),
      })),
  };
}

type DraftStore = {
  draft: LaunchDraft;
  /** Start over in a mode (a draft of the other mode is dropped). */
  begin: (mode: LaunchMode) => void;
  update: (change: (d: LaunchDraft) => LaunchDraft) => void;
  reset: () => void;
};

export const useLaunchDraft = create<DraftStore>()(
  persist(
    (set) => ({
      draft: emptyDraft('quick'),
      begin: (mode) => set((s) => (s.draft.mode === mode ? s : { draft: emptyDraft(mode) })),
      update: (change) => set((s) => ({ draft: change(s.draft) })),
      reset: () => set((s) => ({ draft: emptyDraft(s.draft.mode) })),
    }),
    { name: 'launchDraft', storage: createJSONStorage(() => sessionStore) },
  ),
);
