// Copy recipients (抄送, issue 29) as a launch names them: apart from contract/calls/cc.ts so that the launch
// calls (flow.ts, template.ts) can take them without importing the CC calls.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { zPhone } from './session.ts';
import { CC_LIMIT } from '../rules/cc.ts';

export { CC_LIMIT };

/** One copy recipient: never signs; receives the finished contract (and, with notifyProgress, each step). */
export const zCcInput = z.object({
  name: z.string().trim().min(1, bi('enter the copy recipient name', '请输入抄送人姓名')).max(32),
  phone: zPhone,
  /** Told at launch and at each party's signature too, besides the finished contract. */
  notifyProgress: z.boolean().default(false),
});
export type CcInput = z.input<typeof zCcInput>;

/** The launch's list; the server refuses more than CC_LIMIT or a phone twice (1100, naming the recipient). */
export const zCcList = z.array(zCcInput).max(100);
