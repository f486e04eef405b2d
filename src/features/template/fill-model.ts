// The form of one contract made from a template (home/templateDetail): values by field, a party per role, and
// the checks the server makes too, so the user sees a localised message before any call.
import { checkFieldValue } from '#contract/rules/fields.ts';
import type { IntentCheck } from '@/api/flow.ts';
import {
  isCalendarDate,
  NUMBER_PATTERN,
  type RoleAssignment,
  type TemplateField,
  type TemplateRole,
} from '@/api/template.ts';

export type PartyForm = {
  roleKey: string;
  kind: 'person' | 'company';
  name: string;
  phone: string;
  companyMode: 'own' | 'other';
  companyName: string;
  operatorPhone: string;
  operatorName: string;
  /** The intent check asked right before this party's signature. */
  intent: IntentCheck;
};

const PHONE = /^1\d{10}$/;

/** The fields the initiator gives values for (those a signer fills in the room are not asked). */
export const launchFieldsOf = (fields: TemplateField[]) => fields.filter((f) => f.fillAt !== 'room');

export function initialValues(fields: TemplateField[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const f of fields)
    out[f.key] = f.type === 'checkbox' ? f.defaultValue === 'true' : (f.defaultValue ?? '');
  return out;
}

export function initialParty(role: TemplateRole, hasOwnCompany: boolean): PartyForm {
  return {
    roleKey: role.key,
    kind: role.kind,
    name: '',
    phone: '',
    companyMode: hasOwnCompany ? 'own' : 'other',
    companyName: '',
    operatorPhone: '',
    operatorName: '',
    intent: 'sms',
  };
}

export function partyFromAssignment(a: RoleAssignment, ownCompanyId: string | null): PartyForm {
  if (a.kind === 'person')
    return {
      ...initialParty({ key: a.roleKey, kind: 'person' } as TemplateRole, false),
      name: a.name,
      phone: a.phone,
      intent: a.intent ?? 'sms',
    };
  const isOwn = !!ownCompanyId && a.companyId === ownCompanyId;
  return {
    roleKey: a.roleKey,
    kind: 'company',
    name: '',
    phone: '',
    companyMode: isOwn ? 'own' : 'other',
    companyName: isOwn ? '' : (a.companyName ?? ''),
    operatorPhone: a.operatorPhone,
    operatorName: a.operatorName ?? '',
    intent: a.intent ?? 'sms',
  };
}

type FillIssue =
  | { key: 'titleRequired' }
  | { key: 'required_' | 'notNumber' | 'notDate'; label: string }
  | { key: 'badValue'; label: string; reason: string }
  | { key: 'nameRequired' | 'phoneInvalid' | 'companyRequired'; role: string };

export function fillIssue(
  title: string,
  fields: TemplateField[],
  values: Record<string, string | boolean>,
  roles: TemplateRole[],
  parties: PartyForm[],
): FillIssue | null {
  if (!title.trim()) return { key: 'titleRequired' };
  for (const f of fields) {
    const v = values[f.key];
    if (f.type === 'checkbox') {
      if (f.isRequired && v !== true) return { key: 'required_', label: f.label };
      continue;
    }
    const text = typeof v === 'string' ? v.trim() : '';
    if (!text) {
      if (f.isRequired) return { key: 'required_', label: f.label };
      continue;
    }
    if (f.type === 'number' && !NUMBER_PATTERN.test(text)) return { key: 'notNumber', label: f.label };
    if (f.type === 'date' && !isCalendarDate(text)) return { key: 'notDate', label: f.label };
    // The other kinds (ID number, phone, options, lengths): the contract's value rule; its message is
    // English with the Chinese registered (the page shows it in the reader's language).
    const check = checkFieldValue({ kind: f.type, isRequired: f.isRequired, options: f.options }, text);
    if (!check.ok) return { key: 'badValue', label: f.label, reason: check.message };
  }
  for (const r of roles) {
    const p = parties.find((x) => x.roleKey === r.key);
    if (!p) return { key: 'nameRequired', role: r.name };
    if (p.kind === 'person') {
      if (!p.name.trim()) return { key: 'nameRequired', role: r.name };
      if (!PHONE.test(p.phone.trim())) return { key: 'phoneInvalid', role: r.name };
    } else {
      if (p.companyMode === 'other' && p.companyName.trim().length < 2)
        return { key: 'companyRequired', role: r.name };
      if (!PHONE.test(p.operatorPhone.trim())) return { key: 'phoneInvalid', role: r.name };
    }
  }
  return null;
}

export function toAssignments(parties: PartyForm[], ownCompanyId: string | null): RoleAssignment[] {
  return parties.map((p) =>
    p.kind === 'person'
      ? { roleKey: p.roleKey, kind: 'person', name: p.name.trim(), phone: p.phone.trim(), intent: p.intent }
      : {
          roleKey: p.roleKey,
          kind: 'company',
          ...(p.companyMode === 'own' && ownCompanyId
            ? { companyId: ownCompanyId }
            : { companyName: p.companyName.trim() }),
          operatorPhone: p.operatorPhone.trim(),
          operatorName: p.operatorName.trim() || undefined,
          intent: p.intent,
        },
  );
}

export function cleanValues(fields: TemplateField[], values: Record<string, string | boolean>) {
  const out: Record<string, string | boolean> = {};
  for (const f of fields) {
    const v = values[f.key];
    out[f.key] = f.type === 'checkbox' ? v === true : typeof v === 'string' ? v.trim() : '';
  }
  return out;
}
