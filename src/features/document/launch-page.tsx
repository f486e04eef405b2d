import Alert from 'antd/es/alert';
import { CcCard } from './cc-card.tsx';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Progress from 'antd/es/progress';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import Steps from 'antd/es/steps';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { deleteDocument, uploadDocument } from '@/api/document.ts';
import { getQuota, launchFlow, type Quota } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import {
  allParties,
  companyParty,
  type DraftIssue,
  draftIssues,
  type LaunchMode,
  newKey,
  newParty,
  toLaunchRequest,
  useLaunchDraft,
  myselfParty,
  placeField,
} from './launch-draft.ts';
import { DeadlineField } from './deadline-field.tsx';
import { PartyCard } from './party-card.tsx';
import { readinessTexts } from './readiness-texts.ts';
import { partyLabel, PositionEditor } from './position-editor.tsx';
import { texts } from './texts.ts';
import { LaunchExtras, LaunchTermSection } from './launch-term.tsx';
import { deleteLaunchDraft } from '@/api/term.ts';

/** The upload limit the server applies by default (UPLOAD_LIMIT_MB); the server's refusal is what counts. */
const UPLOAD_LIMIT_MB = 50;

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** "Remind every N days" choices of the launch screen (0: none); the server accepts 1-30. */
const REMIND_CHOICES = [0, 1, 2, 3, 5, 7, 14, 30];

const STEP_OF_ISSUE: Record<DraftIssue['key'], number> = {
  needTitle: 0,
  needDocument: 0,
  quickOneDocument: 0,
  tooManyDocuments: 0,
  needSigner: 1,
  tooManySteps: 1,
  tooManyParties: 1,
  needName: 1,
  badPhone: 1,
  needCompany: 1,
  needCompanyApplies: 1,
  duplicateSigner: 1,
  deadlinePast: 1,
  needPosition: 2,
  fieldLabel: 1,
  fieldOptions: 1,
  tooManyFields: 1,
  fieldNotPlaced: 2,
  termInvalid: 1,
};

function FilesStep({ mode }: { mode: LaunchMode }) {
  const tt = useTexts(texts);
  const { draft, update } = useLaunchDraft();
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [uploads, setUploads] = useState<{ name: string; fraction: number }[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const isQuick = mode === 'quick';

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setRefusals([]);
    const list = isQuick ? [files[0]] : [...files];
    for (const file of list) {
      setUploads((u) => [...u, { name: file.name, fraction: 0 }]);
      try {
        const info = await uploadDocument(file, (fraction) =>
          setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, fraction } : x))),
        );
        update((d) => ({
          ...d,
          documents: isQuick ? [info] : [...d.documents, info],
          title: d.title || info.name.replace(/\.pdf$/i, ''),
        }));
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        setRefusals((r) => [...r, tt('uploadFailed', { name: file.name, reason })]);
      } finally {
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
    }
    if (input.current) input.current.value = '';
  };

  const remove = async (documentId: string) => {
    update((d) => ({ ...d, documents: d.documents.filter((x) => x.documentId !== documentId) }));
    try {
      await deleteDocument({ documentId });
    } catch {
      // forgetting it here is what matters; an unlaunched upload left on the server harms nobody
    }
  };

  return (
    <section>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        multiple={!isQuick}
        aria-label={isQuick ? tt('chooseFile') : tt('chooseFiles')}
        style={{ display: 'none' }}
        onChange={(e) => void onFiles(e.target.files)}
      />
      <Button type="primary" onClick={() => input.current?.click()}>
        {isQuick ? tt('chooseFile') : tt('chooseFiles')}
      </Button>
      <p style={{ color: '#666', marginTop: 8 }}>{tt('uploadHint', { mb: UPLOAD_LIMIT_MB })}</p>
      {uploads.map((u) => (
        <div key={u.name} role="status">
          {tt('uploading', { name: u.name })}
          <Progress percent={Math.round(u.fraction * 100)} size="small" />
        </div>
      ))}
      {refusals.map((r) => (
        <Alert key={r} type="error" title={r} style={{ marginBottom: 8 }} />
      ))}
      <ul aria-label={tt('stepFiles')} style={{ paddingLeft: 0, listStyle: 'none' }}>
        {draft.documents.map((d) => (
          <li
            key={d.documentId}
            style={{
              display: 'flex',
              gap: 12,
              alignItems: 'center',
              padding: '8px 0',
              borderBottom: '1px solid #eee',
            }}
          >
            <span style={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}>
              {d.name}{' '}
              <span style={{ color: '#999' }}>
                {tt('pagesOf', { pages: d.pages, size: formatSize(d.size) })}
              </span>
            </span>
            <Button size="small" onClick={() => void remove(d.documentId)}>
              {tt('remove')}
            </Button>
          </li>
        ))}
      </ul>
      <label htmlFor={titleId} style={{ display: 'block', margin: '12px 0 4px' }}>
        {tt('flowTitle')}
      </label>
      <Input
        id={titleId}
        value={draft.title}
        maxLength={100}
        onChange={(e) => update((d) => ({ ...d, title: e.target.value }))}
      />
    </section>
  );
}

