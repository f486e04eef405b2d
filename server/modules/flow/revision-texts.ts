// Texts of revised documents (issue 29), in both languages.
import type { Text } from '../../http/texts.ts';

export const R = {
  notLauncher: { en: 'signing flow not found', zh: '签署流程不存在' },
  documentNotInFlow: { en: 'this document is not in the flow', zh: '该文件不在此签署流程中' },
  revisionNotFound: { en: 'this revision does not exist', zh: '该版本不存在' },
  noFile: { en: 'choose the revised PDF', zh: '请选择修订后的 PDF 文件' },
  heldForApproval: {
    en: 'this flow waits for its launch approval: revise it after it is sent',
    zh: '该流程正在等待发起审批，发送后才能上传修订版',
  },
  uploadTooLarge: (mb: number): Text => ({
    en: `the file is larger than ${mb} MB`,
    zh: `文件超过 ${mb} MB`,
  }),
  signedAlready: (names: string[]): Text => ({
    en: `${names.join(', ')} signed already: a revised document withdraws every signature so far and asks the parties to sign again; confirm to go on`,
    zh: `${names.join('、')}已签署：上传修订版将撤回目前所有签署，并请各方重新签署，请确认后继续`,
  }),
  revisionMoved: {
    en: 'the flow changed meanwhile (signed, revised or ended): reload it and try again',
    zh: '签署流程已发生变化（已签署、已修订或已结束），请刷新后重试',
  },
  sameRevision: { en: 'choose two different revisions', zh: '请选择两个不同的版本' },
  /** The notice every party gets. */
  revisedNotice: (title: string, revision: number, who: string, withdrawn: boolean) => ({
    title: `文件已修订 Revised: ${title}`,
    text:
      `【电子签章】${who}上传了《${title}》的修订版（第 ${revision} 版）${withdrawn ? '，此前的签署已撤回，请重新签署' : ''}，请查看修改内容。` +
      ` [e-Sign] ${who} uploaded revision ${revision} of "${title}"${
        withdrawn ? '; the signatures so far are withdrawn and everyone signs again' : ''
      }. See what changed.`,
  }),
};
