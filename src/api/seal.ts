// Typed client of contract/calls/seal.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/seal.ts';
import * as P from '#contract/paths/seal.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { call, type Res } from './http.ts';
import { upload } from './transfer.ts';

export type { CompanySealDTO, Seal } from '#contract/calls/seal.ts';
export type SealList = Res<typeof calls.getUserCertSealList>;
export type SealOperator = Res<typeof calls.listSealOperators>[number];

/** Seal images are GET routes of the API server: make the server's path absolute for <img src>. */
export function sealImageSrc(path: string): string {
  const base = typeof window === 'undefined' ? '' : apiBaseUrl(window.location.hostname, readEnv());
  return `${base}${path}`;
}

export const getUserCertSealList = call<typeof calls.getUserCertSealList>(P.getUserCertSealList);

export const savePersonSeal = call<typeof calls.savePersonSeal>(P.savePersonSeal);

export const saveCompanySeal = call<typeof calls.saveCompanySeal>(P.saveCompanySeal);

export const previewSeal = call<typeof calls.previewSeal>(P.previewSeal);

export const setSealStatus = call<typeof calls.setSealStatus>(P.setSealStatus);

export const deleteSeal = call<typeof calls.deleteSeal>(P.deleteSeal);

export const authoriseSeal = call<typeof calls.authoriseSeal>(P.authoriseSeal);

export const revokeSealAuthorisation = call<typeof calls.revokeSealAuthorisation>(P.revokeSealAuthorisation);

export const listSealOperators = call<typeof calls.listSealOperators>(P.listSealOperators);

export const setSealKeepers = call<typeof calls.setSealKeepers>(P.setSealKeepers);

export const checkAntiCounterfeitNo = call<typeof calls.checkAntiCounterfeitNo>(P.checkAntiCounterfeitNo);

function imageForm(image: Blob, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', image, image instanceof File ? image.name : 'seal.png');
  return form;
}

/** An uploaded image (kind uploaded) or a signature drawn on the pad (kind drawn). */
export const savePersonImageSeal = (image: Blob, kind: 'uploaded' | 'drawn') =>
  upload<typeof calls.savePersonImageSeal>(P.savePersonImageSeal, imageForm(image, { kind }));

/** An uploaded image of a company seal (administrator). */
export const saveCompanyCustomizeSeal = (image: Blob, sealType: number, sealName?: string) =>
  upload<typeof calls.saveCompanyCustomizeSeal>(
    P.saveCompanyCustomizeSeal,
    imageForm(image, { sealType: String(sealType), ...(sealName ? { sealName } : {}) }),
  );