function SignersStep({
  mode,
  issues,
  showIssues,
}: {
  mode: LaunchMode;
  issues: DraftIssue[];
  showIssues: boolean;
}) {
  const tt = useTexts(texts);
  const rt = useTexts(readinessTexts);
  const { draft, update } = useLaunchDraft();
  const me = useSessionStore((st) => st.userInfo);
  const messageId = useId();
  const remindId = useId();
  const isPastShown = showIssues && issues.some((i) => i.key === 'deadlinePast');
  const setStepParties = (
    stepIndex: number,
    change: (ps: (typeof draft.steps)[number]['parties']) => (typeof draft.steps)[number]['parties'],
  ) =>
    update((d) => ({
      ...d,
      steps: d.steps.map((s, i) => (i === stepIndex ? { ...s, parties: change(s.parties) } : s)),
    }));

  return (
    <section>
      {mode === 'regular' ? <p style={{ color: '#666' }}>{tt('stepHint')}</p> : null}
      {draft.steps.map((step, si) => (
        <div key={step.key} style={{ marginBottom: 16 }}>
          {mode === 'regular' ? (
            <h3 style={{ display: 'flex', alignItems: 'center', gap: 12, fontSize: 15 }}>
              {tt('step', { n: si + 1 })}
              {draft.steps.length > 1 ? (
                <Button
                  size="small"
                  type="link"
                  danger
                  onClick={() => update((d) => ({ ...d, steps: d.steps.filter((_, i) => i !== si) }))}
                >
                  {tt('removeStep')}
                </Button>
              ) : null}
            </h3>
          ) : null}
          {step.parties.map((p, pi) => (
            <PartyCard
              key={p.key}
              party={p}
              index={allParties({ steps: draft.steps.slice(0, si) }).length + pi}
              issues={issues}
              showIssues={showIssues}
              onChange={(next) => setStepParties(si, (ps) => ps.map((x) => (x.key === p.key ? next : x)))}
              onRemove={
                step.parties.length > 1 || draft.steps.length > 1
                  ? () => setStepParties(si, (ps) => ps.filter((x) => x.key !== p.key))
                  : undefined
              }
            />
          ))}
          <div style={{ display: 'flex', gap: 8 }}>
            <Button onClick={() => setStepParties(si, (ps) => [...ps, newParty('person')])}>
              {tt('addParty')}
            </Button>
            <Button onClick={() => setStepParties(si, (ps) => [...ps, companyParty(me)])}>
              {tt('addCompany')}
            </Button>
            {me ? (
              <Button onClick={() => setStepParties(si, (ps) => [...ps, myselfParty(me)])}>
                {rt('addMyself')}
              </Button>
            ) : null}
          </div>
        </div>
      ))}
      {mode === 'regular' ? (
        <>
          <Button
            type="dashed"
            block
            onClick={() =>
              update((d) => ({ ...d, steps: [...d.steps, { key: newKey('s'), parties: [newParty()] }] }))
            }
          >
            {tt('addStep')}
          </Button>
          <DeadlineField mode={mode} isPastShown={isPastShown} />
          <label htmlFor={remindId} style={{ display: 'block', margin: '16px 0 4px' }}>
            {tt('remindEvery')}
          </label>
          <Select
            id={remindId}
            style={{ width: 240 }}
            value={draft.remindEveryDays ?? 0}
            onChange={(days: number) => update((d) => ({ ...d, remindEveryDays: days || null }))}
            options={REMIND_CHOICES.map((days) => ({
              value: days,
              label: days ? tt('remindEveryDays', { n: days }) : tt('remindNever'),
            }))}
          />
          <div style={{ color: '#999', fontSize: 12 }}>{tt('remindHint')}</div>
          <label htmlFor={messageId} style={{ display: 'block', margin: '16px 0 4px' }}>
            {tt('message')}
          </label>
          <Input.TextArea
            id={messageId}
            rows={3}
            maxLength={500}
            value={draft.message}
            onChange={(e) => update((d) => ({ ...d, message: e.target.value }))}
          />
        </>
      ) : (
        <DeadlineField mode={mode} isPastShown={isPastShown} />
      )}
      <CcCard />
      <LaunchTermSection />
    </section>
  );
}

