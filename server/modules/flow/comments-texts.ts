// Texts of the comments on a flow (issue 29), in both languages.
import { countOf } from '#contract/plural.ts';
import type { Text } from '../../http/texts.ts';

const ENDED: Record<string, [string, string]> = {
  completed: ['已完成', 'completed'],
  declined: ['已被拒签', 'declined'],
  cancelled: ['已撤销', 'cancelled'],
  expired: ['已过期', 'expired'],
};

export const C = {
  flowEnded: (status: string): Text => {
    const [zh, en] = ENDED[status] ?? ['已结束', 'ended'];
    return {
      en: `this contract is ${en}: comments can no longer be written, resolved or reopened (they stay readable)`,
      zh: `该合同${zh}，不能再发表、解决或重新打开评论（已有评论仍可查看）`,
    };
  },
  notOpenYet: {
    en: 'this contract waits for its launch approval: comments open once it is sent',
    zh: '该合同正在等待发起审批，发送后才能评论',
  },
  threadNotFound: { en: 'no such comment thread in this contract', zh: '该合同中没有这条评论' },
  documentNotFound: { en: 'the document is not one of this contract', zh: '该文件不属于此合同' },
  pageOutOfRange: (pages: number): Text => ({
    en: `the document has ${pages} page${pages === 1 ? '' : 's'}: pin the comment to one of them`,
    zh: `该文件共 ${pages} 页，请将评论固定在其中一页`,
  }),
  pointWithoutPage: {
    en: 'a point (x, y) is pinned on a page: give the page, or neither',
    zh: '坐标点需固定在某一页上：请同时提供页码，或都不提供',
  },
  replyHasNoAnchor: {
    en: 'a reply belongs to its thread: it has no place of its own',
    zh: '回复属于所在的评论，不能单独固定位置',
  },
  tooMany: (perHour: number): Text => ({
    en: `at most ${countOf(perHour, 'comment', 'comments')} an hour on one contract: try again later`,
    zh: `每小时在同一合同上最多发表 ${perHour} 条评论，请稍后再试`,
  }),
  launcher: { en: 'launcher', zh: '发起方' },
  /** The notice to the others in the flow: title and text (both languages, as flow notices are). */
  notice: (who: string, title: string, excerpt: string) => ({
    title: `新评论 New comment: ${title}`,
    text: `【电子签章】${who}在《${title}》上评论：“${excerpt}” [e-Sign] ${who} commented on "${title}": "${excerpt}"`,
  }),
};
