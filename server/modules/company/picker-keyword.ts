// What a member or signer search keyword may match (issue 23, M1). A phone matches only in full: a part of one
// (prefix, suffix, any substring) matches nothing, so a masked answer can never be completed digit by digit.

/** A full phone (after normalising), a name to look for, or a keyword that can match no one. */
export type PickerKeyword = { phone: string } | { name: string } | { none: true };

/** Mainland mobile number: 11 digits starting with 1 (contract's zPhone). */
const FULL_PHONE = /^1\d{10}$/;

/**
 * Reads a search keyword. Spaces, dashes, dots and brackets inside a phone are ignored, as is a +86 / 0086 / 86
 * country prefix. A keyword with any digit in it is a phone: a full one matches that phone exactly, anything
 * else matches nothing (never part of a phone). A keyword without digits is a name (phones are digits only, so
 * no part of one can ever match it).
 */
export function pickerKeyword(keyword: string): PickerKeyword {
  const text = keyword.trim();
  if (!/\d/.test(text)) return text ? { name: text } : { none: true };
  let digits = text.replace(/[\s\-.()（）]/g, '');
  const prefixed = /^(?:\+86|0086|86)(1\d{10})$/.exec(digits);
  if (prefixed) digits = prefixed[1];
  return FULL_PHONE.test(digits) ? { phone: digits } : { none: true };
}
