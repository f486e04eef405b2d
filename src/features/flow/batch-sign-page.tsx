// Batch signing (issue 28): /batchSign and /mobile/batchSign. Choose among the flows waiting for the user
// (filters, select all up to 500), review (how many, the seal chosen once, any flow can be opened), one intent
// check for the whole batch (the strictest the flows need), then the progress (polled; the batch id is in the
// address, so a reload comes back to it) and each flow's result with its reason.
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import Popconfirm from 'antd/es/popconfirm';
import Progress from 'antd/es/progress';
import Select from 'antd/es/select';
import Steps from 'antd/es/steps';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  type BatchSignable,
  getSignBatch,
  listBatchSignable,
  MAX_BATCH_PARTIES,
  type PreparedBatch,
  prepareSignBatch,
  type SealChoice,
  type SignBatch,
  sendSignBatchCode,
  startSignBatch,
  startSignBatchFace,
} from '@/api/batch.ts';
import { ApiError, showApiError } from '@/api/http.ts';
import { getUserCertSealList } from '@/api/seal.ts';
import { IntentCodeRow } from '@/components/intent-code-row.tsx';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { formatTime } from '@/lib/format-time.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { batchTexts } from './batch-texts.ts';
import { FlowDetailDrawer } from './flow-detail.tsx';
import { DateRangeFields } from './date-range-fields.tsx';
import { emptyFilters, type ListFilters, listRequest } from './list-model.ts';

type Filters = ListFilters & { sender: string; templateId?: string };
const noFilters = (): Filters => ({ ...emptyFilters(), sender: '' });

/** The templates of the flows listed, for the template filter (flows launched without a template aside). */
function templatesOf(rows: BatchSignable[]): { value: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const r of rows) if (r.templateId && r.templateName) seen.set(r.templateId, r.templateName);
  return [...seen].map(([value, label]) => ({ value, label }));
}
type Seal = { id: string; name: string; sealType: number | null; isUsable: boolean };
const POLL_MS = 2000;
const LEGAL_PERSON_SEAL = 101;

/** Which seal slots the chosen flows need. */
const needsOf = (rows: BatchSignable[]) => ({
  company: rows.some((r) => r.applies.companySealType != null || r.applies.anyCompanySeal),
  legalPerson: rows.some((r) => r.applies.legalPersonSeal),
  person: rows.some((r) => r.partyKind === 'person' || r.applies.personSignature),
});

