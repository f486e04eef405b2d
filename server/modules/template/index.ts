// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) lists and reads templates and launches from one (prepare, then
// launchDraft: the same rules as the workspace's template launch); bulk sending does the same per row.
export {
  getTemplate,
  launchDraft,
  launchedFlowOfDraft,
  list as listTemplates,
  prepare as prepareTemplateLaunch,
  valueProblem,
} from './service.ts';
