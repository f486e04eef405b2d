// The first of the server's modules to run (main.ts loads it before serve.ts; so does the bundle): the config,
// and on an empty embedded data folder the copy of the database template, started on a thread of its own
// (db/template.ts), so that it runs while the rest of the server loads (about half a second of parsing and
// evaluating on the main thread) instead of after. A config that cannot run stops the process here.
import '../scripts/require-node24.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { copyTemplateAhead, PGLITE_START_PARAMS, templateDirFor } from './db/template.ts';
import { developmentProvidersMessage } from './providers/production-check.ts';

function configOrExit(): Config {
  let loaded: Config;
  try {
    loaded = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Production never runs on a development provider unless ALLOW_DEVELOPMENT_PROVIDERS names it.
  const refusal = developmentProvidersMessage(loaded);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  return loaded;
}

export const config = configOrExit();

/** The template's copy into an empty data folder, underway; null when there is none to make ahead. */
export const templateCopy =
  config.database.kind === 'pglite' && config.database.dataDir
    ? copyTemplateAhead(config.database.dataDir, templateDirFor(PGLITE_START_PARAMS))
    : null;
