/**
 * What a generated seal says. One definition renders to SVG, PNG and PDF (see render-*.ts) through one
 * layout, so the three always agree.
 */
import { SealType } from '#contract/enums.ts';
import { hasGlyph } from './fonts.ts';
import { SealError, SealErrorCode } from './seal-errors.ts';
import { countOf } from '#contract/plural.ts';

/** A company seal of one of the types of SPEC §3. */
export interface CompanySealDef {
  kind: 'company';
  sealType: SealType;
  /** Company name, along the arc (not shown on the legal-person seal 101). */
  companyName: string;
  /** Purpose across the bottom of an "other" seal (99), e.g. 投标专用章. Ignored for the other types,
   * whose text is fixed (合同专用章, 财务专用章, ...). */
  purpose?: string;
  /** The 18-character taxpayer number (unified social credit code), across an invoice seal (104). */
  taxpayerNumber?: string;
  /** Short code unique to the seal, small along the bottom inner edge (round and oval seals). */
  antiCounterfeitNo?: string;
  /** The legal representative's name, on the legal-person seal (101). */
  legalPersonName?: string;
  /** Round special-purpose seals carry the star unless this is false; the official seal always does. */
  hasStar?: boolean;
}

/** A person's name seal. */
interface PersonSealDef {
  kind: 'person';
  style: 'square';
  name: string;
}

export type SealDef = CompanySealDef | PersonSealDef;

/** The definition after validation: trimmed, normalised, every field the chosen form needs present. */
export type CheckedSealDef =
  | {
      form: 'round';
      sealType: SealType;
      name: string;
      title: string | null;
      hasStar: boolean;
      antiCounterfeitNo: string | null;
    }
  | { form: 'oval'; name: string; taxpayerNumber: string; title: string; antiCounterfeitNo: string | null }
  | { form: 'square'; holder: 'legal-person' | 'person'; name: string };

/** Titles across the bottom of the round special-purpose seals. */
const SEAL_TITLES: Partial<Record<SealType, string>> = {
  [SealType.Contract]: '合同专用章',
  [SealType.Finance]: '财务专用章',
  [SealType.HR]: '人事专用章',
  [SealType.Invoice]: '发票专用章',
};

/** Longest company name checked by the layout at all; real limits per seal are smaller. */
const MAX_COMPANY_NAME = 40;
const MAX_PURPOSE = 10;
/** Name seals hold the name plus 印 or 之印 in two columns of at most three rows. */
const MAX_PERSON_NAME = 5;
// Unified social credit code (GB 32100-2015): digits and capitals without I, O, S, V, Z.
const TAXPAYER_NUMBER = /^[0-9A-HJ-NPQRTUWXY]{18}$/;
const ANTI_COUNTERFEIT = /^[0-9A-Z]{4,16}$/;

function checkText(
  value: string | undefined,
  what: { zh: string; en: string },
  max: number,
  min = 1,
  tooLong: SealErrorCode = SealErrorCode.NameTooLong,
): string {
  const text = (value ?? '').normalize('NFC').trim();
  const chars = [...text];
  if (chars.length === 0) {
    throw new SealError(SealErrorCode.NameEmpty, {
      zh: `${what.zh}不能为空`,
      en: `The ${what.en} must not be empty.`,
    });
  }
  for (const ch of chars) {
    // Spaces and control characters have no place on a seal; a character the face lacks would print as a box.
    if (/[\s\p{C}]/u.test(ch) || !hasGlyph('song', ch)) {
      throw new SealError(SealErrorCode.NameInvalidChar, {
        zh: `${what.zh}含有印章无法刻制的字符「${ch.trim() ? ch : '空格'}」`,
        en: `The ${what.en} contains a character a seal cannot carry: "${ch}".`,
      });
    }
  }
  if (chars.length < min) {
    throw new SealError(SealErrorCode.NameTooShort, {
      zh: `${what.zh}至少需要 ${min} 个字`,
      en: `The ${what.en} needs at least ${countOf(min, 'character', 'characters')}.`,
    });
  }
  if (chars.length > max) {
    throw new SealError(tooLong, {
      zh: `${what.zh}太长：最多 ${max} 个字（现有 ${chars.length} 个）`,
      en: `The ${what.en} is too long: at most ${countOf(max, 'character', 'characters')} (it has ${chars.length}).`,
    });
  }
  return text;
}

