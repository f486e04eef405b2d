import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Radio from 'antd/es/radio';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { type ApiKey, listApiKeys } from '@/api/apikey.ts';
import {
  type Letter,
  acceptAuthorisationLetter,
  issueAuthorisationLetter,
  letterPdfUrl,
  listAuthorisationLetters,
  revokeAuthorisationLetter,
  sendLetterSmsCode,
} from '@/api/authorisation.ts';
import { showApiError } from '@/api/http.ts';
import { type Seal, getUserCertSealList } from '@/api/seal.ts';
import { type TemplateSummary, listTemplates } from '@/api/template.ts';
import { IntentCodeRow } from '@/components/intent-code-row.tsx';
import { PdfViewer } from '@/components/pdf-viewer.tsx';
import { TagRow } from '@/components/tag-row.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { localInputValue, useFormatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { texts } from './texts.ts';

const DAY_MS = 86_400_000;
/** The table's least width: below it (a phone) the table scrolls inside its own box, never the page. */
const TABLE_MIN_WIDTH = 960;
/** The legal-person seal has its own slot: never an automatic-signing seal. */
const LEGAL_PERSON_SEAL = 101;
const STATE_COLOR: Record<Letter['state'], string> = {
  pending: 'gold',
  active: 'green',
  not_yet: 'blue',
  expired: 'default',
  used_up: 'default',
  revoked: 'red',
};

type Draft = {
  sealId: string;
  templateIds: string[];
  apiKeyIds: string[];
  validFrom: string;
  validTo: string;
  maxUses: string;
  purpose: string;
  smsCode: string;
};

const freshDraft = (sealId: string): Draft => {
  const now = new Date();
  return {
    sealId,
    templateIds: [],
    apiKeyIds: [],
    validFrom: localInputValue(now),
    validTo: localInputValue(new Date(now.getTime() + 365 * DAY_MS)),
    maxUses: '',
    purpose: '',
    smsCode: '',
  };
};

/**
 * /manage/account/letters: the company's authorisation letters (授权书, issue 27): list with kind, grantee, seals,
 * period, uses and state; issue an automatic-signing letter (seal, templates and/or API keys, period, count, the
 * administrator's SMS code); view and download the signed PDF; revoke after a confirmation; accept a letter another
 * company granted.
 */
