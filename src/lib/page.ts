import type { DEFAULT_PAGE_SIZE as ContractPageSize } from '#contract/envelope.ts';

/** SPEC §9: lists show 10 rows a page (typed as the contract's constant; envelope.ts holds zod, so not imported). */
export const DEFAULT_PAGE_SIZE: typeof ContractPageSize = 10;
