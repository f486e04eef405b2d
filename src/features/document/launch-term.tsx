// Issue 29 on the launch screen: the contract's term (LaunchTermSection), and LaunchExtras: "Save draft" and the
// drafts list (server-side drafts, resumed with ?draft=<id>), and "Renew" (?renew=<flowId>: the parties,
// settings and term of a completed flow filled in, documents chosen again).
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import {
  deleteLaunchDraft,
  getFlowRenewal,
  getLaunchDraft,
  type LaunchDraftSummary,
  listLaunchDrafts,
  type RenewalParty,
  saveLaunchDraft,
} from '@/api/term.ts';
import { newTerm, TermFields } from '@/components/term-fields.tsx';
import { termTexts } from '@/components/term-texts.ts';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime, localDayValue } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import {
  type DraftParty,
  emptyDraft,
  type LaunchDraft,
  type LaunchMode,
  newKey,
  useLaunchDraft,
} from './launch-draft.ts';

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/** "This contract has a term" and, when ticked, its dates, reminder days and people. */
export function LaunchTermSection() {
  const tt = useTexts(termTexts);
  const { draft, update } = useLaunchDraft();
  return (
    <section style={{ marginTop: 16 }} aria-label={tt('termTitle')}>
      <Checkbox
        checked={!!draft.term}
        onChange={(e) =>
          update((d) => ({ ...d, term: e.target.checked ? newTerm(localDayValue(new Date())) : null }))
        }
      >
        {tt('hasTerm')}
      </Checkbox>
      {draft.term ? (
        <div style={{ marginTop: 8 }}>
          <TermFields term={draft.term} onChange={(term) => update((d) => ({ ...d, term }))} />
        </div>
      ) : null}
    </section>
  );
}

/** A renewal's party as the launch form keeps it. */
function renewalParty(p: RenewalParty, myCompanyId: string | null): DraftParty {
  const isOwn = p.kind === 'company' && !!p.companyId && p.companyId === myCompanyId;
  return {
    key: newKey('p'),
    kind: p.kind,
    name: p.name ?? '',
    phone: p.phone ?? '',
    ...(p.picked ? { picked: p.picked } : {}),
    companyMode: p.kind === 'person' || isOwn ? 'own' : 'other',
    ...(isOwn && p.companyId ? { companyId: p.companyId } : {}),
    companyName: p.companyName ?? '',
    isSealTypeChosen: true,
    intent: p.intent,
    applies: p.applies,
  };
}

/** Loads ?renew=<flowId> or ?draft=<id> into the launch form once, then drops the parameter. */
function useLoadFromSearch(mode: LaunchMode, onRenewing: (title: string) => void) {
  const tt = useTexts(termTexts);
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const { update } = useLaunchDraft();
  const me = useSessionStore((s) => s.userInfo);
  const renew = search.get('renew');
  const draftId = search.get('draft');
  useEffect(() => {
    if (!renew) return;
    let isLive = true;
    getFlowRenewal({ flowId: renew })
      .then((r) => {
        if (!isLive) return;
        update(() => ({
          ...emptyDraft(mode),
          title: r.title,
          message: r.message ?? '',
          remindEveryDays: r.remindEveryDays,
          steps: r.steps.map((s) => ({
            key: newKey('s'),
            parties: s.parties.map((p) => renewalParty(p, me?.companyId ?? null)),
          })),
          term: r.term
            ? { ...r.term, remindDays: r.term.remindDays ?? [], remindPeople: r.term.remindPeople ?? [] }
            : null,
          renewsFlowId: r.flowId,
        }));
        onRenewing(r.title);
        setSearch({}, { replace: true });
      })
      .catch((e) => notify.error(tt('renewLoadFailed', { reason: messageOf(e) }), 3000));
    return () => {
      isLive = false;
    };
  }, [renew, mode, update, me, onRenewing, setSearch, tt]);
  useEffect(() => {
    if (!draftId) return;
    let isLive = true;
    (async () => {
      const d = await getLaunchDraft({ draftId });
      const form = d.form as LaunchDraft;
      if (form.mode && form.mode !== mode) {
        navigate(
          `${form.mode === 'quick' ? paths.manageQuicklyFileUpload : paths.manageFileUpload}?draft=${draftId}`,
          { replace: true },
        );
        return;
      }
      // The uploads still usable, as the form kept them.
      const documents = (form.documents ?? []).filter((x) => d.documentIds.includes(x.documentId));
      if (!isLive) return;
      update(() => ({ ...emptyDraft(mode), ...form, mode, documents, serverDraftId: d.draftId }));
      if (d.droppedDocuments > 0) notify.error(tt('draftDropped', { n: d.droppedDocuments }), 4000);
      setSearch({}, { replace: true });
    })().catch((e) => notify.error(messageOf(e), 3000));
    return () => {
      isLive = false;
    };
  }, [draftId, mode, update, navigate, setSearch, tt]);
}

