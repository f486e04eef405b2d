import type { Text } from '../../http/texts.ts';

/** Texts of void by agreement (issue 29), in both languages. */
export const R = {
  notCompleted: {
    en: 'only a completed contract can be voided by agreement',
    zh: '只有已完成的合同才能协议作废',
  },
  alreadyVoided: { en: 'this contract is already voided by agreement', zh: '该合同已协议作废' },
  isRescission: {
    en: 'a rescission agreement cannot itself be voided by agreement',
    zh: '解除协议本身不能再协议作废',
  },
  alreadyOpen: {
    en: 'a rescission agreement of this contract is being signed: wait for it to end first',
    zh: '该合同已有正在签署的解除协议，请等待其结束',
  },
  onlyLauncher: {
    en: 'only the account that launched the contract can void it by agreement',
    zh: '只有发起该合同的账号才能发起协议作废',
  },
  title: (original: string): string => `解除协议 · ${original}`.slice(0, 100),
  fileName: (original: string): string => `解除协议-${original.replace(/[\\/]/g, '_').slice(0, 180)}.pdf`,
  voidedDetail: (rescissionId: string, title: string): string =>
    `voided by agreement: rescission flow ${rescissionId} (${title}) completed`,
  requestedDetail: (rescissionId: string, reason: string): string =>
    `rescission agreement launched: flow ${rescissionId} · reason: ${reason}`.slice(0, 300),
} satisfies Record<string, Text | ((...a: string[]) => string)>;
