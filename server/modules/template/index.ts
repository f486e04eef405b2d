// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) lists and reads templates and launches from one (prepare, then
// launchDraft: the same rules as the workspace's template launch).
export {
  getTemplate,
  launchDraft,
  list as listTemplates,
  prepare as prepareTemplateLaunch,
} from './service.ts';
