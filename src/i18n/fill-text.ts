// Placeholders of the texts, in the one place that fills them (t(), useTexts(), textOf()):
//   {name}                                        → params.name
//   {n, plural, one {# page} other {# pages}}     → the form Intl.PluralRules picks for params.n in the
//                                                   locale, with # as the number
// English needs a singular and a plural; Chinese has one form ("共 {total} 条" needs no plural at all).
// Forms hold no placeholders of their own; `=0 {…}` picks an exact number before the locale's category.

import { pluralCategory } from '#contract/plural.ts';

export type TextParams = Record<string, string | number>;

const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|[a-z]+)\s*\{[^{}]*\})+)\s*\}/g;
const FORM = /(=\d+|[a-z]+)\s*\{([^{}]*)\}/g;
const PLAIN = /\{(\w+)\}/g;

/** The form of `forms` (a plural's `one {…} other {…}` body) for `count` in `locale`, # filled. */
function pluralForm(locale: string, count: number, forms: string): string {
  const byKey = new Map([...forms.matchAll(FORM)].map((m) => [m[1]!, m[2]!]));
  const form = byKey.get(`=${count}`) ?? byKey.get(pluralCategory(locale, count)) ?? byKey.get('other');
  return (form ?? '').replaceAll('#', String(count));
}

/** Fills a text's placeholders in `locale`; a placeholder without a (numeric, for plural) param stays. */
export function fillText(locale: string, text: string, params?: TextParams): string {
  if (!params) return text;
  return text
    .replace(PLURAL, (whole, name: string, forms: string) => {
      const count = Number(params[name]);
      return name in params && Number.isFinite(count) ? pluralForm(locale, count, forms) : whole;
    })
    .replace(PLAIN, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
