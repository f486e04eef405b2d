// PLACEHOLDER until branch h-pdf lands (FIELDS-CORE-READY): the interface the flow module is written against.
// The real file (AcroForm fields added in one incremental update) replaces this one on merge.
import type { FieldKind } from '#contract/rules/fields.ts';
import { SignError, SignErrorCode } from './errors.ts';

export type NewFormField = {
  name: string;
  kind: FieldKind;
  pageIndex: number;
  rect: [number, number, number, number];
  options?: string[];
};

export function addFormFields(_input: Uint8Array, _fields: NewFormField[]): Uint8Array {
  throw new SignError(SignErrorCode.BadOptions, 'form fields are not built yet');
}
