import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { documentUrl, SIGNATURE_PNG_MAX_BYTES } from '@/api/document.ts';
import {
  declineFlow,
  getSigningRoom,
  type RoomSeal,
  roomQuery,
  roomTokenFor,
  saveRoomLogin,
  type SigningRoom,
  signDocument,
  signingRoomLogin,
} from '@/api/flow.ts';
import { sealImageSrc } from '@/api/seal.ts';
import { paths } from '@/config/paths.ts';
import type { PageGeometry } from '@/components/pdf-viewer.tsx';
import { PlainButton } from '@/components/plain-button.tsx';
import type { SignaturePadHandle } from '@/components/signature-pad.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { Code } from '#contract/codes.ts';
import { ApiError } from '@/api/http.ts';
import { SealApprovalBox, useRoomApprovals } from './approval-box.tsx';
import { IntentPrompt } from './intent-prompt.tsx';
import { MESSAGE_MS, SMS_CODE_RE, ReasonField, RoomBrandBar } from './parts.tsx';
import { blobToBase64, defaultChoice, missingSlot, type SealChoice, sealsBySlot } from './seal-choice.ts';
import { Badge, BusyBar, Choice, Dialog, Notice } from './light-ui.tsx';
import { NoRoomNotice } from './no-room-notice.tsx';
import { texts } from './texts.ts';
import { onboardingTexts } from './onboarding-texts.ts';
import {
  forgetRoomDraft,
  keepStrokes,
  keptStrokes,
  markOnboarding,
  takeOnboardingReturn,
} from './room-drafts.ts';
import { notify } from '@/lib/notify.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';
import { FieldGuide, FilledValues, useRoomFields } from './field-guide.tsx';
import { fieldTexts } from './field-texts.ts';
import { CommentPins } from '@/components/flow-comments/comment-pins.tsx';
import { useFlowComments } from '@/components/flow-comments/use-flow-comments.ts';
import { HandOverButton } from './hand-over.tsx';
import { RevisedNotice } from '@/components/revisions/revision-versions.tsx';

// The viewer and the pad load when there is a room to show (the viewer's chunk starts with the room's own
// request, so it costs no extra wait): a visitor without a room downloads neither.
const loadPdfViewer = () => import('@/components/pdf-viewer.tsx');
const PdfViewer = lazy(() => loadPdfViewer().then((m) => ({ default: m.PdfViewer })));
// The comments panel (issue 29) loads after the room: the signer's first screen does not wait for it.
const RoomComments = lazy(() => import('./room-comments.tsx').then((m) => ({ default: m.RoomComments })));
const SignaturePad = lazy(() =>
  import('@/components/signature-pad.tsx').then((m) => ({ default: m.SignaturePad })),
);
/** The viewer's toolbar above its pages (a placeholder keeps the space while the viewer loads). */
const PDF_TOOLBAR_PX = 32;
/** On a phone its buttons are 44 px touch targets (index.html). */
const PDF_TOOLBAR_PHONE_PX = 44;

type RoomState =
  | { kind: 'loading' }
  | { kind: 'no-room' }
  | { kind: 'error'; text: string }
  | { kind: 'ready'; token: string; room: SigningRoom };

/** The room token of the query's party: this tab's link login, or a fresh one for a logged-in user. */
async function resolveToken(flowId: string, partyId: string, isLoggedIn: boolean): Promise<string | null> {
  const saved = roomTokenFor(partyId);
  if (saved) return saved;
  if (!isLoggedIn || !flowId) return null;
  const login = await signingRoomLogin({ flowId, partyId });
  saveRoomLogin(login);
  return login.roomToken;
}

function useRoom() {
  const [search] = useSearchParams();
  const flowId = search.get('flowId') ?? '';
  const partyId = search.get('partyId') ?? '';
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  // Without a party there is no room to load: say so in the first render rather than after a loading frame.
  const [state, setState] = useState<RoomState>(() => (partyId ? { kind: 'loading' } : { kind: 'no-room' }));
  const load = useCallback(async () => {
    try {
      if (partyId) loadPdfViewer().catch(() => {}); // a failure shows when the viewer itself loads
      const token = partyId ? await resolveToken(flowId, partyId, isLoggedIn) : null;
      if (!token) return setState({ kind: 'no-room' });
      setState({ kind: 'ready', token, room: await getSigningRoom({ roomToken: token }) });
    } catch (e) {
      setState({ kind: 'error', text: showApiError(e) });
    }
  }, [flowId, partyId, isLoggedIn]);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, flowId, partyId };
}

