import Alert from 'antd/es/alert';
import { CcSection } from '@/components/cc/cc-section.tsx';
import { type CcDraft, ccDraftProblem, ccRequest } from '@/components/cc/cc-texts.ts';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Result from 'antd/es/result';
import { useEffect, useId, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { documentUrl } from '@/api/document.ts';
import { ApiError } from '@/api/http.ts';
import { getTemplateDraft, launchTemplateFlow, type TemplateDraft } from '@/api/template.ts';
import { TemplateTermSection, useTemplateTerm } from './template-term.tsx';
import { paths } from '@/config/paths.ts';
import { type PageGeometry, PdfViewer } from '@/components/pdf-viewer.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { MovableBox, ROLE_COLORS } from './movable-box.tsx';
import { texts } from './texts.ts';

/** /manage/home/templateSign?draftId=: the filled file with the signing positions, the signers, and Send. */
export default function TemplateSignPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const draftId = search.get('draftId') ?? '';
  const term = useTemplateTerm(search.get('renew'));
  const deadlineId = useId();
  const messageId = useId();
  const [draft, setDraft] = useState<TemplateDraft | null>(null);
  const [deadline, setDeadline] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [sent, setSent] = useState<string[] | null>(null);
  const [isHeld, setIsHeld] = useState(false);
  const [cc, setCc] = useState<CcDraft[]>([]);
  const url = useMemo(() => (draft ? documentUrl(draft.document.documentId) : ''), [draft]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tt is a new function each render; loading once per id is the point
  useEffect(() => {
    if (!draftId) return;
    getTemplateDraft({ draftId })
      .then(setDraft)
      .catch((e) => setProblem(tt('loadFailed', { reason: e instanceof Error ? e.message : String(e) })));
  }, [draftId]);

  if (sent)
    return (
      <Result
        status="success"
        title={tt(isHeld ? 'sentForApproval' : 'sent')}
        subTitle={sent.map((c) => tt('verificationCode', { code: c })).join(' · ')}
        extra={[
          <Button key="list" type="primary" onClick={() => navigate(`${paths.signList}?tab=launched`)}>
            {tt('toList')}
          </Button>,
        ]}
      />
    );
  if (!draft) return problem ? <Alert type="error" showIcon title={problem} style={{ margin: 16 }} /> : null;

  const colorOf = (key: string) =>
    ROLE_COLORS[
      Math.max(
        0,
        draft.roles.findIndex((r) => r.key === key),
      ) % ROLE_COLORS.length
    ];
  const overlay = (g: PageGeometry) =>
    draft.positions
      .filter((p) => p.page === g.pageNumber)
      .map((p) => (
        <MovableBox
          key={p.roleKey}
          testId="position-box"
          label={tt('signingPosition', { name: draft.roles.find((r) => r.key === p.roleKey)?.name ?? '' })}
          color={colorOf(p.roleKey)}
          box={g.toScreen(p.rect)}
          geometry={g}
        />
      ));

  const partyText = (roleKey: string) => {
    const a = draft.assignments.find((x) => x.roleKey === roleKey);
    if (!a) return '';
    const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
    const who =
      a.kind === 'person'
        ? `${a.name} ${masked(a.phone)}`
        : `${a.companyName ?? ''} · ${a.operatorName ?? ''} ${masked(a.operatorPhone)}`;
    return `${who} · ${tt(`intent.${a.intent ?? 'sms'}`)}`;
  };

  const send = async () => {
    setProblem(null);
    setIsSending(true);
    try {
      const res = await launchTemplateFlow({
        draftId,
        deadline: deadline ? new Date(`${deadline}T23:59:59`).toISOString() : undefined,
        message: message.trim() || undefined,
        cc: ccRequest(cc),
        ...term.request,
      });
      setIsHeld(res.awaitingApproval === true);
      setSent(res.verificationCodes);
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
    } finally {
      setIsSending(false);
    }
  };

  const isLaunched = draft.flowId !== null;
  return (
    <main className="template-sign" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>
        {tt('reviewTitle')} · {draft.title}
      </h1>
      <p style={{ color: '#666' }}>{tt('reviewIntro')}</p>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(260px, 340px)', gap: 16 }}>
        <PdfViewer
          url={url}
          pageSizes={draft.document.pageSizes}
          label={draft.document.name}
          height="75vh"
          renderOverlay={overlay}
        />
        <aside style={{ display: 'grid', gap: 8, alignContent: 'start' }}>
          <h2 style={{ fontSize: 16, margin: 0 }}>{tt('partiesTitle')}</h2>
          <ol data-testid="review-parties" style={{ paddingLeft: 18, margin: 0 }}>
            {[...draft.roles]
              .sort((a, b) => a.stepIndex - b.stepIndex)
              .map((r) => (
                <li key={r.key}>
                  {tt('stepN', { n: r.stepIndex + 1 })} · {r.name}: {partyText(r.key)}
                </li>
              ))}
          </ol>
          <label htmlFor={deadlineId}>{tt('deadline')}</label>
          <Input id={deadlineId} type="date" value={deadline} onChange={(e) => setDeadline(e.target.value)} />
          <label htmlFor={messageId}>{tt('message')}</label>
          <Input.TextArea
            id={messageId}
            rows={3}
            maxLength={500}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          {isLaunched ? null : <CcSection list={cc} onChange={setCc} />}
          <TemplateTermSection term={term.term} setTerm={term.setTerm} />
          {isLaunched ? <Alert type="info" title={tt('alreadySent')} /> : null}
          {problem ? <Alert type="error" showIcon title={problem} /> : null}
          <Button
            type="primary"
            loading={isSending}
            disabled={isLaunched || ccDraftProblem(cc) !== null || !term.isValid}
            onClick={send}
          >
            {tt('send')}
          </Button>
          <Button
            disabled={isLaunched}
            onClick={() => navigate(`${paths.manageTempTemplateDetail}?draftId=${draftId}`)}
          >
            {tt('changeValues')}
          </Button>
        </aside>
      </div>
    </main>
  );
}