function SealSelect(props: {
  label: string;
  seals: Seal[];
  value: string | undefined;
  onChange: (id: string) => void;
}) {
  const tt = useTexts(batchTexts);
  const id = useId();
  return (
    <div style={{ margin: '12px 0', maxWidth: 360 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {props.label}
      </label>
      {props.seals.length === 0 ? (
        <Alert type="warning" title={tt('noSeal')} />
      ) : (
        <Select
          id={id}
          aria-label={props.label}
          style={{ width: '100%' }}
          placeholder={tt('chooseSeal')}
          value={props.value}
          onChange={props.onChange}
          options={props.seals.map((s) => ({ value: s.id, label: s.name }))}
        />
      )}
    </div>
  );
}

/** Step 1: the flows waiting for the user, filtered, with checkboxes. */
function ChooseStep(props: {
  rows: BatchSignable[] | null;
  /** The templates the unfiltered list showed. */
  templates: { value: string; label: string }[];
  selected: Set<string>;
  setSelected: (s: Set<string>) => void;
  onSearch: (f: Filters) => void;
  onOpen: (flowId: string) => void;
  onNext: () => void;
}) {
  const tt = useTexts(batchTexts);
  const locale = useI18nStore((s) => s.locale);
  const [f, setF] = useState<Filters>(noFilters);
  const ids = { keyword: useId(), sender: useId(), template: useId() };
  const rows = props.rows ?? [];
  const all = rows.slice(0, MAX_BATCH_PARTIES);
  const isAll = all.length > 0 && all.every((r) => props.selected.has(r.partyId));
  const toggle = (partyId: string, on: boolean) => {
    const next = new Set(props.selected);
    if (on && next.size < MAX_BATCH_PARTIES) next.add(partyId);
    else next.delete(partyId);
    props.setSelected(next);
  };
  return (
    <section>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(f);
        }}
        style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-end', marginBottom: 12 }}
      >
        <div style={{ flex: '1 1 140px' }}>
          <label htmlFor={ids.keyword} style={{ display: 'block', fontSize: 12, color: '#666' }}>
            {tt('keyword')}
          </label>
          <Input
            id={ids.keyword}
            value={f.keyword}
            maxLength={50}
            onChange={(e) => setF({ ...f, keyword: e.target.value })}
          />
        </div>
        <div style={{ flex: '1 1 120px' }}>
          <label htmlFor={ids.sender} style={{ display: 'block', fontSize: 12, color: '#666' }}>
            {tt('sender')}
          </label>
          <Input
            id={ids.sender}
            value={f.sender}
            maxLength={50}
            onChange={(e) => setF({ ...f, sender: e.target.value })}
          />
        </div>
        {props.templates.length > 0 || f.templateId ? (
          <div style={{ flex: '1 1 160px' }}>
            <label htmlFor={ids.template} style={{ display: 'block', fontSize: 12, color: '#666' }}>
              {tt('template')}
            </label>
            <Select
              id={ids.template}
              aria-label={tt('template')}
              allowClear
              style={{ width: '100%' }}
              placeholder={tt('anyTemplate')}
              value={f.templateId}
              onChange={(v: string | undefined) => setF({ ...f, templateId: v })}
              options={props.templates}
            />
          </div>
        ) : null}
        <DateRangeFields
          value={f}
          onChange={(d) => setF({ ...f, ...d })}
          labels={{ from: tt('from'), to: tt('to') }}
        />
        <Button type="primary" htmlType="submit">
          {tt('search')}
        </Button>
        <Button
          onClick={() => {
            const empty = noFilters();
            setF(empty);
            props.onSearch(empty);
          }}
        >
          {tt('reset')}
        </Button>
      </form>
      {props.rows && rows.length === 0 ? <Empty description={tt('empty')} /> : null}
      {rows.length > 0 ? (
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            gap: 8,
            marginBottom: 8,
          }}
        >
          <Checkbox
            checked={isAll}
            onChange={(e) => props.setSelected(new Set(e.target.checked ? all.map((r) => r.partyId) : []))}
          >
            {tt('selectAll', { n: all.length })}
          </Checkbox>
          <span role="status">{tt('selected', { n: props.selected.size })}</span>
        </div>
      ) : null}
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((r) => (
          <li key={r.partyId}>
            <article
              aria-label={r.title}
              style={{
                background: '#fff',
                border: '1px solid #eee',
                borderRadius: 8,
                padding: 12,
                marginBottom: 8,
                display: 'flex',
                gap: 8,
                alignItems: 'flex-start',
              }}
            >
              <Checkbox
                aria-label={r.title}
                checked={props.selected.has(r.partyId)}
                onChange={(e) => toggle(r.partyId, e.target.checked)}
              />
              <div style={{ flex: 1, minWidth: 0 }}>
                <div style={{ fontWeight: 600, wordBreak: 'break-word' }}>
                  {r.title} <Tag>{tt(`intent.${r.intent}`)}</Tag>
                </div>
                <div
                  style={{ color: '#666', fontSize: 12, display: 'flex', flexWrap: 'wrap', gap: '2px 12px' }}
                >
                  <span>{tt('from_', { name: r.initiatorCompanyName ?? r.initiatorName ?? '' })}</span>
                  <span>{tt('deadline', { time: formatTime(r.deadline, locale) })}</span>
                </div>
              </div>
              <Button size="small" onClick={() => props.onOpen(r.flowId)}>
                {tt('view')}
              </Button>
            </article>
          </li>
        ))}
      </ul>
      <Button type="primary" disabled={props.selected.size === 0} onClick={props.onNext}>
        {tt('next')}
      </Button>
    </section>
  );
}

/** "Sign N flows", after a confirmation: nothing is signed until the user says so twice. */
function SignAll(props: { n: number; isBusy: boolean; disabled?: boolean; onConfirm: () => void }) {
  const tt = useTexts(batchTexts);
  return (
    <Popconfirm
      title={tt('confirmTitle')}
      description={tt('confirmText')}
      okText={tt('ok')}
      cancelText={tt('cancel')}
      onConfirm={props.onConfirm}
      disabled={props.disabled}
    >
      <Button type="primary" loading={props.isBusy} disabled={props.disabled}>
        {tt('signAll', { n: props.n })}
      </Button>
    </Popconfirm>
  );
}