function SealOption({ seal, token }: { seal: RoomSeal; token: string }) {
  const tt = useTexts(texts);
  const src = sealImageSrc(
    `${seal.pngUrl}${seal.pngUrl.includes('?') ? '&' : '?'}roomToken=${encodeURIComponent(token)}`,
  );
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <img src={src} alt="" style={{ width: 40, height: 40, objectFit: 'contain' }} />
      <span>
        {seal.name}
        {/* A seal of the party's company granted to the signer's company (a cross-company letter). */}
        {seal.grant ? (
          <span style={{ display: 'block', fontSize: 12, color: '#666', overflowWrap: 'anywhere' }}>
            {tt('sealGranted', { company: seal.grant.companyName, number: seal.grant.letterNumber })}
          </span>
        ) : null}
      </span>
    </span>
  );
}

function SealSlot({
  title,
  seals,
  value,
  token,
  onChange,
  extra,
}: {
  title: string;
  seals: RoomSeal[];
  value: string | undefined;
  token: string;
  onChange: (id: string) => void;
  /** One more choice after the seals (draw a signature now). */
  extra?: { value: string; label: string };
}) {
  const name = useId();
  const tt = useTexts(texts);
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
      <legend style={{ fontWeight: 600, marginBottom: 8, fontSize: 14 }}>{title}</legend>
      {seals.length === 0 && !extra ? <Notice type="warning" title={tt('noSeal')} /> : null}
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        {seals.map((s) => (
          <label key={s.sealId} style={{ display: 'flex', alignItems: 'center', gap: 8, cursor: 'pointer' }}>
            <input
              type="radio"
              name={name}
              checked={value === s.sealId}
              onChange={() => onChange(s.sealId)}
            />
            <SealOption seal={s} token={token} />
          </label>
        ))}
        {extra ? (
          <label style={{ display: 'flex', alignItems: 'center', gap: 8, cursor: 'pointer' }}>
            <input
              type="radio"
              name={name}
              checked={value === extra.value}
              onChange={() => onChange(extra.value)}
            />
            {extra.label}
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}

const DRAW = '__draw__';
const NO_FIELDS: SigningRoom['fields'] = [];

type RoomPosition = SigningRoom['party']['positions'][number];

/** The party's positions in reading order: by document, page, then top to bottom and left to right. */
export function positionsInOrder(room: Pick<SigningRoom, 'documents' | 'party'>): RoomPosition[] {
  const docOrder = (id: string) => room.documents.findIndex((d) => d.documentId === id);
  return [...room.party.positions].sort(
    (a, b) =>
      docOrder(a.documentId) - docOrder(b.documentId) ||
      a.page - b.page ||
      // PDF y grows upwards: the higher top edge comes first
      b.rect[3] - a.rect[3] ||
      a.rect[0] - b.rect[0],
  );
}
const NOTICE_BOX = { maxWidth: 520, margin: '48px auto', padding: 16 } as const;

/** Who sent the flow: the launcher by name, with the company it launched for. */
function senderOf(flow: SigningRoom['flow']): { name: string; company: string | null } {
  const name = flow.initiatorName ?? flow.initiatorCompanyName ?? '';
  const company = flow.initiatorName && flow.initiatorCompanyName ? flow.initiatorCompanyName : null;
  return { name, company };
}

/** The signing room, on PC (/pc/v1/signing_room) and on phones (/h5/v1/signing_room): read, choose, sign. */
export default function SigningRoomPage() {
  const tt = useTexts(texts);
  const ot = useTexts(onboardingTexts);
  const ft = useTexts(fieldTexts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const location = useLocation();
  const isPhone = location.pathname.startsWith(paths.h5);
  const { state, flowId, partyId } = useRoom();
  const [docIndex, setDocIndex] = useState(0);
  const [choice, setChoice] = useState<SealChoice>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [isSignOpen, setIsSignOpen] = useState(false);
  const [isDeclineOpen, setIsDeclineOpen] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [phoneMasked, setPhoneMasked] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [isSigning, setIsSigning] = useState(false);
  const [isDeclining, setIsDeclining] = useState(false);
  const pad = useRef<SignaturePadHandle>(null);
  const drawing = useRef<string | null>(null);
  const [isJustVerified, setIsJustVerified] = useState(false);

  const room = state.kind === 'ready' ? state.room : null;
  // Comments (issue 29): the room's flow, read and written with the room's token.
  const comments = useFlowComments(
    room?.flow.flowId ?? null,
    state.kind === 'ready' ? state.token : undefined,
  );
  const closeSign = useCallback(() => setIsSignOpen(false), []);
  const closeDecline = useCallback(() => setIsDeclineOpen(false), []);
  // The party's positions in reading order; the room opens at the first, "next position" walks them
  // (issue 11 edge 1). `seq` makes the viewer scroll again even to the same box.
  const positions = useMemo(() => (room ? positionsInOrder(room) : []), [room]);
  const [target, setTarget] = useState<{ index: number; seq: number } | null>(null);
  // One counter for both jumps (a position, a field): the latest asked wins.
  const jumpSeq = useRef(0);
  // The party's own fields (issue 28), filled one by one before signing; the page scrolls to the shown one.
  const documentIds = useMemo(() => room?.documents.map((d) => d.documentId) ?? [], [room]);
  const roomFields = useRoomFields(
    room?.fields ?? NO_FIELDS,
    documentIds,
    state.kind === 'ready' ? state.token : '',
  );
  const hasFieldsToFill = Boolean(room?.canSign && roomFields.entries.length > 0);
  const [fieldIndex, setFieldIndex] = useState(0);
  const [fieldJump, setFieldJump] = useState<{ seq: number } | null>(null);
  const currentField = hasFieldsToFill ? roomFields.entries[fieldIndex]?.field : undefined;
  const goToField = (index: number) => {
    const f = roomFields.entries[index]?.field;
    if (!room || !f) return;
    setFieldIndex(index);
    setDocIndex(
      Math.max(
        0,
        room.documents.findIndex((d) => d.documentId === f.documentId),
      ),
    );
    jumpSeq.current += 1;
    setFieldJump({ seq: jumpSeq.current });
  };
  useEffect(() => {
    if (!room) return;
    const first = defaultChoice(room);
    // A party that drew its signature before onboarding keeps drawing, even if it has a saved seal now.
    const hasDrawn = keptStrokes(partyId).length > 0;
    setChoice(room.needs.personSignature && hasDrawn ? { ...first, isDrawing: true } : first);
    setPhoneMasked(room.signer.phoneMasked);
    if (room.canSign && room.onboarding.step === 'none' && takeOnboardingReturn(partyId))
      setIsJustVerified(true);
  }, [room, partyId]);
  useEffect(() => {
    const first = positions[0];
    if (!room || !first) return;
    setDocIndex(
      Math.max(
        0,
        room.documents.findIndex((d) => d.documentId === first.documentId),
      ),
    );
    jumpSeq.current += 1;
    setTarget({ index: 0, seq: jumpSeq.current });
  }, [room, positions]);
  // With fields to fill the room opens at the first one (the guide starts there).
  const firstFieldId = hasFieldsToFill ? roomFields.entries[0]?.field.fieldId : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per room and first field
  useEffect(() => {
    if (firstFieldId) goToField(0);
  }, [firstFieldId]);
  const goToPosition = (index: number) => {
    const at = positions[index];
    if (!room || !at) return;
    setDocIndex(
      Math.max(
        0,
        room.documents.findIndex((d) => d.documentId === at.documentId),
      ),
    );
    jumpSeq.current += 1;
    setTarget({ index, seq: jumpSeq.current });
  };
  const targetPosition = target ? positions[target.index] : undefined;

  const slots = useMemo(() => (room ? sealsBySlot(room) : null), [room]);
  // Seal-use approval (用印审批) of the chosen company seal: asked for, waited for, then the seal may be applied.
  const mayUseCompanySeal = Boolean(room?.canSign && room.needs.companySeal);
  const approvals = useRoomApprovals(
    state.kind === 'ready' && mayUseCompanySeal ? state.token : null,
    choice.companySealId,
  );
  const doc = room?.documents[docIndex];
  const url = useMemo(
    () => (doc && state.kind === 'ready' ? documentUrl(doc.documentId, state.token) : ''),
    [doc, state],
  );

  const resultPath = (result: string) =>
    `${paths.signConfirm}${roomQuery({ flowId: room?.flow.flowId ?? flowId, partyId }, { result })}`;

  const openSign = async () => {
    if (!room) return;
    setProblem(null);
    // A signer without a real name or certificate onboards first, inside the room's own steps, and comes back.
    const step = room.onboarding.step;
    if (step !== 'none') {
      markOnboarding(partyId);
      const target =
        step === 'userAgreement' && isPhone
          ? paths.h5UserAgreement
          : isPhone
            ? paths.h5NameAuthentication
            : paths.pcNameAuthentication;
      return navigate(`${target}${location.search}`);
    }
    if (room.canSign && roomFields.left > 0) return setProblem(ft('requiredLeft', { n: roomFields.left }));
    await roomFields.flush();
    const missing = missingSlot(room, choice);
    if (missing) return setProblem(tt('needSeal'));
    if (approvals.isBlocked) return;
    drawing.current = null;
    if (room.needs.personSignature && choice.isDrawing) {
      const png = await pad.current?.toPng();
      if (!png) return setProblem(tt('needDrawing'));
      if (png.size > SIGNATURE_PNG_MAX_BYTES) return setProblem(tt('drawingTooLarge'));
      drawing.current = await blobToBase64(png);
    }
    setCode('');
    setCodeError(null);
    setIsSignOpen(true);
  };

  const confirmSign = async () => {
    if (state.kind !== 'ready') return;
    const intent = room?.party.intent ?? 'sms';
    if (intent === 'sms' && !SMS_CODE_RE.test(code)) return setCodeError(tt('codeInvalid'));
    if (intent === 'password' && !code) return setCodeError(tt('passwordRequired'));
    setIsSigning(true);
    try {
      await signDocument({
        roomToken: state.token,
        ...(intent === 'sms' ? { smsCode: code } : intent === 'password' ? { signingPassword: code } : {}),
        companySealId: room?.needs.companySeal ? choice.companySealId : undefined,
        legalPersonSealId: room?.needs.legalPersonSeal ? choice.legalPersonSealId : undefined,
        personSealId: room?.needs.personSignature && !choice.isDrawing ? choice.personSealId : undefined,
        signaturePng:
          room?.needs.personSignature && choice.isDrawing ? (drawing.current ?? undefined) : undefined,
        ...(roomFields.entries.length > 0 ? { fieldValues: roomFields.fieldValues() } : {}),
      });
      setIsSignOpen(false);
      forgetRoomDraft(partyId);
      void import('@/lib/signing-events.ts').then((m) =>
        m.reportSigningResult({ flowId, partyId, result: 'signed' }),
      );
      navigate(resultPath('signed'));
    } catch (e) {
      if (e instanceof ApiError && e.code === Code.SealApprovalRequired) {
        // The seal needs an approval (new, lapsed or voided): the approval step says what to do.
        setIsSignOpen(false);
        setProblem(e.message);
        await approvals.reload();
      } else setCodeError(showApiError(e));
    } finally {
      setIsSigning(false);
    }
  };

  const confirmDecline = async () => {
    if (state.kind !== 'ready') return;
    if (!reason.trim()) return setReasonError(tt('reasonRequired'));
    setIsDeclining(true);
    try {
      await declineFlow({ roomToken: state.token, reason: reason.trim() });
      setIsDeclineOpen(false);
      void import('@/lib/signing-events.ts').then((m) =>
        m.reportSigningResult({ flowId, partyId, result: 'declined' }),
      );
      notify.success(tt('resultDeclined'), MESSAGE_MS);
      navigate(resultPath('declined'));
    } catch (e) {
      setReasonError(showApiError(e));
    } finally {
      setIsDeclining(false);
    }
  };

  if (state.kind === 'loading') {
    return (
      // The same box as the notice below, so nothing moves when the answer replaces the dots.
      <main style={{ ...NOTICE_BOX, textAlign: 'center', color: '#666' }} aria-busy="true">
        …
      </main>
    );
  }
  if (state.kind === 'error') {
    return (
      <main style={NOTICE_BOX}>
        <Notice type="warning" title={state.text} />
      </main>
    );
  }
  if (state.kind === 'no-room') return <NoRoomNotice style={NOTICE_BOX} ids={{ flowId, partyId }} />;
  const { room: r, token } = state;
  const sender = senderOf(r.flow);
  const viewerHeight = isPhone ? '62vh' : 'calc(100vh - 200px)';
  const myPositions = (pageNumber: number) =>
    r.party.positions.filter((p) => p.documentId === doc?.documentId && p.page === pageNumber);

  const myFields = (pageNumber: number) =>
    roomFields.entries.filter((e) => e.field.documentId === doc?.documentId && e.field.page === pageNumber);
  const renderOverlay = (g: PageGeometry) => [
    doc ? <CommentPins key="comments" comments={comments} documentId={doc.documentId} geometry={g} /> : null,
    ...myFields(g.pageNumber).map((e) => {
      const box = g.toScreen(e.field.rect);
      const isCurrent = currentField?.fieldId === e.field.fieldId;
      const index = roomFields.entries.indexOf(e);
      return (
        <button
          type="button"
          key={`field-${e.field.fieldId}`}
          data-testid={isCurrent ? 'field-box-current' : 'field-box'}
          aria-label={ft('fieldBox', { label: e.field.label })}
          disabled={!hasFieldsToFill}
          onClick={() => goToField(index)}
          style={{
            position: 'absolute',
            ...box,
            padding: 0,
            border: isCurrent ? '3px solid #1677ff' : '1px dashed #1677ff',
            background: isCurrent ? 'rgba(22, 119, 255, 0.18)' : 'rgba(22, 119, 255, 0.06)',
            boxShadow: isCurrent ? '0 0 0 3px rgba(22, 119, 255, 0.25)' : 'none',
            cursor: hasFieldsToFill ? 'pointer' : 'default',
          }}
        />
      );
    }),
    ...myPositions(g.pageNumber).map((p) => {
      const box = g.toScreen(p.rect);
      return (
        <div
          key={`${p.documentId}-${p.page}-${p.rect.join(',')}`}
          className="sign-position"
          data-testid="sign-position"
          style={{
            position: 'absolute',
            ...box,
            border: '2px dashed #ec1c23',
            background: 'rgba(236, 28, 35, 0.08)',
            color: '#ec1c23',
            fontSize: 12,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            pointerEvents: 'none',
          }}
        >
          {tt('signHere')}
        </div>
      );
    }),
  ];

  const partyLabel =
    r.party.kind === 'company'
      ? tt('partyCompany', { company: r.party.companyName ?? '' })
      : (r.party.name ?? '');
  const statusTag = <Badge color={r.canSign ? 'red' : 'default'}>{tt(`party.${r.party.status}`)}</Badge>;

  const panel = (
    <aside
      className="room-panel"
      style={{ padding: 16, background: '#fff', borderRadius: 8, minWidth: 0 }}
      aria-label={tt('yourPart')}
    >
      <h2 style={{ fontSize: 16, marginTop: 0 }}>
        {tt('yourPart')}: {partyLabel} {statusTag}
      </h2>
      {r.party.signedAt ? <p>{tt('signedAt', { time: formatTime(r.party.signedAt, locale) })}</p> : null}
      <RevisedNotice flowId={r.flow.flowId} roomToken={token} />
      {r.canSign && r.onboarding.step !== 'none' ? (
        <Notice type="info" title={ot('roomHint')} style={{ marginBottom: 16 }} />
      ) : null}
      {!r.canSign && r.cannotSignReason ? (
        <Notice type="info" title={r.cannotSignReason} style={{ marginBottom: 16 }} />
      ) : null}
      {hasFieldsToFill ? (
        <FieldGuide fields={roomFields} token={token} index={fieldIndex} onIndex={goToField} />
      ) : !r.canSign && r.party.signedAt ? (
        <FilledValues fields={r.fields} token={token} />
      ) : null}
      {r.canSign && slots ? (
        <>
          {r.needs.companySeal ? (
            <SealSlot
              title={tt('chooseCompanySeal')}
              seals={slots.company}
              value={choice.companySealId}
              token={token}
              onChange={(id) => setChoice((c) => ({ ...c, companySealId: id }))}
            />
          ) : null}
          {r.needs.legalPersonSeal ? (
            <SealSlot
              title={tt('chooseLegalSeal')}
              seals={slots.legalPerson}
              value={choice.legalPersonSealId}
              token={token}
              onChange={(id) => setChoice((c) => ({ ...c, legalPersonSealId: id }))}
            />
          ) : null}
          {r.needs.personSignature ? (
            <SealSlot
              title={tt('choosePersonSeal')}
              seals={slots.person}
              value={choice.isDrawing ? DRAW : choice.personSealId}
              token={token}
              onChange={(id) =>
                setChoice((c) =>
                  id === DRAW ? { ...c, isDrawing: true } : { ...c, isDrawing: false, personSealId: id },
                )
              }
              extra={{ value: DRAW, label: tt('drawSignature') }}
            />
          ) : null}
          {r.needs.personSignature && choice.isDrawing ? (
            <div style={{ marginBottom: 16 }}>
              <Suspense fallback={<div style={{ height: (isPhone ? 180 : 200) + 40 }} />}>
                <SignaturePad
                  ref={pad}
                  height={isPhone ? 180 : 200}
                  // The drawing made before the onboarding steps, shown again (room-drafts.ts).
                  initialStrokes={keptStrokes(partyId)}
                  onStrokesChange={(strokes) => keepStrokes(partyId, strokes)}
                />
              </Suspense>
            </div>
          ) : null}
          {r.needs.companySeal && approvals.chosen ? (
            <SealApprovalBox
              token={token}
              approval={approvals.chosen}
              onChange={(next) => {
                setProblem(null);
                approvals.setOne(next);
              }}
              onRefresh={approvals.reload}
            />
          ) : null}
          {problem ? <Notice type="error" title={problem} style={{ marginBottom: 12 }} /> : null}
        </>
      ) : null}
      <div
        className="room-actions"
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 8,
          // On a phone the buttons stay at the foot of the screen, except while a signature is drawn: the sticky
          // bar then lay over the pad's lower part (issue 11 edge 14); it follows the pad instead.
          ...(isPhone && !(r.needs.personSignature && choice.isDrawing)
            ? { position: 'sticky', bottom: 0, background: '#fff', padding: '8px 0', zIndex: 2 }
            : isPhone
              ? { padding: '8px 0' }
              : {}),
        }}
      >
        <PlainButton
          kind="primary"
          size="large"
          style={{ flex: 1 }}
          disabled={!r.canSign || approvals.isBlocked || (hasFieldsToFill && roomFields.left > 0)}
          aria-describedby={hasFieldsToFill && roomFields.left > 0 ? 'fields-left' : undefined}
          onClick={openSign}
        >
          {tt('sign')}
        </PlainButton>
        <PlainButton
          isDanger
          size="large"
          disabled={!r.canSign}
          onClick={() => {
            setReason('');
            setReasonError(null);
            setIsDeclineOpen(true);
          }}
        >
          {tt('decline')}
        </PlainButton>
        <HandOverButton room={r} roomToken={token} onClosed={() => window.location.reload()} />
        {hasFieldsToFill && roomFields.left > 0 ? (
          <div
            id="fields-left"
            data-testid="fields-left"
            style={{ flexBasis: '100%', color: '#d46b08', fontSize: 13 }}
          >
            {ft('requiredLeft', { n: roomFields.left })}
          </div>
        ) : null}
      </div>
    </aside>
  );

  return (
    <main
      className={isPhone ? 'signing-room h5' : 'signing-room pc'}
      style={{ padding: isPhone ? 8 : 24, background: '#f5f5f5', minHeight: '100vh' }}
    >
      <header style={{ marginBottom: 12 }}>
        <RoomBrandBar />
        <h1 style={{ fontSize: isPhone ? 18 : 22, margin: '0 0 4px', wordBreak: 'break-word' }}>
          {r.flow.title}
        </h1>
        <div style={{ color: '#666', fontSize: 13, display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}>
          <span data-testid="room-sender">
            {sender.company
              ? tt('fromCompany', { name: sender.name, company: sender.company })
              : tt('from', { name: sender.name })}
          </span>
          <span>{tt('deadline', { time: formatTime(r.flow.deadline, locale) })}</span>
          <span>{tt(`status.${r.flow.status}`)}</span>
        </div>
        {r.canSign && isJustVerified ? (
          <Notice
            type="success"
            title={ot('verifiedTitle')}
            description={ot(
              r.needs.personSignature && choice.isDrawing && keptStrokes(partyId).length > 0
                ? 'verifiedKeptDrawing'
                : 'verifiedIntro',
            )}
            style={{ marginTop: 8 }}
          />
        ) : null}
        {r.flow.message ? (
          <Notice type="info" style={{ marginTop: 8 }} title={tt('message')} description={r.flow.message} />
        ) : null}
      </header>
      <div
        style={
          isPhone
            ? { display: 'flex', flexDirection: 'column', gap: 12 }
            : { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 340px', gap: 16, alignItems: 'start' }
        }
      >
        <div style={{ minWidth: 0 }}>
          {r.documents.length > 1 ? (
            <Choice
              label={tt('documents')}
              value={docIndex}
              onChange={setDocIndex}
              options={r.documents.map((d, i) => ({ label: d.name, value: i }))}
            />
          ) : null}
          {positions.length > 0 ? (
            <div
              className="position-nav"
              style={{ display: 'flex', alignItems: 'center', gap: 12, margin: '0 0 8px', flexWrap: 'wrap' }}
            >
              <span data-testid="position-count" aria-live="polite" style={{ color: '#555', fontSize: 14 }}>
                {tt('positionCount', { n: (target?.index ?? 0) + 1, total: positions.length })}
              </span>
              <PlainButton
                data-testid="next-position"
                onClick={() => goToPosition(((target?.index ?? 0) + 1) % positions.length)}
              >
                {tt('nextPosition')}
              </PlainButton>
            </div>
          ) : null}
          {doc ? (
            <Suspense
              fallback={
                <div
                  style={{
                    height: `calc(${viewerHeight} + ${isPhone ? PDF_TOOLBAR_PHONE_PX : PDF_TOOLBAR_PX}px)`,
                  }}
                />
              }
            >
              <PdfViewer
                key={doc.documentId}
                url={url}
                pageSizes={doc.pageSizes}
                label={doc.name}
                height={viewerHeight}
                renderOverlay={renderOverlay}
                scrollToRect={
                  currentField && fieldJump && fieldJump.seq > (target?.seq ?? 0)
                    ? currentField.documentId === doc.documentId
                      ? { page: currentField.page, rect: currentField.rect, seq: fieldJump.seq }
                      : undefined
                    : target && targetPosition?.documentId === doc.documentId
                      ? { page: targetPosition.page, rect: targetPosition.rect, seq: target.seq }
                      : undefined
                }
              />
            </Suspense>
          ) : null}
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12, minWidth: 0 }}>
          {panel}
          <Suspense fallback={null}>
            <RoomComments comments={comments} docs={r.documents} isPhone={isPhone} />
          </Suspense>
        </div>
      </div>
      <Dialog open={isSignOpen} title={tt('confirmTitle')} onClose={closeSign} isBusy={isSigning}>
        {isSigning ? (
          <div role="status" style={{ textAlign: 'center', padding: '16px 0' }}>
            <BusyBar label={tt('signing')} />
            <p>{tt('signing')}</p>
          </div>
        ) : (
          <>
            <IntentPrompt
              intent={room?.party.intent ?? 'sms'}
              token={token}
              phoneMasked={phoneMasked}
              onPhoneMasked={setPhoneMasked}
              value={code}
              onChange={(v) => {
                setCode(v);
                setCodeError(null);
              }}
              error={codeError}
              deviceType={isPhone ? 'h5' : 'pc'}
              returnPath={`${location.pathname}${location.search}`}
            />
            <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
              <PlainButton onClick={closeSign}>{tt('cancel')}</PlainButton>
              <PlainButton kind="primary" onClick={confirmSign}>
                {tt('confirmSign')}
              </PlainButton>
            </div>
          </>
        )}
      </Dialog>
      <Dialog open={isDeclineOpen} title={tt('declineTitle')} onClose={closeDecline} isBusy={isDeclining}>
        <p>{tt('declineIntro')}</p>
        <ReasonField label={tt('reason')} error={reasonError} value={reason} onChange={setReason} />
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
          <PlainButton onClick={closeDecline}>{tt('cancel')}</PlainButton>
          <PlainButton isDanger kind="primary" isBusy={isDeclining} onClick={confirmDecline}>
            {tt('confirmDecline')}
          </PlainButton>
        </div>
      </Dialog>
    </main>
  );
}
