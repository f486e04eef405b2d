// Texts of the contract term, renewals and launch drafts (issue 29), in both languages.
import { countOf } from '#contract/plural.ts';
import type { Text } from '../../http/texts.ts';

export const TT = {
  renewedNotFound: { en: 'the flow to renew was not found', zh: '未找到要续签的合同' },
  renewOnlyCompleted: { en: 'only a completed contract can be renewed', zh: '只有已完成的合同才能续签' },
  termClosed: {
    en: 'the term can be changed only while the contract is signing or completed',
    zh: '只有签署中或已完成的合同可以修改合同期限',
  },
  draftNotFound: { en: 'draft not found', zh: '草稿不存在' },
  draftDocumentUnusable: {
    en: 'a document of the draft is not one of your uploads waiting to be launched',
    zh: '草稿中的文件不是您尚未发起的上传文件',
  },
  tooManyDrafts: (n: number): Text => ({
    en: `you keep ${countOf(n, 'draft', 'drafts')} already: delete one first`,
    zh: `您已有 ${n} 份草稿，请先删除不需要的草稿`,
  }),
  termNotice: (title: string, endsOn: string, daysLeft: number): { title: string; text: string } => ({
    title: `合同即将到期 Contract term ending: ${title}`,
    text:
      `【电子签章】合同《${title}》将于${endsOn}到期（还有${daysLeft}天），如需续签请登录后在合同详情中点击“续签”。` +
      ` [e-Sign] The term of "${title}" ends on ${endsOn} (in ${daysLeft} day${daysLeft === 1 ? '' : 's'}).` +
      ' To renew it, open the contract and choose "Renew".',
  }),
} satisfies Record<string, Text | ((...a: never[]) => unknown)>;