/** Save draft, the drafts list, and the renewal notice, above the launch steps. */
export function LaunchExtras({ mode }: { mode: LaunchMode }) {
  const tt = useTexts(termTexts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const path = useLocation().pathname;
  const { draft, update } = useLaunchDraft();
  const [renewing, setRenewing] = useState<string | null>(null);
  const [list, setList] = useState<LaunchDraftSummary[] | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  useLoadFromSearch(mode, setRenewing);

  const save = async () => {
    setIsSaving(true);
    try {
      const { serverDraftId, ...form } = draft;
      const saved = await saveLaunchDraft({
        ...(serverDraftId ? { draftId: serverDraftId } : {}),
        title: draft.title.trim().slice(0, 100),
        form,
        documentIds: draft.documents.map((d) => d.documentId),
      });
      update((d) => ({ ...d, serverDraftId: saved.draftId }));
      notify.success(tt('draftSaved'), 2000);
    } catch (e) {
      notify.error(messageOf(e), 3000);
    } finally {
      setIsSaving(false);
    }
  };
  const openList = async () => {
    try {
      setList((await listLaunchDrafts({})).items);
    } catch (e) {
      notify.error(messageOf(e), 3000);
    }
  };
  const remove = async (id: string) => {
    try {
      await deleteLaunchDraft({ draftId: id });
      if (draft.serverDraftId === id) update((d) => ({ ...d, serverDraftId: undefined }));
      setList((l) => l?.filter((x) => x.draftId !== id) ?? null);
      notify.success(tt('draftDeleted'), 2000);
    } catch (e) {
      notify.error(messageOf(e), 3000);
    }
  };

  return (
    <>
      <div style={{ display: 'flex', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}>
        <Button loading={isSaving} onClick={() => void save()}>
          {tt('saveDraft')}
        </Button>
        <Button onClick={() => void openList()}>{tt('drafts')}</Button>
      </div>
      {renewing ? (
        <Alert type="info" title={tt('renewing', { title: renewing })} style={{ marginBottom: 12 }} />
      ) : null}
      <Modal open={list !== null} title={tt('draftsTitle')} footer={null} onCancel={() => setList(null)}>
        {list?.length === 0 ? <p>{tt('noDrafts')}</p> : null}
        <ul aria-label={tt('draftsTitle')} style={{ listStyle: 'none', paddingLeft: 0 }}>
          {list?.map((d) => (
            <li
              key={d.draftId}
              style={{
                display: 'flex',
                gap: 8,
                alignItems: 'center',
                padding: '6px 0',
                borderBottom: '1px solid #eee',
              }}
            >
              <span style={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}>
                {d.title || tt('untitled')}
                <br />
                <span style={{ color: '#999', fontSize: 12 }}>
                  {tt('draftDocs', { n: d.documentCount, time: formatTime(d.updatedAt, locale) })}
                </span>
              </span>
              <Button
                size="small"
                type="primary"
                onClick={() => {
                  setList(null);
                  navigate(`${path}?draft=${d.draftId}`);
                }}
              >
                {tt('openDraft')}
              </Button>
              <Button size="small" danger onClick={() => void remove(d.draftId)}>
                {tt('deleteDraft')}
              </Button>
            </li>
          ))}
        </ul>
      </Modal>
    </>
  );
}
