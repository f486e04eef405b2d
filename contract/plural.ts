// Counts in texts, for the client (src/i18n/fill-text.ts) and the server's messages alike: English has a
// singular and a plural ("1 attempt", "3 attempts"); Chinese has one form. The locale's own rules decide
// (Intl.PluralRules), never an "(s)" left to the reader.

const rulesOf = new Map<string, Intl.PluralRules>();

/** The plural category of `count` in `locale` ('one', 'other', …). */
export function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  let rules = rulesOf.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesOf.set(locale, rules);
  }
  return rules.select(count);
}

/** A count and its English noun: countOf(1, 'attempt', 'attempts') is "1 attempt", with 3 "3 attempts". */
export const countOf = (count: number, one: string, other: string): string =>
  `${count} ${pluralCategory('en', count) === 'one' ? one : other}`;
