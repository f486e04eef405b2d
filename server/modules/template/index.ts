// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { templateModule } from './routes.ts';
// The integrator API (server/open/) lists and reads templates and launches from one (prepare, then
// launchDraft: the same rules as the workspace's template launch).
export {
  getTemplate,
  launchDraft,
  list as listTemplates,
  prepare as prepareTemplateLaunch,
} from './service.ts';
