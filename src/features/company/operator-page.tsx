import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import {
  type Member,
  type MemberStatus,
  addCompanyOperator,
  approveJoinCompany,
  disableCompanyOperator,
  enableCompanyOperator,
  getCompanyMemberList,
  previewHandover,
  removeCompanyOperator,
  transferCompanyAdmin,
} from '@/api/company.ts';
import { Pager } from '@/components/pager.tsx';
import { defineTexts, useTexts } from '@/i18n/i18n-store.ts';
import { exportSheet } from '@/lib/export-sheet.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { INVITATION_LIFETIME_DAYS } from '#contract/rules/company.ts';
import { invitationTexts } from './invitation-texts.ts';
import { InvitationsCard } from './invitations-card.tsx';
import { StatusTag, useAction, useCompanyTexts } from './parts.tsx';
import { HandoverModal, MemberRoleTags, RolesModal, rolesText, useRoleTexts } from './roles-section.tsx';

const STATUSES: MemberStatus[] = ['pending', 'active', 'disabled', 'rejected'];
const exportTexts = defineTexts({
  'en-US': { export: 'Export', sheet: 'members' },
  'zh-CN': { export: '导出', sheet: '成员' },
});

/**
 * /manage/account/operator: the administrator's list of members (search, state filter, Pager), join
 * requests to approve or reject, operators to invite by phone (issue 6: they become operators only by
 * accepting; the invitations and the audit trail below), disable, enable, remove, and the hand-over of the
 * administrator role. Issue 27: each member's roles and the legal representative as tags, the role editor
 * (with the seals a keeper keeps), and the hand-over of a member's work (offered too when removing a member
 * with open work). Every action is checked again by the server (602 for non-administrators).
 */
