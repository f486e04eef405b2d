/**
 * Messages of the contract's schemas in both languages of the product. A schema carries the English text
 * (zod reports it as the message); `bi` registers the Chinese beside it, and the server answers a
 * Chinese request with that (server/http/error-handler.ts). Messages zod writes itself are translated with
 * zod's own zh-CN locale there. tests/server/contract/bilingual.test.ts keeps every schema message here.
 */
const chinese = new Map<string, string>();

/** The English `en`, with `zh` registered as its Chinese. */
export function bi(en: string, zh: string): string {
  chinese.set(en, zh);
  return en;
}

/** The Chinese registered for a schema message, if any. */
export const chineseOf = (en: string): string | undefined => chinese.get(en);
