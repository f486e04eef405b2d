// Void by agreement (issue 29) on a flow's detail and in the lists: the voided tag, the banners linking a
// contract and its rescission agreement, and the launcher's "Void by agreement" with reason and confirmation.
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import type { FlowSummary } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { getRescission, type RescissionState, startRescission } from '@/api/rescission.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { rescissionTexts } from './rescission-texts.ts';

/** The tags of a voided contract ("Voided by agreement on …") and of a rescission agreement. */
export function VoidedTags({ flow }: { flow: FlowSummary }) {
  const tt = useTexts(rescissionTexts);
  const locale = useI18nStore((s) => s.locale);
  return (
    <>
      {flow.voidedAt ? (
        <Tag color="red" data-testid="voided-tag">
          {tt('voidedOn', { date: formatTime(flow.voidedAt, locale) })}
        </Tag>
      ) : null}
      {flow.rescindsFlowId ? (
        <Tag color="geekblue" data-testid="rescission-tag">
          {tt('rescissionTag')}
        </Tag>
      ) : null}
    </>
  );
}

/** The detail's void-by-agreement part: banners with links (`onOpen` shows a flow), and the launcher's action. */
export function RescissionPanel({
  flow,
  onOpen,
  onChanged,
}: {
  flow: FlowSummary;
  onOpen: (flowId: string) => void;
  onChanged: () => void;
}) {
  const tt = useTexts(rescissionTexts);
  const locale = useI18nStore((s) => s.locale);
  const [state, setState] = useState<RescissionState | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [isSure, setIsSure] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const { flowId } = flow;

  const load = useCallback(async () => {
    try {
      setState(await getRescission({ flowId }));
    } catch {
      setState(null);
    }
  }, [flowId]);
  useEffect(() => {
    void load();
  }, [load]);

  const send = async () => {
    if (reason.trim().length < 2) return setError(tt('reasonTooShort'));
    setIsBusy(true);
    setError(null);
    try {
      const started = await startRescission({ flowId, reason: reason.trim() });
      notify.success(tt('sent'), 2000);
      setIsOpen(false);
      await load();
      onChanged();
      onOpen(started.flowId);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setIsBusy(false);
    }
  };

  if (!state) return null;
  // The banners: this contract voided (linking its agreement), this flow a rescission (linking the original),
  // an agreement being signed.
  const banners = [
    state.voidedAt && state.voidedBy
      ? {
          id: 'voided',
          type: 'error' as const,
          title: tt('voidedBanner', { date: formatTime(state.voidedAt, locale) }),
          to: state.voidedBy.flowId,
          label: tt('openRescission'),
        }
      : null,
    state.rescinds
      ? {
          id: 'rescinds',
          type: 'info' as const,
          title: tt('isRescission', { title: state.rescinds.title }),
          to: state.rescinds.flowId,
          label: tt('openOriginal'),
        }
      : null,
    state.open
      ? {
          id: 'open',
          type: 'warning' as const,
          title: tt('openBanner'),
          to: state.open.flowId,
          label: tt('openRescission'),
        }
      : null,
  ].filter((b) => b !== null);
  return (
    <section data-testid="rescission-panel" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {banners.map((b) => (
        <Alert
          key={b.id}
          type={b.type}
          showIcon
          data-testid={`${b.id}-banner`}
          title={b.title}
          description={
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(b.to)}>
              {b.label}
            </Button>
          }
        />
      ))}
      {state.canStart ? (
        <div>
          <Button
            danger
            data-testid="void-by-agreement"
            onClick={() => {
              setReason('');
              setIsSure(false);
              setError(null);
              setIsOpen(true);
            }}
          >
            {tt('voidAction')}
          </Button>
        </div>
      ) : null}
      <Modal
        open={isOpen}
        title={tt('voidTitle')}
        onCancel={() => setIsOpen(false)}
        onOk={send}
        okText={tt('send')}
        cancelText={tt('close')}
        okButtonProps={{ danger: true, disabled: !isSure, loading: isBusy }}
        destroyOnHidden
      >
        <p>{tt('voidExplain')}</p>
        <Input.TextArea
          aria-label={tt('reason')}
          placeholder={tt('reason')}
          status={error ? 'error' : undefined}
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        {error ? <Alert type="error" role="alert" title={error} style={{ marginTop: 8 }} /> : null}
        <Checkbox checked={isSure} onChange={(e) => setIsSure(e.target.checked)} style={{ marginTop: 8 }}>
          {tt('confirm')}
        </Checkbox>
      </Modal>
    </section>
  );
}
