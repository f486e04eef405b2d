// Typed client of contract/calls/seal.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/seal.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { CompanySealDTO, Seal, SealAuthorisation } from '#contract/calls/seal.ts';
export type SealList = Res<typeof calls.getUserCertSealList>;
export type SealOperator = Res<typeof calls.listSealOperators>[number];
export type SealPreview = Res<typeof calls.previewSeal>;

/** Seal images are GET routes of the API server: make the server's path absolute for <img src>. */
export function sealImageSrc(path: string): string {
  const base = typeof window === 'undefined' ? '' : apiBaseUrl(window.location.hostname, readEnv());
  return `${base}${path}`;
}

export const getUserCertSealList = (body: Req<typeof calls.getUserCertSealList> = {}) =>
  post<SealList>(`${CSIGN}/getUserCertSealList`, body);

export const savePersonSeal = (body: Req<typeof calls.savePersonSeal> = {}) =>
  post<Res<typeof calls.savePersonSeal>>(`${CSIGN}/savePersonSeal`, body);

export const saveCompanySeal = (body: Req<typeof calls.saveCompanySeal>) =>
  post<Res<typeof calls.saveCompanySeal>>(`${CSIGN}/saveCompanySeal`, body);

export const previewSeal = (body: Req<typeof calls.previewSeal>) =>
  post<SealPreview>(`${CSIGN}/previewSeal`, body);

export const setSealStatus = (body: Req<typeof calls.setSealStatus>) =>
  post<Res<typeof calls.setSealStatus>>(`${CSIGN}/setSealStatus`, body);

export const deleteSeal = (body: Req<typeof calls.deleteSeal>) =>
  post<Res<typeof calls.deleteSeal>>(`${CSIGN}/deleteSeal`, body);

export const authoriseSeal = (body: Req<typeof calls.authoriseSeal>) =>
  post<Res<typeof calls.authoriseSeal>>(`${CSIGN}/authoriseSeal`, body);

export const revokeSealAuthorisation = (body: Req<typeof calls.revokeSealAuthorisation>) =>
  post<Res<typeof calls.revokeSealAuthorisation>>(`${CSIGN}/revokeSealAuthorisation`, body);

export const listSealOperators = (body: Req<typeof calls.listSealOperators> = {}) =>
  post<SealOperator[]>(`${CSIGN}/listSealOperators`, body);

export const checkAntiCounterfeitNo = (body: Req<typeof calls.checkAntiCounterfeitNo>) =>
  post<Res<typeof calls.checkAntiCounterfeitNo>>(`${CSIGN}/checkAntiCounterfeitNo`, body);

function imageForm(image: Blob, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', image, image instanceof File ? image.name : 'seal.png');
  return form;
}

/** multipart: an uploaded image (kind uploaded) or a signature drawn on the pad (kind drawn). */
export const savePersonImageSeal = (image: Blob, kind: 'uploaded' | 'drawn') =>
  post<Res<typeof calls.savePersonImageSeal>>(`${CSIGN}/savePersonImageSeal`, imageForm(image, { kind }), {
    headers: { 'Content-Type': 'multipart/form-data' },
  });

/** multipart: an uploaded image of a company seal (administrator). */
export const saveCompanyCustomizeSeal = (image: Blob, sealType: number, sealName?: string) =>
  post<Res<typeof calls.saveCompanyCustomizeSeal>>(
    `${CSIGN}/saveCompanyCustomizeSeal`,
    imageForm(image, { sealType: String(sealType), ...(sealName ? { sealName } : {}) }),
    { headers: { 'Content-Type': 'multipart/form-data' } },
  );
