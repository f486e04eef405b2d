import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import {
  type CompanyEvent,
  type CompanyInvitation,
  type InvitationStatus,
  getCompanyAuditTrail,
  getCompanyInvitationList,
  resendCompanyInvitation,
  withdrawCompanyInvitation,
} from '@/api/company.ts';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { notify } from '@/lib/notify.ts';
import { invitationTexts } from './invitation-texts.ts';
import { useAction, useCompanyTexts } from './parts.tsx';
import { eventDetailText, useRoleTexts } from './roles-section.tsx';

const INVITATION_COLORS: Record<InvitationStatus, string> = {
  pending: 'gold',
  accepted: 'green',
  declined: 'red',
  withdrawn: 'default',
  expired: 'default',
};

export function InvitationTag({ status }: { status: InvitationStatus }) {
  const ti = useTexts(invitationTexts);
  return <Tag color={INVITATION_COLORS[status]}>{ti(`inv_${status}`)}</Tag>;
}

/**
 * The administrator's invitations (issue 6) on the operator page: each with its state (waiting, accepted,
 * declined, withdrawn, expired), withdraw for a waiting one, send again for any not accepted; and the
 * company's audit trail of these steps. The page remounts it (its key) after sending a new invitation.
 */
export function InvitationsCard({ onChanged }: { onChanged: () => void }) {
  const ti = useTexts(invitationTexts);
  const tt = useCompanyTexts();
  const locale = useI18nStore((s) => s.locale);
  const tr = useRoleTexts();
  const [pageNum, setPageNum] = useState(1);
  const [page, setPage] = useState<{ list: CompanyInvitation[]; total: number }>({ list: [], total: 0 });
  const [events, setEvents] = useState<CompanyEvent[]>([]);
  const { isBusy, run } = useAction();

  const load = useCallback(async () => {
    try {
      const [invitations, trail] = await Promise.all([
        getCompanyInvitationList({ pageNum, pageSize: DEFAULT_PAGE_SIZE }),
        getCompanyAuditTrail({ pageNum: 1, pageSize: 20 }),
      ]);
      setPage(invitations);
      setEvents(trail.list);
    } catch {
      // refusals were already shown by the transport (602 for a non-administrator)
    }
  }, [pageNum]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = (action: () => Promise<unknown>) =>
    run(async () => {
      await action();
      notify.success(tt('done'), 2000);
      await load();
      onChanged();
    });

  return (
    <>
      <Card title={ti('invitationsTitle')} style={{ marginTop: 16 }}>
        <Table<CompanyInvitation>
          rowKey="invitationId"
          aria-label={ti('invitationsTitle')}
          loading={isBusy}
          dataSource={page.list}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: ti('noInvitations') }}
          columns={[
            {
              title: tt('phone'),
              dataIndex: 'phone',
              render: (phone: string, i) => (
                <span>
                  {phone} {i.isRegistered ? null : <Tag>{ti('notRegistered')}</Tag>}
                </span>
              ),
            },
            {
              title: tt('status'),
              dataIndex: 'status',
              render: (s: InvitationStatus) => <InvitationTag status={s} />,
            },
            { title: ti('expiresAt'), dataIndex: 'expiresAt', render: (v: string) => formatTime(v, locale) },
            { title: ti('sentCount'), dataIndex: 'sentCount' },
            {
              title: tt('actions'),
              key: 'actions',
              render: (_: unknown, i) => (
                <Space size={4} wrap>
                  {i.status === 'pending' && (
                    <Popconfirm
                      title={ti('confirmWithdraw')}
                      onConfirm={() => act(() => withdrawCompanyInvitation({ invitationId: i.invitationId }))}
                    >
                      <Button size="small">{ti('withdrawInvitation')}</Button>
                    </Popconfirm>
                  )}
                  {i.status !== 'accepted' && (
                    <Button
                      size="small"
                      onClick={() =>
                        void act(() => resendCompanyInvitation({ invitationId: i.invitationId }))
                      }
                    >
                      {ti('sendAgain')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
        <div style={{ marginTop: 16 }}>
          <Pager total={page.total} current={pageNum} onChange={setPageNum} />
        </div>
      </Card>
      <Card title={ti('auditTitle')} style={{ marginTop: 16 }}>
        {events.length === 0 ? <p style={{ color: '#999' }}>{ti('noEvents')}</p> : null}
        <ul aria-label={ti('auditTitle')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {events.map((e) => (
            <li key={e.id} style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}>
              {formatTime(e.createdAt, locale)}{' '}
              {ti(`ev_${e.kind}`, {
                actor: e.actorName ?? '—',
                phone: e.phone ?? '—',
                subject: e.subjectName ?? '—',
                detail: eventDetailText(e.kind, e.detail, tr),
              })}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
