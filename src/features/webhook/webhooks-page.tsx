import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { WEBHOOK_EVENTS } from '#contract/enums.ts';
import { showApiError } from '@/api/http.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  setWebhookEndpointEnabled,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@/api/webhook.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { texts } from './texts.ts';
import { TagRow } from '@/components/tag-row.tsx';
import { useFormatTime } from '@/lib/format-time.ts';

/** The published reference of the platform's calls, webhook management among them (server/app.ts). */
const API_REFERENCE_URL = '/v1/docs';

type TT = ReturnType<typeof useTexts<keyof (typeof texts)['en-US']>>;

const eventLabel = (tt: TT, type: string) =>
  type in texts['en-US'] ? tt(type as keyof (typeof texts)['en-US']) : type;
/** /manage/webhooks: the account's webhook endpoints, their secrets (shown once) and delivery logs. */
export default function WebhooksPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [isAdding, setIsAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [openLog, setOpenLog] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setEndpoints(await listWebhookEndpoints({}));
    } catch (e) {
      showApiError(e);
      setEndpoints([]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await load();
    } catch (e) {
      showApiError(e);
    }
  };

  return (
    <main className="webhooks-page" style={{ padding: 16, maxWidth: 1100 }}>
      <h1 style={{ fontSize: 20 }}>{tt('title')}</h1>
      <p style={{ color: '#666' }}>{tt('intro')}</p>
      <details style={{ color: '#666', marginBottom: 16 }}>
        <summary style={{ cursor: 'pointer' }}>{tt('helpTitle')}</summary>
        <ol style={{ margin: '8px 0', paddingLeft: 20 }}>
          <li>{tt('helpHeaders')}</li>
          <li>{tt('helpSignature')}</li>
          <li>{tt('helpFreshness')}</li>
          <li>{tt('helpAnswer')}</li>
        </ol>
        <a href={API_REFERENCE_URL} target="_blank" rel="noreferrer">
          {tt('helpReference')}
        </a>
      </details>
      <Button type="primary" onClick={() => setIsAdding(true)} style={{ marginBottom: 16 }}>
        {tt('add')}
      </Button>
      {endpoints?.length === 0 && (
        <p data-testid="webhooks-empty" style={{ color: '#999', padding: '32px 0', textAlign: 'center' }}>
          {tt('empty')}
        </p>
      )}
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        {endpoints?.map((e) => (
          <section
            key={e.endpointId}
            data-testid="webhook-endpoint"
            aria-label={e.url}
            style={{ border: '1px solid #e5e5e5', borderRadius: 8, padding: 12 }}
          >
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
              <strong style={{ wordBreak: 'break-all', flex: '1 1 260px' }}>{e.url}</strong>
              <Switch
                checked={e.enabled}
                aria-label={e.enabled ? tt('enabled') : tt('disabled')}
                checkedChildren={tt('enabled')}
                unCheckedChildren={tt('disabled')}
                onChange={(enabled) =>
                  act(() => setWebhookEndpointEnabled({ endpointId: e.endpointId, enabled }))
                }
              />
            </div>
            {e.description && <div style={{ color: '#666', marginTop: 4 }}>{e.description}</div>}
            <div style={{ marginTop: 8 }}>
              <TagRow>
                {e.events.map((ev) => (
                  <Tag key={ev}>{eventLabel(tt, ev)}</Tag>
                ))}
              </TagRow>
            </div>
            <div style={{ marginTop: 8, color: '#666' }}>
              {tt('lastAttempt')}:{' '}
              {e.lastAttempt
                ? `${when(e.lastAttempt.at)} · ${e.lastAttempt.ok ? tt('ok') : tt('notOk')}${
                    e.lastAttempt.responseCode ? ` (${e.lastAttempt.responseCode})` : ''
                  }`
                : tt('never')}
            </div>
            <div style={{ marginTop: 8, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
              <Button size="small" onClick={() => setOpenLog(openLog === e.endpointId ? null : e.endpointId)}>
                {openLog === e.endpointId ? tt('hideDeliveries') : tt('deliveries')}
              </Button>
              <Button
                size="small"
                onClick={() =>
                  act(async () => {
                    const d = await sendWebhookTestEvent({ endpointId: e.endpointId });
                    notify.success(tt('testSent', { result: resultOf(tt, d) }), 3000);
                  })
                }
              >
                {tt('sendTest')}
              </Button>
              <Popconfirm
                title={tt('rotateConfirm')}
                okText={tt('rotate')}
                cancelText={tt('cancel')}
                onConfirm={() =>
                  act(async () => setSecret((await rotateWebhookSecret({ endpointId: e.endpointId })).secret))
                }
              >
                <Button size="small">{tt('rotate')}</Button>
              </Popconfirm>
              <Popconfirm
                title={tt('deleteConfirm', { url: e.url })}
                okText={tt('delete')}
                cancelText={tt('cancel')}
                onConfirm={() =>
                  act(async () => {
                    await deleteWebhookEndpoint({ endpointId: e.endpointId });
                    notify.success(tt('deleted'), 2000);
                  })
                }
              >
                <Button size="small" danger>
                  {tt('delete')}
                </Button>
              </Popconfirm>
            </div>
            {openLog === e.endpointId && <DeliveryLog endpointId={e.endpointId} tt={tt} />}
          </section>
        ))}
      </div>
      {isAdding && (
        <AddEndpoint
          tt={tt}
          onClose={() => setIsAdding(false)}
          onCreated={(s) => {
            setIsAdding(false);
            setSecret(s);
            void load();
          }}
        />
      )}
      {/* Mounted only while shown: once closed, the secret leaves the page. */}
      {secret !== null && <SecretOnce secret={secret} tt={tt} onClose={() => setSecret(null)} />}
    </main>
  );
}

function resultOf(tt: TT, d: WebhookDelivery): string {
  const last = d.attempts.at(-1);
  if (!last) return tt(d.state);
  return `${last.ok ? tt('ok') : tt('notOk')}${last.responseCode ? ` (${last.responseCode})` : ''}`;
}

function AddEndpoint({
  tt,
  onClose,
  onCreated,
}: {
  tt: TT;
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [isBusy, setIsBusy] = useState(false);
  const isUrl = /^https?:\/\/\S+$/.test(url.trim());
  const submit = async () => {
    setIsBusy(true);
    try {
      const made = await createWebhookEndpoint({
        url: url.trim(),
        description: description.trim() || undefined,
        events,
      });
      onCreated(made.secret);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Modal
      open
      title={tt('addTitle')}
      okText={tt('create')}
      cancelText={tt('cancel')}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ disabled: !isUrl || events.length === 0, loading: isBusy }}
    >
      <div style={{ marginBottom: 12 }}>
        <label htmlFor="webhook-url">{tt('url')}</label>
        <Input
          id="webhook-url"
          aria-label={tt('url')}
          placeholder="https://example.com/esign/webhook"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          status={url && !isUrl ? 'error' : undefined}
        />
        {url && !isUrl && <span style={{ color: '#cf1322' }}>{tt('urlRequired')}</span>}
      </div>
      <div style={{ marginBottom: 12 }}>
        <label htmlFor="webhook-description">{tt('description')}</label>
        <Input
          id="webhook-description"
          aria-label={tt('description')}
          maxLength={200}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <fieldset style={{ border: 0, padding: 0 }}>
        <legend>{tt('events')}</legend>
        <Checkbox.Group
          value={events}
          onChange={(v) => setEvents(v as WebhookEvent[])}
          style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
          options={WEBHOOK_EVENTS.map((ev) => ({ value: ev, label: eventLabel(tt, ev) }))}
        />
        {events.length === 0 && <span style={{ color: '#cf1322' }}>{tt('eventsRequired')}</span>}
      </fieldset>
    </Modal>
  );
}

function SecretOnce({ secret, tt, onClose }: { secret: string; tt: TT; onClose: () => void }) {
  const [isCopied, setIsCopied] = useState(false);
  return (
    <Modal
      open
      title={tt('secretTitle')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {tt('close')}
        </Button>
      }
    >
      <p>{tt('secretOnce')}</p>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <code
          data-testid="webhook-secret"
          style={{ wordBreak: 'break-all', flex: '1 1 200px', userSelect: 'all' }}
        >
          {secret}
        </code>
        <Button
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret);
              setIsCopied(true);
            } catch {
              // clipboard refused (insecure context): the secret stays selectable on screen
            }
          }}
        >
          {isCopied ? tt('copied') : tt('copy')}
        </Button>
      </div>
    </Modal>
  );
}

