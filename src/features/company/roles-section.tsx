import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import {
  type HandoverCounts,
  type Member,
  type MemberRole,
  getCompanyStaffList,
  handOverMember,
  previewHandover,
  setCompanyMemberRoles,
} from '@/api/company.ts';
import { type Seal, getUserCertSealList, setSealKeepers } from '@/api/seal.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { roleTexts } from './roles-texts.ts';
import { useAction } from './parts.tsx';

// Company roles (issue 27) on the operator page and the staff list: each member's roles and the legal
// representative as tags, the administrator's role editor (with the seals a keeper keeps) and the hand-over.

export const useRoleTexts = () => useTexts(roleTexts);
type RoleT = ReturnType<typeof useRoleTexts>;

const GRANTED: Exclude<MemberRole, 'admin'>[] = ['handler', 'seal_keeper', 'approver'];
const ROLE_COLORS: Record<MemberRole, string> = {
  admin: 'red',
  handler: 'blue',
  seal_keeper: 'purple',
  approver: 'cyan',
};

type RolesOf = Pick<Member, 'role' | 'roles' | 'isLegalRep'>;
const rolesOf = (m: RolesOf): MemberRole[] => m.roles ?? (m.role === 'admin' ? ['admin'] : []);

/** A member's roles (and the legal representative) in words, for an exported sheet. */
export const rolesText = (m: RolesOf, tr: RoleT) =>
  [...rolesOf(m).map((r) => tr(`r_${r}`)), ...(m.isLegalRep ? [tr('legalRep')] : [])].join(tr('sep'));

/** A member's roles as tags, and the legal representative's badge. */
export function MemberRoleTags({ member }: { member: RolesOf }) {
  const tr = useRoleTexts();
  const roles = rolesOf(member);
  return (
    <Space size={[4, 4]} wrap>
      {roles.map((r) => (
        <Tag key={r} color={ROLE_COLORS[r]}>
          {tr(`r_${r}`)}
        </Tag>
      ))}
      {member.isLegalRep ? <Tag color="gold">{tr('legalRep')}</Tag> : null}
    </Space>
  );
}

const COUNT_KEYS = ['flows', 'parties', 'templates', 'sealAuthorisations', 'sealKeepings'] as const;
/** Kinds other modules move (seal approval, authorisation letters): named in words too. */
const OTHER_KEYS = ['approvalRules', 'approvalRequests', 'memberLetters'] as const;
const isOtherKey = (k: string): k is (typeof OTHER_KEYS)[number] =>
  (OTHER_KEYS as readonly string[]).includes(k);

/** What a hand-over moves, in words ('' when nothing). */
export function countsSummary(counts: Partial<HandoverCounts>, tr: RoleT): string {
  const parts = COUNT_KEYS.filter((k) => (counts[k] ?? 0) > 0).map((k) =>
    tr(`c_${k}`, { n: counts[k] ?? 0 }),
  );
  for (const [kind, n] of Object.entries(counts.other ?? {}))
    if (n > 0) parts.push(isOtherKey(kind) ? tr(`c_${kind}`, { n }) : tr('c_other', { n, kind }));
  return parts.join(tr('sep'));
}

/** The detail of an audit-trail entry in words: a role's name, a seal's name, a hand-over's receiver and counts. */
export function eventDetailText(kind: string, detail: Record<string, unknown> | null, tr: RoleT): string {
  if (!detail) return '—';
  if ((kind === 'role_granted' || kind === 'role_revoked') && typeof detail.role === 'string')
    return tr(`r_${detail.role as MemberRole}`);
  if (kind.startsWith('seal_keeper_') && typeof detail.sealName === 'string') return detail.sealName;
  // A launch approval (issue 27) names the contract, not a seal.
  if (kind === 'approval_requested' && detail.kind === 'launch')
    return tr('launchApproval', { title: String(detail.flowTitle ?? '') });
  if (kind === 'handover')
    return `${tr('handoverTo', { name: String(detail.toName ?? '—') })} · ${
      countsSummary(detail as Partial<HandoverCounts>, tr) || tr('nothingToMove')
    }`;
  return Object.values(detail)
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' · ');
}

const hasWork = (c: HandoverCounts) =>
  COUNT_KEYS.some((k) => c[k] > 0) || Object.values(c.other).some((n) => n > 0);

/**
 * The administrator's role editor for one member: the granted roles as checkboxes and, for a seal keeper, the
 * company seals they keep. Removing the handler role from a member with open work asks once more.
 */