/**
 * Opens the identity provider's face check of the user for a prepared batch; it comes back to this page with
 * `?faceBatch=<id>` (FaceReturn), where the batch is started with the check passed.
 */
function FaceStart(props: { batchId: string }) {
  const tt = useTexts(batchTexts);
  const { pathname } = useLocation();
  const [isBusy, setIsBusy] = useState(false);
  const start = async () => {
    setIsBusy(true);
    try {
      const started = await startSignBatchFace({
        batchId: props.batchId,
        deviceType: pathname === paths.mobileBatchSign ? 'h5' : 'pc',
        signUrl: `${pathname}?faceBatch=${encodeURIComponent(props.batchId)}`,
      });
      browser.assign(started.url);
    } catch (e) {
      showApiError(e);
      setIsBusy(false);
    }
  };
  return (
    <Button type="primary" loading={isBusy} onClick={() => void start()}>
      {tt('startFace')}
    </Button>
  );
}

/** Back from the face check (`?faceBatch=<id>`): the prepared batch is started with the check passed. */
function FaceReturn(props: { batchId: string; onStarted: (batch: SignBatch) => void }) {
  const tt = useTexts(batchTexts);
  const [batch, setBatch] = useState<SignBatch | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const { batchId, onStarted } = props;
  useEffect(() => {
    getSignBatch({ batchId })
      .then((b) => (b.status === 'prepared' ? setBatch(b) : onStarted(b)))
      .catch((e: unknown) => setProblem(showApiError(e)));
  }, [batchId, onStarted]);
  const start = async () => {
    setIsBusy(true);
    setProblem(null);
    try {
      onStarted(await startSignBatch({ batchId }));
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    } finally {
      setIsBusy(false);
    }
  };
  if (!batch) return problem ? <Alert type="error" title={problem} /> : null;
  return (
    <section>
      <p>{tt('faceBack', { n: batch.total })}</p>
      {problem ? <Alert type="error" title={problem} style={{ marginBottom: 12 }} /> : null}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <SignAll n={batch.total} isBusy={isBusy} onConfirm={() => void start()} />
        {problem ? <FaceStart batchId={batchId} /> : null}
      </div>
    </section>
  );
}

