import type { MessageKey } from '@/i18n/en-US.ts';

// The limits the contract checks on the server (contract/calls/session.ts), repeated as field checks so the
// user sees a mistake before sending; the server stays the authority. Each returns a message key or null.
const PHONE_PATTERN = /^1\d{10}$/;
const SMS_CODE_PATTERN = /^\d{6}$/;

export type Check = (value: string) => MessageKey | null;

export const checkPhone: Check = (value) =>
  !value.trim() ? 'rule.phoneRequired' : PHONE_PATTERN.test(value.trim()) ? null : 'rule.phoneFormat';

export const checkLoginPassword: Check = (value) => (value ? null : 'rule.passwordRequired');

export const checkNewPassword: Check = (value) => {
  if (!value) return 'rule.passwordRequired';
  const isStrong = value.length >= 8 && value.length <= 64 && /[A-Za-z]/.test(value) && /\d/.test(value);
  return isStrong ? null : 'rule.passwordFormat';
};

export const checkSmsCode: Check = (value) =>
  !value.trim() ? 'rule.smsRequired' : SMS_CODE_PATTERN.test(value.trim()) ? null : 'rule.smsFormat';

export const checkConfirm =
  (password: string): Check =>
  (value) =>
    !value ? 'rule.confirmRequired' : value === password ? null : 'rule.confirmMismatch';
