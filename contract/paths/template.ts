// The paths of contract/calls/template.ts (zod-free: src/api/template.ts imports them).
import { csign } from '../call-path.ts';

export const saveTemplate = /* @__PURE__ */ csign('saveTemplate');
export const getTemplate = /* @__PURE__ */ csign('getTemplate');
export const listTemplates = /* @__PURE__ */ csign('listTemplates');
export const deleteTemplate = /* @__PURE__ */ csign('deleteTemplate');
export const prepareTemplateLaunch = /* @__PURE__ */ csign('prepareTemplateLaunch');
export const getTemplateDraft = /* @__PURE__ */ csign('getTemplateDraft');
export const launchTemplateFlow = /* @__PURE__ */ csign('launchTemplateFlow');

// GET download (template/routes.ts): `${path}/<templateId>`.
export const downloadTemplatePdf = /* @__PURE__ */ csign('downloadTemplatePdf', 'download');