function checkAntiCounterfeit(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  const code = value.trim().toUpperCase();
  if (!ANTI_COUNTERFEIT.test(code)) {
    throw new SealError(SealErrorCode.AntiCounterfeitInvalid, {
      zh: '防伪编码须为 4 至 16 位数字或大写字母',
      en: 'The anti-counterfeit number must be 4 to 16 digits or capital letters.',
    });
  }
  return code;
}

const COMPANY_NAME = { zh: '公司名称', en: 'company name' };
const PERSON_NAME = { zh: '姓名', en: 'name' };
const LEGAL_PERSON_NAME = { zh: '法定代表人姓名', en: "legal representative's name" };
const PURPOSE = { zh: '印章用途', en: 'seal purpose' };

/**
 * Validates a seal definition and fills in what its form implies. Refuses (SealError) an unknown seal
 * type, empty or unprintable names, an "other" seal without a purpose, an invoice seal without an
 * 18-character taxpayer number, a malformed anti-counterfeit number. Whether a name fits is the layout's
 * decision (it knows the sizes).
 */
export function checkSealDef(def: SealDef): CheckedSealDef {
  if (def.kind === 'person') {
    return { form: 'square', holder: 'person', name: checkText(def.name, PERSON_NAME, MAX_PERSON_NAME, 2) };
  }
  const sealType = def.sealType;
  if (!Object.values(SealType).includes(sealType)) {
    throw new SealError(SealErrorCode.SealTypeUnknown, {
      zh: `未知的印章类型：${String(sealType)}`,
      en: `Unknown seal type: ${String(sealType)}.`,
    });
  }
  const companyName = checkText(def.companyName, COMPANY_NAME, MAX_COMPANY_NAME);
  if (sealType === SealType.LegalPerson) {
    return {
      form: 'square',
      holder: 'legal-person',
      name: checkText(def.legalPersonName, LEGAL_PERSON_NAME, MAX_PERSON_NAME, 2),
    };
  }
  const antiCounterfeitNo = checkAntiCounterfeit(def.antiCounterfeitNo);
  if (sealType === SealType.Invoice) {
    const number = (def.taxpayerNumber ?? '').trim().toUpperCase();
    if (!TAXPAYER_NUMBER.test(number)) {
      throw new SealError(SealErrorCode.TaxpayerNumberInvalid, {
        zh: '发票专用章需要 18 位纳税人识别号（统一社会信用代码）',
        en: 'An invoice seal needs the 18-character taxpayer number (unified social credit code).',
      });
    }
    return {
      form: 'oval',
      name: companyName,
      taxpayerNumber: number,
      title: SEAL_TITLES[SealType.Invoice]!,
      antiCounterfeitNo,
    };
  }
  let title: string | null = SEAL_TITLES[sealType] ?? null;
  if (sealType === SealType.Other) {
    if (!def.purpose?.trim()) {
      throw new SealError(SealErrorCode.PurposeMissing, {
        zh: '其他类型的印章需要填写用途，例如“投标专用章”',
        en: 'A seal of type "other" needs its purpose, e.g. 投标专用章.',
      });
    }
    title = checkText(def.purpose, PURPOSE, MAX_PURPOSE, 1, SealErrorCode.PurposeTooLong);
  }
  return {
    form: 'round',
    sealType,
    name: companyName,
    title,
    hasStar: sealType === SealType.Official || def.hasStar !== false,
    antiCounterfeitNo,
  };
}
