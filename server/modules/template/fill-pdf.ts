// Writing a template's field values into its PDF ("fill this template") is done by the PDF core:
// server/pdf/compose/fill-pdf.ts.
export { type FieldFill, fillPdf, fittedSize } from '../../pdf/compose/fill-pdf.ts';
