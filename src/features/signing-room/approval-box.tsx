import { useCallback, useEffect, useState } from 'react';
import { getRoomApprovals, type RoomSealApproval, requestSealApproval } from '@/api/approval.ts';
import { showApiError } from '@/api/http.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { approvalTexts } from './approval-texts.ts';
import { Notice } from './light-ui.tsx';
import { MESSAGE_MS } from './parts.tsx';

/** How often the room asks again while a request waits for the approvers. */
export const APPROVAL_POLL_MS = 10_000;

/**
 * The party's approval state per company seal (getRoomApprovals), asked when the party may seal with a company
 * seal; asked again every 10 s while the chosen seal's request is pending. A room whose server does not answer
 * it shows no approval step (the sign call still refuses, with 1330, and the page reloads this then).
 */
export function useRoomApprovals(token: string | null, chosenSealId: string | undefined) {
  const [seals, setSeals] = useState<Record<string, RoomSealApproval>>({});
  const reload = useCallback(async () => {
    if (!token) return;
    try {
      const r = await getRoomApprovals({ roomToken: token });
      setSeals(Object.fromEntries(r.seals.map((s) => [s.sealId, s])));
    } catch {
      // no approval step shown; signing answers 1330 if one is needed
    }
  }, [token]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const chosen = chosenSealId ? seals[chosenSealId] : undefined;
  const isPending = chosen?.latest?.status === 'pending';
  useEffect(() => {
    if (!isPending) return;
    const timer = setInterval(() => void reload(), APPROVAL_POLL_MS);
    return () => clearInterval(timer);
  }, [isPending, reload]);
  // The seal may be applied: it needs no approval, or its latest request is approved (the server then answers
  // needsApproval false: the approval it needed is there).
  const isBlocked = Boolean(chosen?.needsApproval && chosen.latest?.status !== 'approved');
  // The step shows while an approval is needed, and once granted (so the signer reads "approved").
  const isShown = Boolean(chosen && (chosen.needsApproval || chosen.latest?.status === 'approved'));
  return {
    chosen: isShown ? chosen : undefined,
    isBlocked,
    reload,
    setOne: (s: RoomSealApproval) => setSeals((m) => ({ ...m, [s.sealId]: s })),
  };
}

/**
 * The approval step above the room's sign button, for a company seal that needs approval: "ask for approval",
 * then "waiting for <approvers>" (refresh), "rejected by <name>: <comment>" (ask again) or "approved".
 */
export function SealApprovalBox({
  token,
  approval,
  onChange,
  onRefresh,
}: {
  token: string;
  approval: RoomSealApproval;
  onChange: (next: RoomSealApproval) => void;
  onRefresh: () => Promise<void>;
}) {
  const tt = useTexts(approvalTexts);
  const locale = useI18nStore((s) => s.locale);
  const [isBusy, setIsBusy] = useState(false);
  const latest = approval.latest;
  const ask = async () => {
    setIsBusy(true);
    try {
      const detail = await requestSealApproval({ roomToken: token, sealId: approval.sealId });
      onChange({ ...approval, latest: detail });
      notify.success(tt('asked'), MESSAGE_MS);
    } catch (e) {
      showApiError(e);
      await onRefresh();
    } finally {
      setIsBusy(false);
    }
  };
  const refresh = async () => {
    setIsBusy(true);
    await onRefresh();
    setIsBusy(false);
  };
  const askButton = (label: string) => (
    <PlainButton kind="primary" isBusy={isBusy} onClick={ask} data-testid="ask-approval">
      {label}
    </PlainButton>
  );
  const box = { marginBottom: 12 } as const;
  const actions = { display: 'flex', gap: 8, marginTop: 8, flexWrap: 'wrap' } as const;

  if (latest?.status === 'approved') {
    return (
      <Notice
        type="success"
        style={box}
        title={<span data-testid="approval-state">{tt('approved')}</span>}
        description={tt('approvedUntil', { time: formatTime(latest.expiresAt, locale) })}
      />
    );
  }
  if (latest?.status === 'pending') {
    const waiting = latest.approvers.filter((a) => a.state === 'waiting');
    const names =
      waiting.map((a) => a.name ?? tt('approverSomeone')).join(tt('join')) || tt('approverSomeone');
    return (
      <div style={box}>
        <Notice
          type="info"
          title={<span data-testid="approval-state">{tt('waiting', { names })}</span>}
          description={tt('waitingHelp')}
        />
        <div style={actions}>
          <PlainButton isBusy={isBusy} onClick={refresh} data-testid="refresh-approval">
            {tt('refresh')}
          </PlainButton>
        </div>
      </div>
    );
  }
  if (latest?.status === 'rejected') {
    const no = [...latest.decisions].reverse().find((d) => d.decision === 'reject');
    const name = no?.name ?? tt('approverSomeone');
    return (
      <div style={box}>
        <Notice
          type="error"
          title={
            <span data-testid="approval-state">
              {no?.comment
                ? tt('rejected', { name, comment: no.comment })
                : tt('rejectedNoComment', { name })}
            </span>
          }
        />
        <div style={actions}>{askButton(tt('askAgain'))}</div>
      </div>
    );
  }
  return (
    <div style={box}>
      <Notice
        type="warning"
        title={<span data-testid="approval-state">{tt('needed')}</span>}
        description={
          latest && latest.status !== 'used'
            ? tt('lapsed', { status: tt(`status.${latest.status}` as 'status.expired') })
            : tt('neededHelp')
        }
      />
      <div style={actions}>{askButton(tt('ask'))}</div>
    </div>
  );
}