export function RolesModal({
  member,
  onClose,
  onSaved,
}: {
  member: Member;
  onClose: () => void;
  onSaved: () => void;
}) {
  const tr = useRoleTexts();
  const { isBusy, run } = useAction();
  const [roles, setRoles] = useState<MemberRole[]>((member.roles ?? []).filter((r) => r !== 'admin'));
  const [seals, setSeals] = useState<Seal[]>([]);
  const [kept, setKept] = useState<string[]>([]);
  const [openWork, setOpenWork] = useState<string | null>(null);
  const name = member.name ?? member.phone;

  useEffect(() => {
    getUserCertSealList({})
      .then((list) => {
        setSeals(list.seals);
        setKept(list.seals.filter((s) => s.keeperUserIds?.includes(member.userId)).map((s) => s.id));
      })
      .catch(() => setSeals([]));
  }, [member.userId]);

  const save = () =>
    run(async () => {
      const dropsHandler = (member.roles ?? []).includes('handler') && !roles.includes('handler');
      if (dropsHandler && openWork === null) {
        const counts = await previewHandover({ fromUserId: member.userId });
        if (hasWork(counts)) {
          setOpenWork(countsSummary(counts, tr));
          return;
        }
      }
      const granted = GRANTED.filter((r) => roles.includes(r));
      await setCompanyMemberRoles({ userId: member.userId, roles: granted });
      const keeps = granted.includes('seal_keeper') ? kept : [];
      for (const s of seals) {
        const before = s.keeperUserIds ?? [];
        const was = before.includes(member.userId);
        const now = keeps.includes(s.id);
        if (was === now) continue;
        await setSealKeepers({
          sealId: s.id,
          userIds: now ? [...before, member.userId] : before.filter((id) => id !== member.userId),
        });
      }
      notify.success(tr('saved'), 2000);
      onSaved();
    });

  return (
    <Modal
      open
      title={tr('editRolesTitle', { name })}
      okText={tr('save')}
      confirmLoading={isBusy}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p style={{ color: '#666' }}>{tr('rolesHelp')}</p>
      <Checkbox.Group
        aria-label={tr('roles')}
        style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
        value={roles}
        onChange={(v) => {
          setRoles(v as MemberRole[]);
          setOpenWork(null);
        }}
        options={GRANTED.map((r) => ({ value: r, label: tr(`r_${r}`) }))}
      />
      {roles.includes('seal_keeper') ? (
        <div style={{ marginTop: 12 }}>
          <div style={{ marginBottom: 4 }}>{tr('keptSeals')}</div>
          {seals.length === 0 ? (
            <span style={{ color: '#999' }}>{tr('noSeals')}</span>
          ) : (
            <Select
              mode="multiple"
              aria-label={tr('keptSeals')}
              style={{ width: '100%' }}
              value={kept}
              onChange={setKept}
              options={seals.map((s) => ({ value: s.id, label: s.name }))}
            />
          )}
        </div>
      ) : null}
      {openWork ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          title={tr('dropHandlerWork', { name, summary: openWork })}
        />
      ) : null}
    </Modal>
  );
}

/**
 * The hand-over of a member's work: a receiver among the active contract handlers, what will move (the
 * server's preview), then one step. With `thenRemove` (removing a member who has open work) the member is
 * removed after, or without handing over.
 */
export function HandoverModal({
  from,
  thenRemove,
  onClose,
  onDone,
}: {
  from: Member;
  thenRemove?: () => Promise<unknown>;
  onClose: () => void;
  onDone: () => void;
}) {
  const tr = useRoleTexts();
  const { isBusy, run } = useAction();
  const [receivers, setReceivers] = useState<Member[] | null>(null);
  const [toUserId, setToUserId] = useState<string | undefined>();
  const [counts, setCounts] = useState<HandoverCounts | null>(null);
  const name = from.name ?? from.phone;

  useEffect(() => {
    getCompanyStaffList({})
      .then((list) =>
        setReceivers(list.filter((m) => m.userId !== from.userId && (m.roles ?? []).includes('handler'))),
      )
      .catch(() => setReceivers([]));
    previewHandover({ fromUserId: from.userId })
      .then(setCounts)
      .catch(() => setCounts(null));
  }, [from.userId]);

  const summary = counts ? countsSummary(counts, tr) : '';
  const handOver = () =>
    run(async () => {
      if (!toUserId) {
        notify.error(tr('receiverRequired'), 2000);
        return;
      }
      const moved = await handOverMember({ fromUserId: from.userId, toUserId });
      notify.success(tr('handedOver', { summary: countsSummary(moved, tr) || tr('nothingToMove') }), 2000);
      if (thenRemove) await thenRemove();
      onDone();
    });
  const removeOnly = () =>
    run(async () => {
      await thenRemove?.();
      onDone();
    });

  return (
    <Modal
      open
      title={tr('handOverTitle', { name })}
      okText={thenRemove ? tr('handOverAndRemove') : tr('handOverOk')}
      okButtonProps={{ disabled: !toUserId }}
      confirmLoading={isBusy}
      onOk={() => void handOver()}
      onCancel={onClose}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          <CancelBtn />
          {thenRemove ? (
            <Button danger onClick={() => void removeOnly()}>
              {tr('removeAnyway')}
            </Button>
          ) : null}
          <OkBtn />
        </>
      )}
      destroyOnHidden
    >
      {thenRemove && summary ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={tr('removeHasWork', { name, summary })}
        />
      ) : (
        <p style={{ color: '#666' }}>{tr('handOverHelp')}</p>
      )}
      <div style={{ marginBottom: 4 }}>{tr('receiver')}</div>
      {receivers && receivers.length === 0 ? (
        <span style={{ color: '#999' }}>{tr('noReceivers')}</span>
      ) : (
        <Select
          aria-label={tr('receiver')}
          style={{ width: '100%' }}
          value={toUserId}
          onChange={setToUserId}
          loading={receivers === null}
          options={(receivers ?? []).map((m) => ({
            value: m.userId,
            label: `${m.name ?? '—'} (${m.phone})`,
          }))}
        />
      )}
      <p style={{ marginTop: 12 }} data-testid="handover-summary">
        {summary ? tr('willMove', { summary }) : tr('nothingToMove')}
      </p>
    </Modal>
  );
}
