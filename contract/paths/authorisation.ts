// The paths of contract/calls/authorisation.ts (zod-free: src/api/authorisation.ts imports them).
import { csign } from '../call-path.ts';

export const sendLetterSmsCode = /* @__PURE__ */ csign('sendLetterSmsCode');
export const issueAuthorisationLetter = /* @__PURE__ */ csign('issueAuthorisationLetter');
export const listAuthorisationLetters = /* @__PURE__ */ csign('listAuthorisationLetters');
export const getAuthorisationLetter = /* @__PURE__ */ csign('getAuthorisationLetter');
export const revokeAuthorisationLetter = /* @__PURE__ */ csign('revokeAuthorisationLetter');
export const authoriseSealWithLetters = /* @__PURE__ */ csign('authoriseSealWithLetters');
export const acceptAuthorisationLetter = /* @__PURE__ */ csign('acceptAuthorisationLetter');
/** GET `${authorisationLetterPdf.path}/<letterId>`: the signed letter (members of the issuing or granted company). */
export const authorisationLetterPdf = /* @__PURE__ */ csign('authorisationLetterPdf', 'download');