/** Step 2 and 3: the review (count, seals chosen once), then the one intent check and the start. */
function ConfirmStep(props: {
  chosen: BatchSignable[];
  onOpen: (flowId: string) => void;
  onBack: () => void;
  onStarted: (batch: SignBatch) => void;
}) {
  const tt = useTexts(batchTexts);
  const codeId = useId();
  const passwordId = useId();
  const [seals, setSeals] = useState<Seal[]>([]);
  const [choice, setChoice] = useState<SealChoice>({});
  const [prepared, setPrepared] = useState<PreparedBatch | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const needs = needsOf(props.chosen);
  useEffect(() => {
    getUserCertSealList({})
      .then((r) => setSeals(r.seals.filter((s) => s.isUsable)))
      .catch(showApiError);
  }, []);
  const companySeals = seals.filter((s) => s.sealType !== null && s.sealType !== LEGAL_PERSON_SEAL);
  const legalSeals = seals.filter((s) => s.sealType === LEGAL_PERSON_SEAL);
  const personSeals = seals.filter((s) => s.sealType === null);
  const isChosen =
    (!needs.company || choice.companySealId) &&
    (!needs.legalPerson || choice.legalPersonSealId) &&
    (!needs.person || props.chosen.every((r) => r.partyKind === 'company') || choice.personSealId);

  const prepare = async () => {
    setIsBusy(true);
    try {
      setPrepared(
        await prepareSignBatch({
          partyIds: props.chosen.map((r) => r.partyId),
          sealChoice: choice,
          sendCode: false,
        }),
      );
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };
  const start = async () => {
    if (!prepared) return;
    setIsBusy(true);
    try {
      props.onStarted(
        await startSignBatch({
          batchId: prepared.batchId,
          ...(prepared.intent === 'sms' ? { smsCode: code } : { signingPassword: password }),
        }),
      );
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };

  if (!prepared)
    return (
      <section>
        <p>{tt('reviewCount', { n: props.chosen.length })}</p>
        <ul style={{ paddingLeft: 18, maxHeight: 240, overflow: 'auto' }}>
          {props.chosen.map((r) => (
            <li key={r.partyId} style={{ wordBreak: 'break-word' }}>
              {r.title}{' '}
              <Button type="link" size="small" onClick={() => props.onOpen(r.flowId)}>
                {tt('view')}
              </Button>
            </li>
          ))}
        </ul>
        {needs.company ? (
          <SealSelect
            label={tt('companySeal')}
            seals={companySeals}
            value={choice.companySealId}
            onChange={(id) => setChoice({ ...choice, companySealId: id })}
          />
        ) : null}
        {needs.legalPerson ? (
          <SealSelect
            label={tt('legalPersonSeal')}
            seals={legalSeals}
            value={choice.legalPersonSealId}
            onChange={(id) => setChoice({ ...choice, legalPersonSealId: id })}
          />
        ) : null}
        {needs.person && props.chosen.some((r) => r.partyKind === 'person') ? (
          <SealSelect
            label={tt('personSeal')}
            seals={personSeals}
            value={choice.personSealId}
            onChange={(id) => setChoice({ ...choice, personSealId: id })}
          />
        ) : null}
        <p style={{ color: '#888', fontSize: 13 }}>{tt('applied')}</p>
        <div style={{ display: 'flex', gap: 8 }}>
          <Button onClick={props.onBack}>{tt('previous')}</Button>
          <Button type="primary" disabled={!isChosen} loading={isBusy} onClick={() => void prepare()}>
            {tt('next')}
          </Button>
        </div>
      </section>
    );

  const check = tt(`intent.${prepared.intent}`);
  return (
    <section>
      <p>{tt('intentIs', { check })}</p>
      {prepared.intent === 'face' ? <p>{tt('faceIntro')}</p> : null}
      {prepared.intent === 'sms' ? (
        <>
          <IntentCodeRow
            id={codeId}
            value={code}
            onChange={setCode}
            send={() => sendSignBatchCode({ batchId: prepared.batchId })}
            onSent={setSentTo}
            texts={{
              smsCode: tt('smsCode'),
              getCode: tt('getCode'),
              resend: (n) => tt('resend', { n }),
              hint: tt('codeHint'),
            }}
          />
          {sentTo ? <div role="status">{tt('codeSent', { phone: sentTo })}</div> : null}
        </>
      ) : null}
      {prepared.intent === 'password' ? (
        <div style={{ margin: '12px 0', maxWidth: 360 }}>
          <label htmlFor={passwordId} style={{ display: 'block', marginBottom: 6 }}>
            {tt('password')}
          </label>
          <Input.Password
            id={passwordId}
            value={password}
            maxLength={64}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
      ) : null}
      <div style={{ display: 'flex', gap: 8, marginTop: 12 }}>
        <Button onClick={() => setPrepared(null)}>{tt('previous')}</Button>
        {prepared.intent === 'face' ? <FaceStart batchId={prepared.batchId} /> : null}
        {prepared.intent === 'face' ? null : (
          <SignAll
            n={prepared.total}
            isBusy={isBusy}
            disabled={prepared.intent === 'sms' ? code.length !== 6 : !password}
            onConfirm={() => void start()}
          />
        )}
      </div>
    </section>
  );
}

/** Step 4: progress, polled until done, then each flow's result with its reason. */
function ResultsStep(props: { batchId: string; onOpen: (flowId: string) => void; onAgain: () => void }) {
  const tt = useTexts(batchTexts);
  const [batch, setBatch] = useState<SignBatch | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setBatch(await getSignBatch({ batchId: props.batchId }));
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  }, [props.batchId]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (batch?.status === 'done' || problem) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [batch?.status, problem, load]);
  if (problem) return <Alert type="error" title={problem} />;
  if (!batch) return null;
  const finished = batch.signed + batch.failed;
  const isDone = batch.status === 'done';
  return (
    <section>
      <Progress
        percent={Math.round((finished / Math.max(1, batch.total)) * 100)}
        status={isDone ? undefined : 'active'}
      />
      <p role="status">
        {isDone
          ? tt('done', { signed: batch.signed, failed: batch.failed })
          : `${tt('progress', { done: finished, total: batch.total })} · ${tt('running')}`}
      </p>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {batch.items.map((it) => (
          <li key={it.partyId}>
            <article
              aria-label={it.title}
              style={{
                background: '#fff',
                border: '1px solid #eee',
                borderRadius: 8,
                padding: 10,
                marginBottom: 6,
                display: 'flex',
                gap: 8,
                alignItems: 'center',
                flexWrap: 'wrap',
              }}
            >
              <span style={{ flex: '1 1 160px', wordBreak: 'break-word' }}>{it.title}</span>
              <Tag color={it.status === 'signed' ? 'green' : it.status === 'failed' ? 'red' : undefined}>
                {tt(`item.${it.status}`)}
              </Tag>
              {it.error ? <span style={{ color: '#cf1322', flexBasis: '100%' }}>{it.error.msg}</span> : null}
              <Button size="small" onClick={() => props.onOpen(it.flowId)}>
                {tt('view')}
              </Button>
            </article>
          </li>
        ))}
      </ul>
      {isDone ? (
        <Button type="primary" onClick={props.onAgain}>
          {tt('again')}
        </Button>
      ) : null}
    </section>
  );
}

