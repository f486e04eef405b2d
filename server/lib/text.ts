/** A text for the user in both languages of the product; `Lang` is the language a request asked for. */
export type Text = { en: string; zh: string };
export type Lang = 'en' | 'zh';

export function render(text: Text | string, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}
