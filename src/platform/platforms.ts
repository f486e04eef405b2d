import { PlatformCode } from '#contract/enums.ts';
import type { MessageKey } from '@/i18n/en-US.ts';

type Bilingual = { zh: string; en: string };

/**
 * One platform configuration entry (SPEC §3). Display names are bilingual pairs and the success texts
 * are dictionary keys, so every visible text exists in both languages; '' / null means "not shown".
 */
export type PlatformEntry = {
  fromPtCode: PlatformCode;
  fromPtName: Bilingual;
  /** User centre: register, reset password, the workspace frame (left menu, footer). */
  hyCenter: {
    hasHead: boolean;
    ptLogoUrl: string;
    ptName: Bilingual | null;
    homeUrl: string;
    hasLeft: boolean;
    hasBottom: boolean;
    register: { loginUrl: string; hasCreateCompanyBtn: boolean };
    resetPwd: { loginUrl: string };
  };
  /** Workspace: its header and the company account-opening success page. */
  oxqWorkspace: {
    hasHead: boolean;
    ptLogoUrl: string;
    homeUrl: string;
    companyOpenAccount: {
      successTitle: MessageKey;
      successTitle2: MessageKey | null;
      hasEnterWorkspaceBtn: boolean;
    };
  };
};

const LOGO_URL = 'logo.svg';
const SUCCESS_TITLE: MessageKey = 'companyOpen.title';
const SUCCESS_TITLE_2: MessageKey = 'companyOpen.title2';

/** SPEC §3 table, row by row. */
export const PLATFORMS: Record<PlatformCode, PlatformEntry> = {
  [PlatformCode.Default]: {
    fromPtCode: PlatformCode.Default,
    fromPtName: { zh: '电子签章平台', en: 'E-Signature Platform' },
    hyCenter: {
      hasHead: true,
      // "Logo: set in workspace" — the user centre carries none of its own.
      ptLogoUrl: '',
      ptName: { zh: '电子签章平台', en: 'E-Signature Platform' },
      homeUrl: '/',
      hasLeft: true,
      hasBottom: true,
      register: { loginUrl: 'loginPage', hasCreateCompanyBtn: true },
      resetPwd: { loginUrl: 'loginPage' },
    },
    oxqWorkspace: {
      hasHead: true,
      ptLogoUrl: LOGO_URL,
      homeUrl: '/',
      companyOpenAccount: {
        successTitle: SUCCESS_TITLE,
        successTitle2: SUCCESS_TITLE_2,
        hasEnterWorkspaceBtn: true,
      },
    },
  },
  [PlatformCode.Guarantee]: {
    fromPtCode: PlatformCode.Guarantee,
    fromPtName: { zh: '担保公司平台', en: 'Guarantee-company platform' },
    hyCenter: {
      hasHead: true,
      ptLogoUrl: '',
      ptName: { zh: '担保公司平台', en: 'Guarantee-company platform' },
      homeUrl: '',
      hasLeft: true,
      hasBottom: true,
      register: { loginUrl: '', hasCreateCompanyBtn: false },
      resetPwd: { loginUrl: '' },
    },
    oxqWorkspace: {
      hasHead: true,
      ptLogoUrl: '',
      homeUrl: '',
      companyOpenAccount: {
        successTitle: SUCCESS_TITLE,
        successTitle2: SUCCESS_TITLE_2,
        hasEnterWorkspaceBtn: true,
      },
    },
  },
  [PlatformCode.Research]: {
    fromPtCode: PlatformCode.Research,
    fromPtName: { zh: '科研平台', en: 'Research platform' },
    hyCenter: {
      hasHead: false,
      ptLogoUrl: '',
      ptName: null,
      homeUrl: '',
      hasLeft: false,
      hasBottom: false,
      register: { loginUrl: '', hasCreateCompanyBtn: false },
      resetPwd: { loginUrl: '' },
    },
    oxqWorkspace: {
      hasHead: false,
      ptLogoUrl: '',
      homeUrl: '',
      companyOpenAccount: { successTitle: SUCCESS_TITLE, successTitle2: null, hasEnterWorkspaceBtn: false },
    },
  },
};

const isPlatformCode = (code: unknown): code is PlatformCode =>
  typeof code === 'string' && Object.hasOwn(PLATFORMS, code);

/** The entry for a code; unknown codes fall back to the default platform's look. */
export const platformEntry = (code: string | null | undefined): PlatformEntry =>
  isPlatformCode(code) ? PLATFORMS[code] : PLATFORMS[PlatformCode.Default];

/**
 * The tab icon of a platform: the default platform's mark where the entry shows its logo, else a plain
 * document icon that carries no brand (a partner's pages must not show the default platform's mark).
 */
export const platformFavicon = (entry: PlatformEntry): string =>
  entry.oxqWorkspace.ptLogoUrl ? '/favicon.svg' : '/favicon-plain.svg';
