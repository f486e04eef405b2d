// Text read out of an untrusted file (a PDF's field names, a certificate's names, a reason) on its way to a
// page, a JSON answer or a jsonb column: PostgreSQL refuses U+0000 and unpaired surrogates in jsonb, and a
// fuzzed file can make a "name" of thousands of bytes. Control characters (but tab and line breaks) and
// unpaired surrogates become U+FFFD; a text longer than `max` is cut with an ellipsis.

const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const MAX_FILE_TEXT = 500;

/** One text made safe to show and to store. */
function cleanText(text: string, max = MAX_FILE_TEXT): string {
  const clean = text.replace(UNSAFE, '\uFFFD');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Every string inside a JSON-shaped value made safe (objects and arrays are copied, other values kept). */
export function cleanTexts<T>(value: T, max = MAX_FILE_TEXT): T {
  if (typeof value === 'string') return cleanText(value, max) as T;
  if (Array.isArray(value)) return value.map((v) => cleanTexts(v, max)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cleanTexts(v, max);
    return out as T;
  }
  return value;
}
