// `npm start`: build the client and bundle the server when missing or stale, then run the bundled server,
// the one process that serves the app and the API (see scripts/server-build.ts).
import './require-node24.ts';
import { pathToFileURL } from 'node:url';
import { buildClientIfStale } from './client-build.ts';
import { buildServerIfStale, SERVER_BUNDLE } from './server-build.ts';

buildClientIfStale();
buildServerIfStale();
await import(pathToFileURL(SERVER_BUNDLE).href);
