import { defineTexts } from '@/i18n/i18n-store.ts';

/** Texts of copy recipients (抄送, issue 29): the launch card, the flow detail's list and the read-only view. */
export const ccTexts = defineTexts({
  'en-US': {
    cardTitle: 'Copy to (CC)',
    cardHint:
      'Copy recipients do not sign. They receive the finished contract by a read-only link; with "progress" also the launch and each signature. At most {n}.',
    name: 'Name',
    phone: 'Mobile phone',
    progress: 'Progress too',
    add: 'Add a copy recipient',
    remove: 'Remove',
    nameMissing: 'Enter the name of copy recipient {n}',
    phoneInvalid: 'Copy recipient {n}: the phone must be an 11-digit mainland mobile number',
    phoneTwice: 'Copy recipient {n}: this phone is given twice',
    listTitle: 'Copy recipients',
    none: 'No copy recipient.',
    lastViewed: 'viewed {time}',
    neverViewed: 'not viewed yet',
    progressTag: 'progress',
    save: 'Add',
    added: 'Copy recipient added',
    tabCopied: 'Copied to me',
    emptyCopied: 'No contract was copied to you yet.',
    open: 'View',
    viewTitle: 'Copied to you',
    viewHello: '{name}, this contract was copied to you. You can view it here; you do not sign it.',
    from: 'From {name}',
    parties: 'Parties',
    step: 'Step {n}',
    documents: 'Documents',
    downloadSigned: 'Download the signed {name}',
    downloadCurrent: 'Download {name} (being signed)',
    downloadReport: 'Download the audit report',
    noDocuments: 'The contract was not completed: its documents are not available.',
    loading: 'Loading…',
    'status.draft': 'Draft',
    'status.signing': 'Being signed',
    'status.completed': 'Completed',
    'status.declined': 'Declined',
    'status.expired': 'Expired',
    'status.cancelled': 'Cancelled',
    'party.waiting': 'Waiting',
    'party.pending': 'To sign',
    'party.signed': 'Signed',
    'party.declined': 'Declined',
    'party.closed': 'Closed',
  },
  'zh-CN': {
    cardTitle: '抄送',
    cardHint:
      '抄送人不签署，合同完成后通过只读链接收到合同；勾选“进度”的还会收到发起和每一方签署的通知。最多 {n} 位。',
    name: '姓名',
    phone: '手机号',
    progress: '接收进度',
    add: '添加抄送人',
    remove: '删除',
    nameMissing: '请输入第 {n} 位抄送人的姓名',
    phoneInvalid: '第 {n} 位抄送人：手机号须为 11 位中国大陆手机号码',
    phoneTwice: '第 {n} 位抄送人：手机号重复',
    listTitle: '抄送人',
    none: '无抄送人。',
    lastViewed: '{time} 查看过',
    neverViewed: '尚未查看',
    progressTag: '接收进度',
    save: '添加',
    added: '已添加抄送人',
    tabCopied: '抄送我的',
    emptyCopied: '还没有抄送给您的合同。',
    open: '查看',
    viewTitle: '抄送给我的合同',
    viewHello: '{name}，这份合同抄送给您，您可以在此查看，无需签署。',
    from: '发起方：{name}',
    parties: '签署方',
    step: '第 {n} 步',
    documents: '文件',
    downloadSigned: '下载已签署的 {name}',
    downloadCurrent: '下载 {name}（签署中）',
    downloadReport: '下载审计报告',
    noDocuments: '合同未完成，文件不可查看。',
    loading: '加载中…',
    'status.draft': '草稿',
    'status.signing': '签署中',
    'status.completed': '已完成',
    'status.declined': '已拒签',
    'status.expired': '已过期',
    'status.cancelled': '已撤销',
    'party.waiting': '等待中',
    'party.pending': '待签署',
    'party.signed': '已签署',
    'party.declined': '已拒签',
    'party.closed': '已关闭',
  },
});

export type CcDraft = { key: string; name: string; phone: string; notifyProgress: boolean };

/** The first problem of a list of copy recipients as typed (the server checks again), or null. */
export function ccDraftProblem(
  list: CcDraft[],
): { key: 'nameMissing' | 'phoneInvalid' | 'phoneTwice'; n: number } | null {
  const seen = new Set<string>();
  for (const [i, c] of list.entries()) {
    if (!c.name.trim()) return { key: 'nameMissing', n: i + 1 };
    if (!/^1\d{10}$/.test(c.phone.trim())) return { key: 'phoneInvalid', n: i + 1 };
    if (seen.has(c.phone.trim())) return { key: 'phoneTwice', n: i + 1 };
    seen.add(c.phone.trim());
  }
  return null;
}

/** The recipients as a launch sends them: trimmed, without the rows' keys; none: undefined (no `cc`). */
export const ccRequest = (list: CcDraft[] | undefined) =>
  list?.length
    ? list.map((c) => ({ name: c.name.trim(), phone: c.phone.trim(), notifyProgress: c.notifyProgress }))
    : undefined;
