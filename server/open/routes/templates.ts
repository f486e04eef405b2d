// Templates of the key's account: list and read (the template module's services, as the workspace uses them).
import { zListTemplatesQuery, zTemplate, zTemplateIdParams, zTemplatePage } from '#contract/open/v1.ts';
import { getTemplate, listTemplates } from '../../modules/template/index.ts';
import { defineOpenRoute } from '../route.ts';

export const templateRoutes = [
  defineOpenRoute({
    method: 'GET',
    path: '/templates',
    operationId: 'listTemplates',
    tag: 'templates',
    summary: 'Templates of the key’s account, newest change first.',
    scope: 'templates:read',
    query: zListTemplatesQuery,
    response: zTemplatePage,
    handler: ({ deps, caller, query }) => listTemplates(deps, caller.actor, query),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/templates/:templateId',
    operationId: 'getTemplate',
    tag: 'templates',
    summary: 'One template: roles (who signs, in which step), fields to fill, positions.',
    scope: 'templates:read',
    params: zTemplateIdParams,
    response: zTemplate,
    handler: ({ deps, caller, params }) => getTemplate(deps, caller.actor, params.templateId),
  }),
];
