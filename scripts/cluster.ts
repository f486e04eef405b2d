// Several instances, as a deployment runs them: Debian's PostgreSQL, an S3 stand-in (s3rver), three server
// instances on their own ports and data folders (one CA, copied), and HAProxy from Debian in front
// (round robin, no sticky sessions, health checks on /v1/health). Used by `npm run bench -- cluster` and
// `npm run test:cluster`; `node scripts/cluster.ts` starts it and keeps it up until Ctrl-C.
import './require-node24.ts';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureTools } from './ensure-tools.ts';
import { buildServerIfStale, SERVER_BUNDLE } from './server-build.ts';

const root = resolve(import.meta.dirname, '..');

export type Instance = { name: string; port: number; url: string; dataDir: string; child: ChildProcess };

export type Cluster = {
  /** The balancer's address: what clients use. */
  url: string;
  databaseUrl: string;
  instances: Instance[];
  /** Process ids whose CPU time the bench reports, by role. */
  pids: () => { instances: number[]; postgres: number[]; s3: number; balancer: number };
  /** Starts a stopped (killed) instance again on its port and data folder. */
  restart(instance: Instance): Promise<void>;
  stop(): Promise<void>;
};

export type ClusterOptions = {
  /** First port: balancer = base, S3 = base+1, PostgreSQL = base+2, instances = base+10, +11, +12. */
  basePort?: number;
  instances?: number;
  /** Extra environment of every instance. */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

// For looking inside (not used by the bench's figure): CLUSTER_NODE_ARGS adds node flags to every instance
// (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), CLUSTER_PG_OPTIONS adds PostgreSQL settings (e.g.
// `-c shared_preload_libraries=pg_stat_statements`). Both are split on spaces.
const words = (v: string | undefined) => (v ?? '').split(' ').filter(Boolean);

const pgBinDir = (): string => {
  const dirs = readdirSync('/usr/lib/postgresql')
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const dir = dirs.at(-1);
  if (!dir) throw new Error('PostgreSQL not found under /usr/lib/postgresql');
  return dir;
};

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  child?: ChildProcess,
  timeoutMs = 120_000,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const healthy = (url: string) => async () => (await fetch(`${url}/v1/health`)).ok;

/** PostgreSQL in `work`/pg, run as the `postgres` user when we are root (it refuses to run as root). */
function startPostgres(
  work: string,
  port: number,
): { url: string; stop: () => void; postmasterPid: () => number } {
  const bin = pgBinDir();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', [
        '--system',
        '--home-dir',
        '/var/lib/postgresql',
        '--shell',
        '/bin/bash',
        'postgres',
      ]);
    }
  }
  const dir = join(work, 'pg');
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    chownSync(dir, uid, 0);
  }
  const run = (args: string[]) =>
    execFileSync(asRoot ? 'runuser' : args[0], asRoot ? ['-u', 'postgres', '--', ...args] : args.slice(1), {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const data = join(dir, 'data');
  run([`${bin}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale']);
  // Durable as shipped (fsync, synchronous commits); room for three instances' pools and pg-boss.
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=200 ${words(process.env.CLUSTER_PG_OPTIONS).join(' ')}`;
  run([`${bin}/pg_ctl`, '-D', data, '-l', join(dir, 'server.log'), '-w', '-o', opts, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    postmasterPid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: () => {
      try {
        run([`${bin}/pg_ctl`, '-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already gone
      }
    },
  };
}

/** Children of `pid` (PostgreSQL's backends and helpers), from /proc. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** CPU seconds (user + system) a process has used, from /proc (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

function haproxyConfig(port: number, instances: Instance[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // Generous: on a shared two-core machine 50 signatures at once can keep an answer waiting minutes.
    '  timeout client 10m',
    '  timeout server 10m',
    // A refused connection (an instance that is down) is tried again on another instance. Nothing else
    // is retried: a request an instance received may have been carried out.
    '  retries 3',
    '  option redispatch',
    'frontend esign',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /v1/health',
    '  http-check expect status 200',
    // A busy instance (a signature takes CPU seconds on two cores under load) is slow, not down: a check
    // may take seconds; three missed checks in a row take it out, as a killed one is within ~3 s.
    '  timeout check 5s',
    '  default-server inter 1s fall 3 rise 2',
    ...instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`),
    '',
  ].join('\n');
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  ensureTools(['postgresql', 'haproxy']);
  // The instances run as `npm start` runs a server: the bundle, built first when stale.
  buildServerIfStale();
  const log = options.log ?? (() => {});
  const base = options.basePort ?? 18400;
  const count = options.instances ?? 3;
  const work = mkdtempSync(join(tmpdir(), 'esign-cluster-'));
  chmodSync(work, 0o755);
  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const pg = startPostgres(work, base + 2);
    stops.push(pg.stop);
    log(`PostgreSQL on ${pg.url}`);

    const s3Dir = join(work, 's3');
    mkdirSync(s3Dir);
    const s3 = spawn(process.execPath, [join(root, 'scripts', 's3-standin.ts'), String(base + 1), s3Dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    stops.push(() => stopChild(s3));
    const s3Url = `http://127.0.0.1:${base + 1}`;
    await waitFor('s3rver', async () => (await fetch(`${s3Url}/`)).status < 500, s3);
    log(`S3 stand-in on ${s3Url}`);

    const url = `http://127.0.0.1:${base}`;
    const env: Record<string, string> = {
      MALLOC_ARENA_MAX: '2',
      ...(process.env as Record<string, string>),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: url,
      DATABASE_URL: pg.url,
      S3_ENDPOINT: s3Url,
      S3_BUCKET: 'esign',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      // One master key for all: each instance opens the same CA (copied below) and the same account keys.
      ESIGN_MASTER_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'true',
      ...options.env,
    };
    const instances: Instance[] = Array.from({ length: count }, (_, i) => ({
      name: `i${i + 1}`,
      port: base + 10 + i,
      url: `http://127.0.0.1:${base + 10 + i}`,
      dataDir: join(work, `instance-${i + 1}`),
      child: null as unknown as ChildProcess,
    }));
    const launch = async (inst: Instance) => {
      inst.child = spawn(process.execPath, [...words(process.env.CLUSTER_NODE_ARGS), SERVER_BUNDLE], {
        cwd: root,
        env: { ...env, PORT: String(inst.port), DATA_DIR: inst.dataDir },
        stdio: ['ignore', process.env.CLUSTER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
      });
      await waitFor(`instance ${inst.name}`, healthy(inst.url), inst.child);
    };
    stops.push(async () => {
      for (const i of instances) if (i.child) await stopChild(i.child);
    });
    // The first makes the schema and the CA; the others copy its CA and start side by side.
    await launch(instances[0]);
    for (const inst of instances.slice(1))
      cpSync(join(instances[0].dataDir, 'pki'), join(inst.dataDir, 'pki'), { recursive: true });
    await Promise.all(instances.slice(1).map(launch));
    log(`instances on ${instances.map((i) => i.port).join(', ')}`);

    const cfg = join(work, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(base, instances));
    // Its warnings (an instance down or up again) go to haproxy.log beside the configuration.
    const balancerLog = openSync(join(work, 'haproxy.log'), 'a');
    const balancer = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', balancerLog, balancerLog] });
    stops.push(() => stopChild(balancer));
    await waitFor('haproxy', healthy(url), balancer);
    log(`HAProxy on ${url}`);

    return {
      url,
      databaseUrl: pg.url,
      instances,
      pids: () => {
        const master = pg.postmasterPid();
        return {
          instances: instances.map((i) => i.child.pid ?? 0),
          postgres: [master, ...childPids(master)],
          s3: s3.pid ?? 0,
          balancer: balancer.pid ?? 0,
        };
      },
      restart: launch,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

if (import.meta.main) {
  const cluster = await startCluster({ log: (l) => console.log(l) });
  console.log(`cluster ready: ${cluster.url} (Ctrl-C stops it)`);
  const end = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
}
