import { chineseOf } from '#contract/bilingual.ts';
import type { Locale } from '@/i18n/i18n-store.ts';

/**
 * A message of a contract rule (contract/rules/*: the English text, its Chinese registered with `bi`) in the
 * reader's language. Zod-free, so the signing room may use it.
 */
export const ruleMessage = (message: string, locale: Locale): string =>
  locale === 'zh-CN' ? (chineseOf(message) ?? message) : message;
