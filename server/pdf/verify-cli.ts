/**
 * `npm run --silent verify -- [--json] FILE [--trust PEM]...`
 *
 * Prints exactly one JSON report on stdout with --json (or `{error: {code, message}}`), else a readable
 * summary. Trusts the platform root at DATA_DIR/pki/root.crt (DATA_DIR defaults to ./data) and every
 * --trust PEM file. Exit code: 0 TOTAL_PASSED, 1 any other verdict, 2 the file could not be verified.
 *
 * This entry stays tiny on purpose: Node strips the types of every .ts file it loads, which costs far
 * more than the verification itself. The compile cache keeps the stripped and compiled code of the
 * modules imported below, so only the first run pays for it.
 */
import { enableCompileCache } from 'node:module';
import path from 'node:path';

try {
  enableCompileCache(path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'verify-cli'));
} catch {
  // a read-only install runs uncached, just slower
}
const { main } = await import('./verify/cli.ts');
process.exitCode = await main(process.argv.slice(2));
