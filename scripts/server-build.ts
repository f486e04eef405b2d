// Bundles the server for production into dist/server (`npm start`, the e2e runner and the bench's servers
// run it): a few ES module files instead of the ~1,400 files Node otherwise resolves, stats, reads and (for
// our own ~300 .ts files) type-strips at every start. `node scripts/server-build.ts` builds it; the runners
// call buildServerIfStale(), which rebuilds it when it is missing or older than any source, as for the client.
// Development (`npm run dev`), the tests and `node server/main.ts` keep running the sources.
import './require-node24.ts';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isStale } from './build-staleness.ts';

const root = resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE_DIR = join(root, 'dist', 'server');
/** The bundle's entry: server/main.ts (early-start.ts, then serve.ts: config, database, app, listen). */
export const SERVER_BUNDLE = join(SERVER_BUNDLE_DIR, 'serve.js');

/** What the bundle is made of; the build fails if it takes in a file of ours outside these. */
const SOURCES = [
  'server',
  'contract',
  'scripts/require-node24.ts',
  'scripts/server-build.ts',
  'package.json',
  'package-lock.json',
];

/**
 * The entry: main.ts, as from the sources. Its two imports stay chunks of their own, so early-start.ts (the
 * config, the database template's copy on a thread) runs before the bulk of the server (serve.ts) is parsed.
 */
const ENTRY = join(root, 'server', 'main.ts');
/**
 * Workers started by `new URL('./x.ts', import.meta.url)` in our files: each becomes a chunk of its own, and
 * the URL points at it.
 */
const WORKERS = ['./verify-worker.ts', './sheet-worker.ts'];
/** A build's files that no longer belong to the newest build are removed once they are this old. */
const KEEP_OLD_FILES_MS = 24 * 3600_000;

/**
 * Packages kept in node_modules and loaded from there as before: those that find files beside themselves by
 * import.meta.url (PGlite's wasm and data, pdf.js's worker, fontkit's tables) and native ones.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  'pino-pretty',
  'argon2',
  '@napi-rs/canvas',
  'pdfjs-dist',
  'fontkit',
];
/**
 * Bundled packages that find files beside themselves by __dirname (pino's and thread-stream's transport
 * workers, swagger-ui's static files): as for our own files, the paths point into node_modules.
 */
const RELOCATED = ['pino', 'thread-stream', '@fastify/swagger-ui'];

function isExternal(id: string): boolean {
  return id.startsWith('node:') || EXTERNAL.some((p) => id === p || id.startsWith(`${p}/`));
}

/**
 * Our own files find files by their own place (the migrations, the template cache, createRequire for fonts
 * and pdf.js): `import.meta.url` and `import.meta.dirname` become the source file's place, written relative to
 * the bundle, so a bundled module looks where its source does; so do `__dirname` and `__filename` in the
 * RELOCATED packages. A worker's URL points at its own chunk (WORKERS).
 */
function keepSourcePaths() {
  const WORKER_URL = '\0worker-url\0';
  const modules = `${sep}node_modules${sep}`;
  const relocated = RELOCATED.map((p) => join(root, 'node_modules', p) + sep);
  return {
    name: 'keep-source-paths',
    transform(
      this: { emitFile: (file: { type: 'chunk'; id: string; name: string }) => string },
      code: string,
      id: string,
    ) {
      if (!id.startsWith(root)) return null;
      const isOwn = !id.includes(modules);
      if (!isOwn && !relocated.some((p) => id.startsWith(p))) return null;
      const dir = JSON.stringify(`/${relative(SERVER_BUNDLE_DIR, dirname(id))}`);
      const file = JSON.stringify(`/${relative(SERVER_BUNDLE_DIR, id)}`);
      let out = code;
      if (isOwn) {
        for (const worker of WORKERS) {
          const from = `new URL('${worker}', import.meta.url)`;
          if (!out.includes(from)) continue;
          const ref = this.emitFile({
            type: 'chunk',
            id: resolve(dirname(id), worker),
            name: basename(worker, '.ts'),
          });
          out = out.replaceAll(from, `new URL(${WORKER_URL}ROLLUP_FILE_URL_${ref})`);
        }
        out = out
          .replaceAll('import.meta.dirname', `(import.meta.dirname + ${dir})`)
          .replaceAll('import.meta.url', `new URL("." + ${file}, import.meta.url).href`)
          .replaceAll(WORKER_URL, 'import.meta.');
      } else {
        out = out
          .replace(/\b__dirname\b/g, `(import.meta.dirname + ${dir})`)
          .replace(/\b__filename\b/g, `(import.meta.dirname + ${file})`);
      }
      return out === code ? null : { code: out };
    },
  };
}

/**
 * Builds dist/server: serve.js, and chunks named by their content's hash. A server already running from an
 * older build keeps finding its own chunks (it loads some lazily): they are only removed a day after they
 * stopped belonging to the newest build. Each file is written beside and renamed into place.
 */
export async function bundleServer(): Promise<void> {
  const { rolldown } = await import('rolldown');
  const startedAt = new Date();
  const bundle = await rolldown({
    input: { serve: ENTRY },
    platform: 'node',
    external: isExternal,
    plugins: [keepSourcePaths()],
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  });
  await bundle.close();
  const outside = output
    .flatMap((o) => (o.type === 'chunk' ? o.moduleIds : []))
    .filter((id) => id.startsWith(root) && !id.includes(`${sep}node_modules${sep}`))
    .filter((id) => !SOURCES.some((s) => id === join(root, s) || id.startsWith(join(root, s) + sep)));
  if (outside.length > 0)
    throw new Error(`server bundle: add to SOURCES in scripts/server-build.ts: ${outside.join(', ')}`);
  mkdirSync(SERVER_BUNDLE_DIR, { recursive: true });
  const written = new Set<string>();
  // The chunks first, serve.js last: a server starting meanwhile finds every chunk its serve.js names.
  for (const o of [...output].sort(
    (a, b) => Number(a.fileName === 'serve.js') - Number(b.fileName === 'serve.js'),
  )) {
    const file = join(SERVER_BUNDLE_DIR, o.fileName);
    written.add(o.fileName);
    if (o.fileName !== 'serve.js' && existsSync(file)) continue;
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, o.type === 'chunk' ? o.code : o.source);
    // Dated from the build's start: a source saved while it ran is newer, so the next start builds again.
    if (o.fileName === 'serve.js') utimesSync(temporary, startedAt, startedAt);
    renameSync(temporary, file);
  }
  for (const name of readdirSync(SERVER_BUNDLE_DIR)) {
    const file = join(SERVER_BUNDLE_DIR, name);
    if (!written.has(name) && Date.now() - statSync(file).mtimeMs > KEEP_OLD_FILES_MS)
      rmSync(file, { force: true });
  }
}

/** True when dist/server is missing or any server source changed after it was built. */
export function isServerStale(): boolean {
  return isStale(root, SERVER_BUNDLE, SOURCES);
}

/** Bundles the server (in a child process, as the client) when it is stale; throws when the build fails. */
export function buildServerIfStale(log: (msg: string) => void = console.log): void {
  if (!isServerStale()) return;
  log('server: bundling dist/server (missing or stale) ...');
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'server-build.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`server bundle failed (exit ${result.status})`);
  log('server: bundled');
}

if (import.meta.main) await bundleServer();