export default function OperatorPage() {
  const tt = useCompanyTexts();
  const setVerified = useSessionStore((s) => s.setVerified);
  const [query, setQuery] = useState<{ keyword?: string; status?: MemberStatus; pageNum: number }>({
    pageNum: 1,
  });
  const [page, setPage] = useState<{ list: Member[]; total: number }>({ list: [], total: 0 });
  const [isLoading, setIsLoading] = useState(false);
  const [isAdding, setIsAdding] = useState(false);
  const { isBusy, run } = useAction();
  const [addForm] = Form.useForm<{ phone: string }>();
  const te = useTexts(exportTexts);
  const ti = useTexts(invitationTexts);
  const [invitationsVersion, setInvitationsVersion] = useState(0);
  const tr = useRoleTexts();
  // The member whose roles are edited, and the hand-over under way (with the removal it precedes, if any).
  const [editing, setEditing] = useState<Member | null>(null);
  const [handingOver, setHandingOver] = useState<{
    from: Member;
    thenRemove?: () => Promise<unknown>;
  } | null>(null);

  // Every member matching the current search and state, not only this page (the shared export helper).
  const doExport = () =>
    run(async () => {
      const rows: Member[] = [];
      for (let pageNum = 1; ; pageNum++) {
        const res = await getCompanyMemberList({
          keyword: query.keyword,
          status: query.status,
          pageNum,
          pageSize: 100,
        });
        rows.push(...res.list);
        if (res.list.length < 100 || rows.length >= res.total) break;
      }
      await exportSheet(
        te('sheet'),
        [
          { title: tt('name'), value: (m) => m.name },
          { title: tt('phone'), value: (m) => m.phone },
          { title: tt('role'), value: (m) => rolesText(m, tr) },
          { title: tt('status'), value: (m) => tt(`status_${m.status}`) },
        ],
        rows,
      );
    });

  const load = useCallback(async () => {
    setIsLoading(true);
    try {
      setPage(await getCompanyMemberList({ ...query, pageSize: DEFAULT_PAGE_SIZE }));
    } catch {
      // refusals (602, not acting for a company) were already shown by the transport or below
    } finally {
      setIsLoading(false);
    }
  }, [query]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = (action: () => Promise<unknown>, after?: () => void) =>
    run(async () => {
      await action();
      notify.success(tt('done'), 2000);
      after?.();
      await load();
    });

  /** Removing a member with open work offers the hand-over first (the server's preview says what is open). */
  const remove = (m: Member) =>
    run(async () => {
      const work = await previewHandover({ fromUserId: m.userId });
      const hasWork =
        work.flows + work.parties + work.templates + work.sealAuthorisations + work.sealKeepings > 0 ||
        Object.values(work.other).some((n) => n > 0);
      const doRemove = () => removeCompanyOperator({ memberId: m.memberId });
      if (hasWork) setHandingOver({ from: m, thenRemove: doRemove });
      else await act(doRemove);
    });

  const actions = (m: Member) => {
    const editRoles =
      m.status === 'active' ? (
        <Button size="small" onClick={() => setEditing(m)}>
          {tr('editRoles')}
        </Button>
      ) : null;
    if (m.role === 'admin') return editRoles;
    const id = { memberId: m.memberId };
    return (
      <Space wrap size={4}>
        {editRoles}
        {m.status !== 'pending' && m.status !== 'rejected' && (
          <Button size="small" onClick={() => setHandingOver({ from: m })}>
            {tr('handOverWork')}
          </Button>
        )}
        {m.status === 'pending' && (
          <>
            <Button
              size="small"
              type="primary"
              onClick={() => void act(() => approveJoinCompany({ ...id, isApproved: true }))}
            >
              {tt('approve')}
            </Button>
            <Button
              size="small"
              onClick={() => void act(() => approveJoinCompany({ ...id, isApproved: false }))}
            >
              {tt('reject')}
            </Button>
          </>
        )}
        {m.status === 'active' && (
          <Button size="small" onClick={() => void act(() => disableCompanyOperator(id))}>
            {tt('disable')}
          </Button>
        )}
        {m.status === 'disabled' && (
          <Button size="small" onClick={() => void act(() => enableCompanyOperator(id))}>
            {tt('enable')}
          </Button>
        )}
        {m.status === 'active' && (
          <Popconfirm
            title={tt('confirmHandOver')}
            okText={tt('ok')}
            cancelText={tt('cancel')}
            onConfirm={() => act(async () => setVerified(await transferCompanyAdmin(id)))}
          >
            <Button size="small">{tt('handOver')}</Button>
          </Popconfirm>
        )}
        <Popconfirm
          title={tt('confirmRemove')}
          okText={tt('ok')}
          cancelText={tt('cancel')}
          onConfirm={() => remove(m)}
        >
          <Button size="small" danger>
            {tt('remove')}
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  return (
    <Card title={tt('operatorTitle')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label={tt('searchKeyword')}
          placeholder={tt('memberSearchHint')}
          allowClear
          onSearch={(keyword) =>
            setQuery((q) => ({ ...q, keyword: keyword.trim() || undefined, pageNum: 1 }))
          }
          style={{ width: 240 }}
        />
        <Select
          aria-label={tt('status')}
          style={{ width: 160 }}
          value={query.status ?? 'all'}
          onChange={(v) =>
            setQuery((q) => ({ ...q, status: v === 'all' ? undefined : (v as MemberStatus), pageNum: 1 }))
          }
          options={[
            { value: 'all', label: tt('allStatuses') },
            ...STATUSES.map((s) => ({ value: s, label: tt(`status_${s}`) })),
          ]}
        />
        <Button type="primary" onClick={() => setIsAdding(true)}>
          {ti('invite')}
        </Button>
        <Button disabled={page.total === 0} onClick={() => void doExport()}>
          {te('export')}
        </Button>
      </Space>
      <Table<Member>
        rowKey="memberId"
        loading={isLoading || isBusy}
        dataSource={page.list}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: tt('name'), dataIndex: 'name', render: (v: string | null) => v ?? '—' },
          { title: tt('phone'), dataIndex: 'phone' },
          { title: tt('role'), key: 'roles', render: (_: unknown, m) => <MemberRoleTags member={m} /> },
          { title: tt('status'), dataIndex: 'status', render: (s: MemberStatus) => <StatusTag status={s} /> },
          { title: tt('actions'), key: 'actions', render: (_: unknown, m) => actions(m) },
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <Pager
          total={page.total}
          current={query.pageNum}
          onChange={(pageNum) => setQuery((q) => ({ ...q, pageNum }))}
        />
      </div>
      <Modal
        open={isAdding}
        title={ti('invite')}
        okText={tt('ok')}
        cancelText={tt('cancel')}
        confirmLoading={isBusy}
        onCancel={() => setIsAdding(false)}
        onOk={() => addForm.submit()}
        destroyOnHidden
      >
        <Form
          form={addForm}
          name="addOperator"
          layout="vertical"
          onFinish={({ phone }) =>
            run(async () => {
              const invitation = await addCompanyOperator({ phone: phone.trim() });
              notify.success(ti('invited', { phone: invitation.phone }), 2000);
              setIsAdding(false);
              addForm.resetFields();
              setInvitationsVersion((v) => v + 1);
            })
          }
        >
          <p>{ti('inviteHelp', { days: INVITATION_LIFETIME_DAYS })}</p>
          <Form.Item
            name="phone"
            label={tt('phone')}
            rules={[{ required: true, pattern: /^1\d{10}$/, message: tt('phoneFormat') }]}
          >
            <Input inputMode="tel" maxLength={11} />
          </Form.Item>
        </Form>
      </Modal>
      {editing ? (
        <RolesModal
          member={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setInvitationsVersion((v) => v + 1);
            void load();
          }}
        />
      ) : null}
      {handingOver ? (
        <HandoverModal
          from={handingOver.from}
          thenRemove={handingOver.thenRemove}
          onClose={() => setHandingOver(null)}
          onDone={() => {
            setHandingOver(null);
            setInvitationsVersion((v) => v + 1);
            void load();
          }}
        />
      ) : null}
      <InvitationsCard key={invitationsVersion} onChanged={() => void load()} />
    </Card>
  );
}
