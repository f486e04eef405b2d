import Tag from 'antd/es/tag';
import { useLocation } from 'react-router-dom';
import type { ApprovalKind, ApprovalStatus, ApprovalSummary } from '@/api/approval.ts';
import { sealImageSrc } from '@/api/seal.ts';
import { fillPath, paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { texts } from './texts.ts';

export const useApprovalTexts = () => useTexts(texts);

const STATUS_COLORS: Record<ApprovalStatus, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
  expired: 'default',
  void: 'default',
  used: 'blue',
};

export function StatusTag({ status }: { status: ApprovalStatus }) {
  const tt = useApprovalTexts();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="approval-status">
      {tt(`status.${status}`)}
    </Tag>
  );
}

/** What a request is for: a seal's use (用印) or a launch (发起). */
export function KindTag({ kind }: { kind: ApprovalKind }) {
  const tt = useApprovalTexts();
  return (
    <Tag color={kind === 'launch' ? 'purple' : 'gold'} data-testid="approval-kind">
      {tt(`kind.${kind}`)}
    </Tag>
  );
}

/** The phone routes (/mobile/approvals…) or the workspace ones: links stay on the device's own routes. */
export function useApprovalRoutes() {
  const isPhone = useLocation().pathname.startsWith('/mobile/');
  return {
    isPhone,
    list: isPhone ? paths.mobileApprovals : paths.manageApprovals,
    detail: (approvalId: string) =>
      fillPath(isPhone ? paths.mobileApprovalDetail : paths.manageApprovalDetail, { approvalId }),
  };
}

export function SealImage({ url, name, size = 56 }: { url: string; name: string; size?: number }) {
  return (
    <img
      src={sealImageSrc(url)}
      alt={name}
      width={size}
      height={size}
      style={{ objectFit: 'contain', flex: 'none' }}
    />
  );
}

/** Who asked and when, and (while pending or approved) until when it holds. */
export function RequestLine({ a, withRequester = false }: { a: ApprovalSummary; withRequester?: boolean }) {
  const tt = useApprovalTexts();
  const locale = useI18nStore((s) => s.locale);
  const parts = [
    withRequester ? tt('requester', { name: a.requesterName ?? a.requesterPhoneMasked }) : null,
    tt('createdAt', { time: formatTime(a.createdAt, locale) }),
    a.status === 'pending' || (a.status === 'approved' && a.kind === 'seal')
      ? tt(a.status === 'pending' ? 'expires' : 'validUntil', { time: formatTime(a.expiresAt, locale) })
      : null,
  ];
  return <span className="approval-muted">{parts.filter(Boolean).join(' · ')}</span>;
}

/** Amounts in yuan as a contract states them (two decimals, thousands grouped). */
const YUAN = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const formatAmount = (amount: number) => YUAN.format(amount);

export const APPROVAL_STYLES = `
.approval-page { padding: 16px; max-width: 1080px; margin: 0 auto; box-sizing: border-box; }
.approval-page h1 { font-size: 22px; margin: 0 0 12px; }
.approval-list { display: flex; flex-direction: column; gap: 10px; margin-top: 8px; }
.approval-item { display: flex; gap: 12px; align-items: center; border: 1px solid #eee; border-radius: 8px;
  padding: 12px; background: #fff; cursor: pointer; text-align: left; width: 100%; font: inherit; }
.approval-item:hover { border-color: #ec1c23; }
.approval-item-body { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 2px; }
.approval-item-title { font-weight: 600; overflow-wrap: anywhere; }
.approval-muted { color: #888; font-size: 12px; overflow-wrap: anywhere; }
.approval-detail { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 16px; align-items: start; }
.approval-side { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
.approval-box { background: #fff; border: 1px solid #eee; border-radius: 8px; padding: 12px; }
.approval-box h2 { font-size: 15px; margin: 0 0 8px; }
.approval-facts { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 4px 12px; margin: 0; }
.approval-facts dt { color: #888; }
.approval-facts dd { margin: 0; overflow-wrap: anywhere; }
.approval-actions { display: flex; gap: 8px; margin-top: 8px; }
.approval-actions > * { flex: 1; }
@media (max-width: 800px) {
  .approval-page { padding: 12px; }
  .approval-detail { grid-template-columns: minmax(0, 1fr); }
}
`;

export function ApprovalStyles() {
  return <style>{APPROVAL_STYLES}</style>;
}
