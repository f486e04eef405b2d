import type { Text } from '../../http/texts.ts';

/** Messages of the company module, both languages. */
export const C = {
  notActingForCompany: {
    en: 'this call acts for a company: switch to a company account first',
    zh: '该操作需以企业身份进行，请先切换到企业账号',
  },
} satisfies Record<string, Text>;