function DeliveryLog({ endpointId, tt }: { endpointId: string; tt: TT }) {
  const when = useFormatTime();
  const [data, setData] = useState<WebhookDelivery[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setData((await listWebhookDeliveries({ endpointId, pageNum: 1, pageSize: 50 })).list);
    } catch (e) {
      showApiError(e);
      setData([]);
    }
  }, [endpointId]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Table<WebhookDelivery>
      style={{ marginTop: 12 }}
      size="small"
      rowKey="deliveryId"
      loading={data === null}
      pagination={false}
      dataSource={data ?? []}
      locale={{ emptyText: tt('noDeliveries') }}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: tt('event'), render: (_, d) => eventLabel(tt, d.type) },
        { title: tt('time'), render: (_, d) => when(d.createdAt) },
        {
          title: tt('status'),
          render: (_, d) => (
            <span>
              <Tag color={d.state === 'delivered' ? 'green' : d.state === 'failed' ? 'red' : 'orange'}>
                {tt(d.state)}
              </Tag>
              {d.nextAttemptAt && (
                <span style={{ color: '#999' }}>{tt('nextAttempt', { time: when(d.nextAttemptAt) })}</span>
              )}
            </span>
          ),
        },
        {
          title: tt('code'),
          render: (_, d) => d.attempts.at(-1)?.responseCode ?? d.attempts.at(-1)?.error ?? '—',
        },
        { title: tt('attempts'), render: (_, d) => d.attempts.length },
        {
          title: tt('action'),
          render: (_, d) => (
            <Button
              size="small"
              loading={busy === d.deliveryId}
              onClick={async () => {
                setBusy(d.deliveryId);
                try {
                  const again = await redeliverWebhook({ deliveryId: d.deliveryId });
                  notify.success(tt('redelivered', { result: resultOf(tt, again) }), 3000);
                  await load();
                } catch (e) {
                  showApiError(e);
                } finally {
                  setBusy(null);
                }
              }}
            >
              {tt('redeliver')}
            </Button>
          ),
        },
      ]}
    />
  );
}
