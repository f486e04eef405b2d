// Fields a signer fills in the signing room (issue 28): the kinds, their limits and the one check of a value
// that the room (as the signer types) and the server (before it writes the value into the PDF) both run, so a
// value the room accepts is never refused by the server and the other way round.
import { bi } from '../bilingual.ts';
import { checkIdNumber, ID_NUMBER_PROBLEM_TEXT } from './id-number.ts';

/**
 * - text: one line; multiline: several lines (a notes box);
 * - number: optional minus, digits, optional decimals;
 * - date: a YYYY-MM-DD date the signer chooses; signDate: the signing date, filled by the server when the party
 *   signs (the signer does not type it);
 * - checkbox: ticked or not (a required checkbox must be ticked: "I have read ...");
 * - radio / select: one of the field's options (a radio group shows them all, a select a drop-down);
 * - idNumber: a mainland resident ID number (18 characters, check digit); phone: a mainland mobile number;
 * - attachment: an image (PNG, JPEG) or a PDF the signer uploads, kept with the flow; the PDF shows its name.
 */
export const FIELD_KINDS = [
  'text',
  'multiline',
  'number',
  'date',
  'signDate',
  'checkbox',
  'radio',
  'select',
  'idNumber',
  'phone',
  'attachment',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Kinds that need `options` (2 to FIELD_OPTIONS_MAX of them). */
export const CHOICE_KINDS: readonly FieldKind[] = ['radio', 'select'];
/** Kinds whose value the signer does not type (the server fills signDate; attachment is an upload). */
export const NOT_TYPED_KINDS: readonly FieldKind[] = ['signDate', 'attachment'];

export const FIELD_LIMITS = {
  /** Characters of a text, idNumber, phone or number value. */
  text: 200,
  /** Characters of a multiline value. */
  multiline: 1000,
  /** Options of a radio group or select, and characters of one option. */
  options: 20,
  optionLength: 40,
  /** Signer fields of one party, and of one flow. */
  perParty: 50,
  perFlow: 200,
  /** Bytes of one attachment. */
  attachmentBytes: 10 * 1024 * 1024,
} as const;

/** Media types an attachment may have (checked on the bytes by the server, not on the name). */
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;

/** A value as the room sends it: text, or a boolean for a checkbox. Attachments are uploaded, not sent. */
export type FieldValue = string | boolean;

/** What the check needs of a field. */
export type FieldRule = { kind: FieldKind; isRequired: boolean; options?: readonly string[] | null };

export const FieldProblem = {
  Required: 'required',
  TooLong: 'tooLong',
  NotNumber: 'notNumber',
  NotDate: 'notDate',
  NotOption: 'notOption',
  NotPhone: 'notPhone',
  IdNumber: 'idNumber',
  WrongType: 'wrongType',
  NotTyped: 'notTyped',
} as const;
export type FieldProblem = (typeof FieldProblem)[keyof typeof FieldProblem];

/** English text of each problem (its Chinese registered with bi); idNumber problems name the ID rule broken. */
export const FIELD_PROBLEM_TEXT: Record<Exclude<FieldProblem, 'idNumber'>, string> = {
  required: bi('this field is required', '此项为必填项'),
  tooLong: bi('the value is too long', '内容过长'),
  notNumber: bi('enter a number', '请输入数字'),
  notDate: bi('enter a real date as YYYY-MM-DD', '请输入有效日期（YYYY-MM-DD）'),
  notOption: bi('choose one of the options', '请选择一个选项'),
  notPhone: bi('enter an 11-digit mainland mobile number', '请输入 11 位中国大陆手机号码'),
  wrongType: bi('the value has the wrong type', '内容类型不正确'),
  notTyped: bi('this field is not typed in', '此项无需填写'),
};

const NUMBER = /^-?\d{1,15}(\.\d{1,6})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PHONE = /^1\d{10}$/;

function isRealDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** The outcome of checking one value: the value to keep (trimmed, ID number upper-cased) or the problem. */
export type FieldCheck =
  | { ok: true; value: FieldValue | null }
  | { ok: false; problem: FieldProblem; message: string };

const fail = (problem: Exclude<FieldProblem, 'idNumber'>): FieldCheck => ({
  ok: false,
  problem,
  message: FIELD_PROBLEM_TEXT[problem],
});

/**
 * Checks a typed value of a field (`null`, `undefined` or '' for none). An empty optional field is ok with
 * value null; an unticked checkbox is `false` (a required checkbox must be true). signDate and attachment are
 * not typed: any value is refused (an empty one is left to `isFieldComplete`). `today` is for ID birth dates.
 */
export function checkFieldValue(
  field: FieldRule,
  raw: FieldValue | null | undefined,
  today: Date = new Date(),
): FieldCheck {
  const empty = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
  if (NOT_TYPED_KINDS.includes(field.kind)) return empty ? { ok: true, value: null } : fail('notTyped');
  if (field.kind === 'checkbox') {
    if (empty) return field.isRequired ? fail('required') : { ok: true, value: false };
    if (typeof raw !== 'boolean') return fail('wrongType');
    if (field.isRequired && !raw) return fail('required');
    return { ok: true, value: raw };
  }
  if (empty) return field.isRequired ? fail('required') : { ok: true, value: null };
  if (typeof raw !== 'string') return fail('wrongType');
  const v = field.kind === 'multiline' ? raw.replace(/\r\n?/g, '\n').trim() : raw.trim();
  const max = field.kind === 'multiline' ? FIELD_LIMITS.multiline : FIELD_LIMITS.text;
  if (v.length > max) return fail('tooLong');
  switch (field.kind) {
    case 'number':
      return NUMBER.test(v) ? { ok: true, value: v } : fail('notNumber');
    case 'date':
      return isRealDate(v) ? { ok: true, value: v } : fail('notDate');
    case 'radio':
    case 'select':
      return (field.options ?? []).includes(v) ? { ok: true, value: v } : fail('notOption');
    case 'phone':
      return PHONE.test(v) ? { ok: true, value: v } : fail('notPhone');
    case 'idNumber': {
      const id = checkIdNumber(v, today);
      return id.ok
        ? { ok: true, value: id.normalised }
        : { ok: false, problem: 'idNumber', message: ID_NUMBER_PROBLEM_TEXT[id.problem] };
    }
    case 'text':
      return /[\n\r]/.test(v) ? fail('wrongType') : { ok: true, value: v };
    default:
      return { ok: true, value: v };
  }
}

/**
 * Whether a field holds what signing needs: a required field has a value (an attachment its upload; a
 * signDate is always complete, the server fills it at signing).
 */
export function isFieldComplete(
  field: FieldRule,
  state: { value: FieldValue | null; hasAttachment?: boolean },
): boolean {
  if (!field.isRequired || field.kind === 'signDate') return true;
  if (field.kind === 'attachment') return !!state.hasAttachment;
  if (field.kind === 'checkbox') return state.value === true;
  return state.value !== null && state.value !== '';
}
