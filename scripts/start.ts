// `npm start`: build the client when missing or stale, then run the one server that serves it and the API.
import './require-node24.ts';
import { buildClientIfStale } from './client-build.ts';

buildClientIfStale();
await import('../server/main.ts');
