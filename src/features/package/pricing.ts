/** Most copies of one package in one order (the contract's MAX_COPIES; no zod in the bundle). */
export const MAX_COPIES = 1000;

/** Price of one copy when buying `copies` (as the server computes it): the highest tier reached, else the price. */
export function unitPriceFor(
  pkg: { priceFen: number; tiers: { minCopies: number; priceFen: number }[] },
  copies: number,
) {
  let price = pkg.priceFen;
  let reached = 0;
  for (const t of pkg.tiers)
    if (copies >= t.minCopies && t.minCopies > reached) {
      reached = t.minCopies;
      price = t.priceFen;
    }
  return price;
}
