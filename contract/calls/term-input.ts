// A contract's own term as the launcher gives it (issue 29): at launch (launchFlow, launchTemplateFlow) and when
// editing it later (setFlowTerm, contract/calls/term.ts). Kept apart (zod only) so flow.ts and template.ts can
// carry it without importing term.ts, which imports them.
import { z } from 'zod';
import { bi } from '../bilingual.ts';

import { TERM_MAX_PEOPLE, TERM_REMIND_DAYS } from '../rules/term.ts';

export { TERM_MAX_PEOPLE, TERM_REMIND_DAYS };

const zDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, bi('a date is YYYY-MM-DD', '日期格式为 YYYY-MM-DD'))
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: bi('not a real date', '不是有效的日期'),
    },
  );

export const zTermPerson = z.object({
  phone: z.string().regex(/^1\d{10}$/, bi('enter a mobile number of 11 digits', '请输入 11 位手机号')),
  name: z.string().trim().max(40).optional(),
});

/** Start and end (Beijing calendar days; the end after the start), reminder days, people told besides the launcher. */
export const zTermInput = z
  .object({
    startsOn: zDay,
    endsOn: zDay,
    remindDays: z
      .array(z.union(TERM_REMIND_DAYS.map((d) => z.literal(d))))
      .max(3)
      .default([...TERM_REMIND_DAYS]),
    remindPeople: z.array(zTermPerson).max(TERM_MAX_PEOPLE, bi('at most 5 people', '最多 5 人')).default([]),
  })
  .refine((t) => t.endsOn > t.startsOn, {
    message: bi('the end date must be after the start date', '到期日必须晚于生效日'),
    path: ['endsOn'],
  })
  .refine((t) => new Set(t.remindPeople.map((p) => p.phone)).size === t.remindPeople.length, {
    message: bi('the same phone twice', '手机号重复'),
    path: ['remindPeople'],
  });
export type TermInput = z.infer<typeof zTermInput>;
/** As a caller may send it (the defaults not applied yet). */
export type TermInputIn = z.input<typeof zTermInput>;
