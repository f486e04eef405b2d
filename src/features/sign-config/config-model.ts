// The steps of a signing configuration as edited on the screen, and the checks the server makes too (so the
// user sees a localised message before any call).
import type { ConfigStep } from '@/api/sign-config.ts';

export type EditParty = ConfigStep['parties'][number];
export type EditStep = { parties: EditParty[] };

let counter = 0;
/** A fresh role key (letters and digits, unique enough within one configuration). */
const newRoleKey = () => `r${Date.now().toString(36)}${(counter++).toString(36)}`;

export function newParty(name: string, kind: 'person' | 'company'): EditParty {
  return {
    key: newRoleKey(),
    name,
    kind,
    applies:
      kind === 'company'
        ? {
            companySealType: 102,
            legalPersonSeal: false,
            personSignature: false,
            date: true,
            crossPageSeal: false,
          }
        : {
            companySealType: null,
            legalPersonSeal: false,
            personSignature: true,
            date: true,
            crossPageSeal: false,
          },
  };
}

type StepsIssue =
  | { key: 'roleNameRequired' }
  | { key: 'roleNameTwice'; name: string }
  | { key: 'companyNeedsSeal'; name: string };

/** The first problem of the steps, or null: names present and unique, company roles apply a seal. */
export function stepsIssue(steps: EditStep[]): StepsIssue | null {
  const names = new Set<string>();
  for (const s of steps)
    for (const p of s.parties) {
      const name = p.name.trim();
      if (!name) return { key: 'roleNameRequired' };
      if (names.has(name)) return { key: 'roleNameTwice', name };
      names.add(name);
      if (p.kind === 'company' && !p.applies?.companySealType && !p.applies?.legalPersonSeal)
        return { key: 'companyNeedsSeal', name };
    }
  return null;
}
