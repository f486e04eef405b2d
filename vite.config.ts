import './scripts/require-node24.ts';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const serverPort = Number(process.env.PORT ?? 8080);

/** Text files worth compressing; smaller ones cost more in headers than they save. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every built text file. The server sends them as they are to a
 * browser that accepts the encoding (@fastify/static `preCompressed`), so a phone on a slow network
 * downloads about a third of the bytes and the server spends no CPU compressing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const walk = async (dir: string): Promise<string[]> =>
    (
      await Promise.all(
        (
          await readdir(dir, { withFileTypes: true })
        ).map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])),
      )
    ).flat();
  return {
    name: 'esign:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/')
        ? config.build.outDir
        : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await walk(outDir)).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const bytes = await readFile(file);
          if (bytes.length < MIN_COMPRESS_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  envDir: '.',
  server: {
    port: 5173,
    // xfwd: the server's development outbox sees who is really asking (a remote client of `vite --host`).
    proxy: { '/v1': { target: `http://127.0.0.1:${serverPort}`, changeOrigin: false, xfwd: true } },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry needs before any screen (React, the router, the route table, i18n, the
          // session) in one chunk: a phone on a slow network makes a few requests instead of a dozen small
          // ones, and one file compresses better than many.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
      treeshake: {
        // @rc-component/form has no side effects but does not say so (no `sideEffects` in its package.json):
        // antd's Input imports one context from its index, which then dragged the whole form engine and its
        // validator (13 kB gzipped) onto the login page.
        moduleSideEffects: [
          { test: /node_modules[\\/](@rc-component|@ant-design)[\\/]/, sideEffects: false },
        ],
      },
    },
  },
});