export default function BatchSignPage() {
  const tt = useTexts(batchTexts);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isPhone = pathname === paths.mobileBatchSign;
  const [search, setSearch] = useSearchParams();
  const batchId = search.get('batch');
  const faceBatchId = search.get('faceBatch');
  const onStarted = useCallback((b: SignBatch) => setSearch({ batch: b.batchId }), [setSearch]);
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  const [rows, setRows] = useState<BatchSignable[] | null>(null);
  const [templates, setTemplates] = useState<{ value: string; label: string }[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [step, setStep] = useState<'choose' | 'confirm'>('choose');
  const [detail, setDetail] = useState<string | null>(null);

  const load = useCallback(async (f: Filters) => {
    try {
      const base = listRequest(f, 1, MAX_BATCH_PARTIES);
      const res = await listBatchSignable({
        ...base,
        ...(f.sender.trim() ? { sender: f.sender.trim() } : {}),
        ...(f.templateId ? { templateId: f.templateId } : {}),
      });
      setRows(res.list);
      if (!f.templateId) setTemplates(templatesOf(res.list));
    } catch (e) {
      showApiError(e);
    }
  }, []);
  useEffect(() => {
    if (isLoggedIn && !batchId && !faceBatchId) void load(noFilters());
  }, [isLoggedIn, batchId, faceBatchId, load]);

  const listPath = isPhone ? paths.mobileSignList : paths.signList;
  const current = batchId ? 3 : faceBatchId ? 2 : step === 'choose' ? 0 : 1;
  return (
    <main style={{ padding: isPhone ? 8 : 24, maxWidth: 1100, margin: '0 auto' }}>
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 8,
          flexWrap: 'wrap',
        }}
      >
        <h1 style={{ fontSize: 20, margin: '0 0 12px' }}>{tt('title')}</h1>
        <Button onClick={() => navigate(listPath)}>{tt('back')}</Button>
      </div>
      <Steps
        size="small"
        current={current}
        orientation={isPhone ? 'vertical' : 'horizontal'}
        style={{ marginBottom: 16 }}
        items={[
          { title: tt('stepChoose') },
          { title: tt('stepReview') },
          { title: tt('stepConfirm') },
          { title: tt('stepResults') },
        ]}
      />
      {batchId ? (
        <ResultsStep
          batchId={batchId}
          onOpen={setDetail}
          onAgain={() => {
            setSelected(new Set());
            setStep('choose');
            setSearch({}, { replace: true });
          }}
        />
      ) : faceBatchId ? (
        isLoggedIn ? (
          <FaceReturn batchId={faceBatchId} onStarted={onStarted} />
        ) : null
      ) : step === 'choose' ? (
        <ChooseStep
          rows={rows}
          templates={templates}
          selected={selected}
          setSelected={setSelected}
          onSearch={(f) => void load(f)}
          onOpen={setDetail}
          onNext={() => setStep('confirm')}
        />
      ) : (
        <ConfirmStep
          chosen={(rows ?? []).filter((r) => selected.has(r.partyId))}
          onOpen={setDetail}
          onBack={() => setStep('choose')}
          onStarted={onStarted}
        />
      )}
      <FlowDetailDrawer flowId={detail} onClose={() => setDetail(null)} onChanged={() => undefined} />
    </main>
  );
}
