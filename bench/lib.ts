// Helpers shared by the benchmarks: a real server process on a data folder, timing, statistics.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { keySuffixOf } from '#contract/transport.ts';
import { buildServerIfStale, SERVER_BUNDLE } from '../scripts/server-build.ts';

export const root = resolve(import.meta.dirname, '..');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function freshDataDir(prefix = 'esign-bench-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export type RunningServer = {
  url: string;
  child: ChildProcess;
  /** Spawn → /v1/health answering, wall time. */
  readyMs: number;
  /** CPU time (user + system, all threads) the server process spent until /v1/health answered: unlike
   * readyMs it does not grow when other processes share the machine. */
  readyCpuMs: number;
  stop: () => Promise<void>;
};

/** User + system CPU time of a live process, in ms (from /proc/<pid>/stat; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, hence after the last ')'): utime is the 14th
  // field of the line, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts the server as `npm start` runs it (the bundle in dist/server, rebuilt first when stale) on Node 24
 * and resolves once /v1/health answers; readyMs is spawn → ready.
 */
export async function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  buildServerIfStale();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: root,
    env: {
      // As `npm start` runs it: two malloc arenas (see package.json's start script and server/README.md),
      // and the compile cache.
      MALLOC_ARENA_MAX: '2',
      NODE_COMPILE_CACHE: join(root, 'node_modules', '.cache', 'server-compile'),
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - started;
  const readyCpuMs = cpuMs(child.pid!);
  return {
    url,
    child,
    readyMs,
    readyCpuMs,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Resident memory of a process by kind of mapping, in MB (from /proc/<pid>/smaps): '[heap]' (malloc's main
 * arena), 'wasm' (PGlite's WebAssembly memory: one anonymous mapping of 128 MB or more, never shrinking),
 * 'anon <1MB' (mostly V8's 256 KB heap pages), 'other anon' (malloc arenas of threads, V8's reservations).
 */
export function memoryByKind(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const mb = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 1048576;
      const name = head[3];
      kind = name.startsWith('/')
        ? 'files'
        : name
          ? name
          : mb < 1
            ? 'anon <1MB'
            : mb >= 128 && mb % 0.0625 === 0 && mb < 2048 && mb !== 256 && mb !== 512
              ? 'wasm'
              : 'other anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter(([, v]) => v >= 1)
      .map(([k, v]) => [k, Math.round(v)]),
  );
}

/** Two memoryByKind readings side by side, every kind either has: "wasm 128 → 130, anon <1MB 40 → 44". */
export function kindsChange(before: Record<string, number>, after: Record<string, number>): string {
  const kinds = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return kinds.map((k) => `${k} ${before[k] ?? 0} → ${after[k] ?? 0}`).join(', ');
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Registers a person through the real API (SMS code from the development outbox) and returns its cookies. */
export async function registerUser(url: string, phone: string, password = 'Bench12345') {
  const post = (name: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${url}/v1/account/api/csign/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  await post('sendSmsCode', { userType: 0, phone, purpose: 'register' });
  const outbox = (await (await fetch(`${url}/v1/dev/outbox?phone=${phone}`)).json()) as {
    data: { code: string }[];
  };
  const smsCode = outbox.data[0].code;
  const res = await post('userRegister', { userType: 0, phone, password, smsCode });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const token = cookies.find((c) => c.startsWith('token='))?.slice('token='.length) ?? '';
  return { cookie: cookies.join('; '), headers: { 'x-xsrf-token': token, keysuffix: keySuffixOf(token) } };
}

/** Threads of a process (the main thread, libuv's, V8's, and one per live worker). */
export const threadsOf = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The idle RSS of a server after a busy spell (the soaks): read past the verification pool's idle time (60 s:
 * its workers have ended; `SOAK_IDLE_MS`), then every 15 s until two readings agree within 3 MB (at most 4
 * more minutes). V8 gives the main thread's unused heap back only when its memory reducer runs, which after a
 * busy spell can take well over a minute: a single reading at 65 s once showed 268 MB of V8 pages that were
 * 56 MB 30 s later.
 */
export async function settle(pid: number): Promise<number> {
  await sleep(Number(process.env.SOAK_IDLE_MS ?? 65_000));
  let last = rssMb(pid);
  for (let i = 0; i < 16; i++) {
    await sleep(15_000);
    const now = rssMb(pid);
    if (Math.abs(now - last) < 3) return now;
    last = now;
  }
  return last;
}
