// Texts of copy recipients (抄送, issue 29), in both languages.
import type { Text } from '../../http/texts.ts';

export const CC = {
  tooMany: (limit: number): Text => ({
    en: `at most ${limit} copy recipients per contract`,
    zh: `每份合同最多 ${limit} 位抄送人`,
  }),
  phoneTwice: (name: string): Text => ({
    en: `copy recipient ${name}: this phone is already a copy recipient of the contract`,
    zh: `抄送人 ${name}：该手机号已是本合同的抄送人`,
  }),
  isSigner: (name: string): Text => ({
    en: `copy recipient ${name}: this phone is a signer of the contract, who receives it anyway`,
    zh: `抄送人 ${name}：该手机号是本合同的签署人，无需抄送`,
  }),
  linkInvalid: {
    en: 'this copy link is not valid; open the link of your latest message',
    zh: '抄送链接无效，请打开最新消息中的链接',
  } as Text,
  flowEnded: {
    en: 'the contract has ended: copy recipients can no longer be added',
    zh: '合同已结束，不能再添加抄送人',
  } as Text,
  noDocuments: {
    en: 'the contract was not completed (cancelled, declined or expired): its documents are not available to copy recipients',
    zh: '合同未完成（已撤销、拒签或过期），抄送人不能查看其文件',
  } as Text,
  reportNotYet: {
    en: 'the audit report exists once the contract is completed',
    zh: '合同完成后才有审计报告',
  } as Text,
};

/** A notice to a copy recipient: its /message title and its text (the link follows the text). */
export function ccNotice(
  kind: 'launched' | 'signed' | 'completed',
  f: { title: string; who: string; signer?: string },
): { title: string; text: string } {
  if (kind === 'launched')
    return {
      title: `抄送 Copied to you: ${f.title}`,
      text: `【电子签章】${f.who}发起了《${f.title}》并抄送给您，可打开链接查看签署进度。 [e-Sign] ${f.who} copied you on "${f.title}". Open the link to follow it:`,
    };
  if (kind === 'signed')
    return {
      title: `抄送进度 Progress: ${f.title}`,
      text: `【电子签章】抄送给您的《${f.title}》：${f.signer}已签署。 [e-Sign] "${f.title}", copied to you: ${f.signer} has signed. Open the link to follow it:`,
    };
  return {
    title: `抄送 已完成 Completed: ${f.title}`,
    text: `【电子签章】${f.who}抄送给您的《${f.title}》已完成签署，可打开链接查看和下载。 [e-Sign] "${f.title}", copied to you by ${f.who}, is completed. Open the link to view and download it:`,
  };
}