export default function LettersPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const userInfo = useSessionStore((s) => s.userInfo);
  const isCompany = userInfo?.userType === 1;
  // The administrator or the legal representative issues, revokes and accepts letters.
  const isIssuer = isCompany && Boolean(userInfo?.isAdmin || userInfo?.isLegalRep);
  const [letters, setLetters] = useState<Letter[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  const [seals, setSeals] = useState<Seal[]>([]);
  const [templates, setTemplates] = useState<TemplateSummary[]>([]);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [viewing, setViewing] = useState<Letter | null>(null);

  const load = useCallback(async () => {
    setIsLoading(true);
    try {
      setLetters((await listAuthorisationLetters({ pageNum: 1, pageSize: 100 })).list);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsLoading(false);
    }
  }, []);

  useEffect(() => {
    if (isCompany) void load();
  }, [isCompany, load]);

  const openIssue = async () => {
    setFormError(null);
    try {
      const [sealList, templateList, keyList] = await Promise.all([
        getUserCertSealList(),
        listTemplates({ pageNum: 1, pageSize: 100 }),
        listApiKeys(),
      ]);
      const usable = sealList.seals.filter(
        (s) => s.status === 'enabled' && s.sealType !== null && s.sealType !== LEGAL_PERSON_SEAL,
      );
      setSeals(usable);
      setTemplates(templateList.list);
      setKeys(keyList.list.filter((k) => !k.revokedAt));
      setDraft(freshDraft(usable[0]?.id ?? ''));
    } catch (e) {
      showApiError(e);
    }
  };

  const change = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const issue = async () => {
    if (!draft) return;
    if (!draft.sealId) return setFormError(tt('sealRequired'));
    if (draft.templateIds.length + draft.apiKeyIds.length === 0) return setFormError(tt('scopeRequired'));
    if (!(new Date(draft.validTo) > new Date(draft.validFrom))) return setFormError(tt('periodInvalid'));
    if (!/^\d{6}$/.test(draft.smsCode)) return setFormError(tt('codeRequired'));
    setIsSaving(true);
    setFormError(null);
    try {
      const letter = await issueAuthorisationLetter({
        kind: 'auto_sign',
        sealIds: [draft.sealId],
        templateIds: draft.templateIds,
        apiKeyIds: draft.apiKeyIds,
        purpose: draft.purpose.trim(),
        validFrom: new Date(draft.validFrom).toISOString(),
        validTo: new Date(draft.validTo).toISOString(),
        maxUses: draft.maxUses.trim() ? Number(draft.maxUses) : null,
        smsCode: draft.smsCode,
      });
      setDraft(null);
      notify.success(tt('issued', { number: letter.number }), 3000);
      void load();
    } catch (e) {
      setFormError(showApiError(e));
    } finally {
      setIsSaving(false);
    }
  };

  const revoke = async (l: Letter) => {
    try {
      await revokeAuthorisationLetter({ letterId: l.letterId, reason: '' });
      notify.success(tt('revoked', { number: l.number }), 2000);
      void load();
    } catch (e) {
      showApiError(e);
    }
  };

  const accept = async (l: Letter) => {
    try {
      await acceptAuthorisationLetter({ letterId: l.letterId });
      notify.success(tt('accepted', { number: l.number }), 2000);
      void load();
    } catch (e) {
      showApiError(e);
    }
  };

  if (!isCompany)
    return (
      <main style={{ padding: 16 }}>
        <h1 style={{ fontSize: 20 }}>{tt('title')}</h1>
        <Alert type="info" title={tt('companyOnly')} />
      </main>
    );

  return (
    <main className="letters" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{tt('title')}</h1>
      <p style={{ color: '#666', maxWidth: 760 }}>{tt('intro')}</p>
      {isIssuer ? (
        <div style={{ marginBottom: 12 }}>
          <Button type="primary" onClick={() => void openIssue()}>
            {tt('newAutoSign')}
          </Button>
        </div>
      ) : null}
      <Table<Letter>
        rowKey="letterId"
        loading={isLoading}
        pagination={false}
        dataSource={letters}
        locale={{ emptyText: tt('empty') }}
        scroll={{ x: TABLE_MIN_WIDTH }}
        columns={[
          { title: tt('number'), render: (_, l) => <code>{l.number}</code> },
          { title: tt('kind'), render: (_, l) => tt(`kind_${l.kind}`) },
          {
            title: tt('grantee'),
            render: (_, l) => (l.kind === 'auto_sign' ? tt('platform') : (l.granteeName ?? '')),
          },
          {
            title: tt('seals'),
            render: (_, l) => (
              <div style={{ minWidth: 120 }}>
                {l.seals.map((s) => s.name).join('、')}
                {l.templates.length ? (
                  <div style={{ color: '#888', fontSize: 12 }}>
                    {tt('templates')}: {l.templates.map((x) => x.name).join('、')}
                  </div>
                ) : null}
                {l.apiKeys.length ? (
                  <div style={{ color: '#888', fontSize: 12 }}>
                    {tt('apiKeys')}: {l.apiKeys.map((x) => x.name).join('、')}
                  </div>
                ) : null}
              </div>
            ),
          },
          {
            title: tt('period'),
            render: (_, l) => (
              <div style={{ minWidth: 150 }}>
                {when(l.validFrom)}
                <br />– {when(l.validTo)}
              </div>
            ),
          },
          {
            title: tt('uses'),
            render: (_, l) =>
              l.kind !== 'auto_sign'
                ? '—'
                : l.maxUses === null
                  ? tt('usesUnlimited', { used: l.usedCount })
                  : tt('usesOf', { used: l.usedCount, max: l.maxUses }),
          },
          {
            title: tt('status'),
            render: (_, l) => <Tag color={STATE_COLOR[l.state]}>{tt(`state_${l.state}`)}</Tag>,
          },
          {
            title: tt('actions'),
            render: (_, l) => (
              <TagRow>
                <Button size="small" onClick={() => setViewing(l)}>
                  {tt('view')}
                </Button>
                {isIssuer && l.isMine && l.state !== 'revoked' ? (
                  <Popconfirm
                    title={tt('revokeConfirm', { number: l.number })}
                    okText={tt('revoke')}
                    cancelText={tt('cancel')}
                    onConfirm={() => revoke(l)}
                  >
                    <Button size="small" danger>
                      {tt('revoke')}
                    </Button>
                  </Popconfirm>
                ) : null}
                {isIssuer && !l.isMine && l.state === 'pending' ? (
                  <Button size="small" type="primary" onClick={() => void accept(l)}>
                    {tt('accept')}
                  </Button>
                ) : null}
              </TagRow>
            ),
          },
        ]}
      />

      <Modal
        open={draft !== null}
        title={tt('newAutoSign')}
        okText={tt('issue')}
        cancelText={tt('cancel')}
        confirmLoading={isSaving}
        onOk={() => void issue()}
        onCancel={() => setDraft(null)}
        destroyOnHidden
      >
        {draft ? (
          <div>
            <p style={{ color: '#666' }}>{tt('autoSignIntro')}</p>
            <fieldset style={{ border: 0, padding: 0, margin: '0 0 12px' }}>
              <legend style={{ fontSize: 14, marginBottom: 4 }}>{tt('seal')}</legend>
              <Radio.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                value={draft.sealId}
                onChange={(e) => change({ sealId: e.target.value as string })}
                options={seals.map((s) => ({ value: s.id, label: s.name }))}
              />
            </fieldset>
            <fieldset style={{ border: 0, padding: 0, margin: '0 0 12px' }}>
              <legend style={{ fontSize: 14, marginBottom: 4 }}>{tt('templates')}</legend>
              {templates.length === 0 ? <span style={{ color: '#888' }}>{tt('none')}</span> : null}
              <Checkbox.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                value={draft.templateIds}
                onChange={(v) => change({ templateIds: v as string[] })}
                options={templates.map((x) => ({ value: x.templateId, label: x.name }))}
              />
            </fieldset>
            <fieldset style={{ border: 0, padding: 0, margin: '0 0 12px' }}>
              <legend style={{ fontSize: 14, marginBottom: 4 }}>{tt('apiKeys')}</legend>
              {keys.length === 0 ? <span style={{ color: '#888' }}>{tt('none')}</span> : null}
              <Checkbox.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                value={draft.apiKeyIds}
                onChange={(v) => change({ apiKeyIds: v as string[] })}
                options={keys.map((k) => ({ value: k.keyId, label: `${k.name} (${k.prefix}…)` }))}
              />
            </fieldset>
            <label htmlFor="letter-from" style={{ display: 'block', marginBottom: 4 }}>
              {tt('validFrom')}
            </label>
            <Input
              id="letter-from"
              type="datetime-local"
              value={draft.validFrom}
              onChange={(e) => change({ validFrom: e.target.value })}
            />
            <label htmlFor="letter-to" style={{ display: 'block', margin: '8px 0 4px' }}>
              {tt('validTo')}
            </label>
            <Input
              id="letter-to"
              type="datetime-local"
              value={draft.validTo}
              onChange={(e) => change({ validTo: e.target.value })}
            />
            <label htmlFor="letter-max" style={{ display: 'block', margin: '8px 0 4px' }}>
              {tt('maxUses')}
            </label>
            <Input
              id="letter-max"
              inputMode="numeric"
              placeholder={tt('maxUsesHint')}
              value={draft.maxUses}
              onChange={(e) => change({ maxUses: e.target.value.replace(/\D/g, '').slice(0, 7) })}
            />
            <label htmlFor="letter-purpose" style={{ display: 'block', margin: '8px 0 4px' }}>
              {tt('purpose')}
            </label>
            <Input
              id="letter-purpose"
              maxLength={200}
              placeholder={tt('purposePlaceholder')}
              value={draft.purpose}
              onChange={(e) => change({ purpose: e.target.value })}
            />
            <IntentCodeRow
              id="letter-sms"
              value={draft.smsCode}
              onChange={(smsCode) => change({ smsCode })}
              send={() => sendLetterSmsCode()}
              onSent={(phone) => notify.success(tt('codeSent', { phone }), 2000)}
              texts={{
                smsCode: tt('smsCode'),
                getCode: tt('getCode'),
                resend: (seconds) => tt('resend', { seconds }),
                hint: tt('codeHint'),
              }}
            />
            {formError ? <Alert type="error" title={formError} /> : null}
          </div>
        ) : null}
      </Modal>

      <Modal
        open={viewing !== null}
        title={viewing ? tt('letterTitle', { number: viewing.number }) : ''}
        onCancel={() => setViewing(null)}
        width={820}
        footer={
          viewing ? (
            <TagRow>
              <a href={letterPdfUrl(viewing.letterId)} download={`${viewing.number}.pdf`}>
                {tt('download')}
              </a>
              <Button onClick={() => setViewing(null)}>{tt('close')}</Button>
            </TagRow>
          ) : null
        }
        destroyOnHidden
      >
        {viewing ? (
          <PdfViewer url={letterPdfUrl(viewing.letterId, true)} height="70vh" label={viewing.number} />
        ) : null}
      </Modal>
    </main>
  );
}
