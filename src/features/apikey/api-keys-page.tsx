import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import {
  API_SCOPES,
  type ApiKey,
  type ApiScope,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from '@/api/apikey.ts';
import { showApiError } from '@/api/http.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { texts } from './texts.ts';
import { TagRow } from '@/components/tag-row.tsx';
import { useFormatTime } from '@/lib/format-time.ts';

/** Where the integrator API's reference page is served (server/open/). */
const API_REFERENCE_URL = '/open/v1/docs';

/** The table's least width: below it (a phone) the table scrolls inside its own box, never the page. */
const TABLE_MIN_WIDTH = 880;

/**
 * /manage/apiKeys: the account's API keys for the integrator API (a person's own, or a company's for its
 * administrators): create one with a name and permissions (the secret is shown once, with a copy button),
 * see when each was last used, revoke one after a confirmation.
 */
export default function ApiKeysPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  const [isCreating, setIsCreating] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>(['flows:read', 'flows:write']);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const load = useCallback(async () => {
    setIsLoading(true);
    try {
      setKeys((await listApiKeys()).list);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const openCreate = () => {
    setName('');
    setScopes(['flows:read', 'flows:write']);
    setFormError(null);
    setIsCreating(true);
  };

  const create = async () => {
    if (!name.trim()) return setFormError(tt('nameRequired'));
    if (scopes.length === 0) return setFormError(tt('scopesRequired'));
    setIsSaving(true);
    try {
      const made = await createApiKey({ name: name.trim(), scopes });
      setIsCreating(false);
      setSecret(made.secret);
      void load();
    } catch (e) {
      setFormError(showApiError(e));
    } finally {
      setIsSaving(false);
    }
  };

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      notify.success(tt('copied'), 2000);
    } catch {
      notify.error(tt('copyFailed'), 3000);
    }
  };

  const revoke = async (key: ApiKey) => {
    try {
      await revokeApiKey({ keyId: key.keyId });
      notify.success(tt('revoked'), 2000);
      void load();
    } catch (e) {
      showApiError(e);
    }
  };

  return (
    <main className="api-keys" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{tt('title')}</h1>
      <p style={{ color: '#666', maxWidth: 760 }}>
        {tt('intro')}{' '}
        <a href={API_REFERENCE_URL} target="_blank" rel="noreferrer">
          {tt('reference')}
        </a>
      </p>
      {/* The new secret, once: it leaves the page when the user says it is copied (or leaves the page). */}
      {secret !== null && (
        <section
          aria-label={tt('secretTitle')}
          style={{
            border: '1px solid #faad14',
            borderRadius: 8,
            padding: 16,
            marginBottom: 16,
            maxWidth: 760,
          }}
        >
          <h2 style={{ fontSize: 16, marginTop: 0 }}>{tt('secretTitle')}</h2>
          <Alert type="warning" title={tt('secretWarning')} style={{ marginBottom: 12 }} />
          <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
            <Input readOnly aria-label={tt('key')} value={secret} onFocus={(e) => e.target.select()} />
            <Button onClick={() => void copy()}>{tt('copy')}</Button>
          </div>
          <Button type="primary" onClick={() => setSecret(null)}>
            {tt('done')}
          </Button>
        </section>
      )}
      <div style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={openCreate}>
          {tt('newKey')}
        </Button>
      </div>
      <Table<ApiKey>
        rowKey="keyId"
        loading={isLoading}
        pagination={false}
        dataSource={keys}
        locale={{ emptyText: tt('empty') }}
        scroll={{ x: TABLE_MIN_WIDTH }}
        columns={[
          { title: tt('name'), dataIndex: 'name' },
          { title: tt('key'), render: (_, k) => <code>{k.prefix}…</code> },
          {
            title: tt('scopes'),
            // the permissions wrap onto several lines rather than widening the table
            render: (_, k) => (
              <div style={{ minWidth: 160 }}>
                <TagRow>
                  {k.scopes.map((s) => (
                    <Tag key={s}>{tt(`scope.${s}`)}</Tag>
                  ))}
                </TagRow>
              </div>
            ),
          },
          { title: tt('created'), render: (_, k) => when(k.createdAt) },
          { title: tt('lastUsed'), render: (_, k) => (k.lastUsedAt ? when(k.lastUsedAt) : tt('never')) },
          {
            title: tt('status'),
            render: (_, k) =>
              k.revokedAt ? (
                <Tag>{tt('revokedAt', { time: when(k.revokedAt) })}</Tag>
              ) : (
                <TagRow>
                  <Tag color="green">{tt('active')}</Tag>
                  {k.assertsIdentity ? (
                    <Tag color="gold" title={tt('assertsIdentityHint')}>
                      {tt('assertsIdentity')}
                    </Tag>
                  ) : null}
                </TagRow>
              ),
          },
          {
            title: tt('actions'),
            render: (_, k) =>
              k.revokedAt ? null : (
                <Popconfirm
                  title={tt('revokeConfirm', { name: k.name })}
                  okText={tt('revoke')}
                  cancelText={tt('cancel')}
                  onConfirm={() => revoke(k)}
                >
                  <Button size="small" danger>
                    {tt('revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />

      <Modal
        open={isCreating}
        title={tt('newKey')}
        okText={tt('create')}
        cancelText={tt('cancel')}
        confirmLoading={isSaving}
        onOk={() => void create()}
        onCancel={() => setIsCreating(false)}
        destroyOnHidden
      >
        <label htmlFor="api-key-name" style={{ display: 'block', marginBottom: 4 }}>
          {tt('name')}
        </label>
        <Input
          id="api-key-name"
          maxLength={50}
          placeholder={tt('namePlaceholder')}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <fieldset style={{ border: 0, padding: 0, margin: '16px 0 0' }}>
          <legend style={{ fontSize: 14, marginBottom: 4 }}>{tt('scopes')}</legend>
          <Checkbox.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
            value={scopes}
            onChange={(v) => setScopes(v as ApiScope[])}
            options={API_SCOPES.map((s) => ({ value: s, label: tt(`scope.${s}`) }))}
          />
        </fieldset>
        {formError && <Alert style={{ marginTop: 12 }} type="error" title={formError} />}
      </Modal>
    </main>
  );
}