/**
 * Launching: /manage/home/quicklyFileUpload (one file, signers, positions, send) and /manage/home/fileUpload
 * (several files, signers in steps with parallel parties, deadline, message). The draft lives in session
 * storage, shared with the position screen /pc/v1/outsignRoom.
 */
export default function LaunchPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const mode: LaunchMode = useLocation().pathname === paths.manageFileUpload ? 'regular' : 'quick';
  const [search] = useSearchParams();
  const { draft, begin, update, reset } = useLaunchDraft();
  const [current, setCurrent] = useState(() => Number(search.get('step') ?? 0) || 0);
  const [showIssues, setShowIssues] = useState(false);
  const [quota, setQuota] = useState<Quota | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ flowId: string; codes: string[]; isHeld: boolean } | null>(null);

  useEffect(() => begin(mode), [begin, mode]);
  useEffect(() => {
    getQuota({})
      .then(setQuota)
      .catch(() => setQuota(null));
  }, []);

  const issues = useMemo(() => draftIssues(draft), [draft]);
  const stepIssues = (step: number) => issues.filter((i) => STEP_OF_ISSUE[i.key] === step);
  const isOutOfQuota = quota !== null && quota.remaining <= 0;

  const goNext = () => {
    if (stepIssues(current).length > 0) return setShowIssues(true);
    setShowIssues(false);
    setCurrent((c) => c + 1);
  };

  const send = async () => {
    if (issues.length > 0) return setShowIssues(true);
    setIsSending(true);
    setSendError(null);
    try {
      const answer = await launchFlow(toLaunchRequest(draft));
      if (draft.serverDraftId) deleteLaunchDraft({ draftId: draft.serverDraftId }).catch(() => {});
      setSent({
        flowId: answer.flowId,
        codes: answer.verificationCodes,
        isHeld: answer.awaitingApproval === true,
      });
      reset();
      getQuota({}).then(setQuota, () => {});
    } catch (e) {
      setSendError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setIsSending(false);
    }
  };

  if (sent) {
    return (
      <Result
        status={sent.isHeld ? 'info' : 'success'}
        title={tt(sent.isHeld ? 'sentForApproval' : 'sent')}
        subTitle={sent.codes.map((c) => tt('verificationCode', { code: c })).join(' · ')}
        extra={[
          <Button key="list" type="primary" onClick={() => navigate(`${paths.signList}?tab=launched`)}>
            {tt('toList')}
          </Button>,
          <Button
            key="again"
            onClick={() => {
              setSent(null);
              setCurrent(0);
            }}
          >
            {tt('again')}
          </Button>,
        ]}
      />
    );
  }

  const parties = allParties(draft);
  const visibleIssues = showIssues ? stepIssues(current) : [];
  /** An issue's line; one about a signer names them (issue 11 edge 6: which box is missing?). */
  const issueText = (i: DraftIssue) => {
    const index = parties.findIndex((p) => p.key === i.partyKey);
    const party = parties[index];
    if (!party) return tt(`issue.${i.key}`);
    const who = partyLabel(party, index);
    if (i.key === 'needPosition') return tt('issue.needPositionOf', { who });
    return tt('issueOf', { who, issue: tt(`issue.${i.key}`) });
  };
  const stepTitles = [tt('stepFiles'), tt('stepSigners'), tt('stepPositions'), tt('stepReview')];

  return (
    <main className="launch-page" style={{ padding: 16, maxWidth: 1200 }}>
      <h1 style={{ fontSize: 20 }}>{mode === 'quick' ? tt('quickTitle') : tt('regularTitle')}</h1>
      <LaunchExtras mode={mode} />
      {quota ? (
        isOutOfQuota ? (
          <Alert type="error" title={tt('quotaNone')} style={{ marginBottom: 12 }} />
        ) : (
          <div data-testid="quota" style={{ color: '#666', marginBottom: 12 }}>
            {tt('quota', { remaining: quota.remaining, total: quota.total })}
          </div>
        )
      ) : null}
      <Steps
        current={current}
        items={stepTitles.map((title) => ({ title }))}
        style={{ marginBottom: 16 }}
        size="small"
      />
      {current === 0 ? <FilesStep mode={mode} /> : null}
      {current === 1 ? <SignersStep mode={mode} issues={issues} showIssues={showIssues} /> : null}
      {current === 2 ? (
        <>
          <PositionEditor
            draft={draft}
            onChange={(placements) => update((d) => ({ ...d, placements }))}
            onFieldPlaced={(party, field, at) => update((d) => placeField(d, party, field, at))}
          />
          <Link to={paths.pcOutsignRoom} style={{ display: 'inline-block', marginTop: 8 }}>
            {tt('openPositionScreen')}
          </Link>
        </>
      ) : null}
      {current === 3 ? (
        <section aria-label={tt('stepReview')}>
          <h2 style={{ fontSize: 16 }}>{draft.title}</h2>
          <p>
            {tt('review', {
              docs: draft.documents.length,
              parties: parties.length,
              steps: draft.steps.length,
            })}
          </p>
          <ul>
            {draft.documents.map((d) => (
              <li key={d.documentId}>{d.name}</li>
            ))}
          </ul>
          <ul>
            {draft.steps.flatMap((s, si) =>
              s.parties.map((p) => (
                <li key={p.key}>
                  {tt('summaryParty', {
                    step: si + 1,
                    who: `${partyLabel(p, parties.indexOf(p))} ${p.phone}`,
                  })}
                </li>
              )),
            )}
          </ul>
          {issues.length > 0 ? (
            <Alert
              type="warning"
              title={tt('fixFirst')}
              description={
                <ul style={{ margin: 0 }}>
                  {[...new Set(issues.map(issueText))].map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
          {sendError ? <Alert type="error" title={sendError} style={{ marginTop: 12 }} /> : null}
        </section>
      ) : null}
      {visibleIssues.length > 0 && current !== 1 ? (
        <Alert
          type="error"
          style={{ marginTop: 12 }}
          title={[...new Set(visibleIssues.map(issueText))].join('；')}
        />
      ) : null}
      <div style={{ display: 'flex', gap: 8, marginTop: 16 }}>
        {current > 0 ? <Button onClick={() => setCurrent((c) => c - 1)}>{tt('back')}</Button> : null}
        {current < 3 ? (
          <Button type="primary" onClick={goNext}>
            {tt('next')}
          </Button>
        ) : (
          <Button type="primary" loading={isSending} disabled={isOutOfQuota} onClick={send}>
            {tt('send')}
          </Button>
        )}
      </div>
    </main>
  );
}
