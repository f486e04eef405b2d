// Typed client of contract/calls/authorisation.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/authorisation.ts';
import * as P from '#contract/paths/authorisation.ts';
import { call } from './http.ts';
import { downloadAt } from './transfer.ts';

export type { Letter, LetterKind, LetterState } from '#contract/calls/authorisation.ts';

export const sendLetterSmsCode = call<typeof calls.sendLetterSmsCode>(P.sendLetterSmsCode);
export const issueAuthorisationLetter = call<typeof calls.issueAuthorisationLetter>(
  P.issueAuthorisationLetter,
);
export const listAuthorisationLetters = call<typeof calls.listAuthorisationLetters>(
  P.listAuthorisationLetters,
);
export const getAuthorisationLetter = call<typeof calls.getAuthorisationLetter>(P.getAuthorisationLetter);
export const revokeAuthorisationLetter = call<typeof calls.revokeAuthorisationLetter>(
  P.revokeAuthorisationLetter,
);
export const acceptAuthorisationLetter = call<typeof calls.acceptAuthorisationLetter>(
  P.acceptAuthorisationLetter,
);
export const authoriseSealWithLetters = call<typeof calls.authoriseSealWithLetters>(
  P.authoriseSealWithLetters,
);

/** The signed letter PDF: `inline` for the viewer, a download otherwise. */
export const letterPdfUrl = (letterId: string, inline = false) =>
  downloadAt(P.authorisationLetterPdf, [letterId], { inline: inline ? '1' : undefined });
