// Runs after `npm install` (the root postinstall), on the Node every npm script runs on: Node 24 from the
// `node` package. npm itself runs on the machine's Node and judges every dependency's `engines` against
// THAT Node, so on a machine with Node 20 it prints a screen of EBADENGINE warnings about packages that
// never run on Node 20 here. Hiding npm's warnings (loglevel) would hide real ones too; instead this does
// the check that matters: every installed package's `engines.node` against the Node the project runs on.
// It names any real mismatch (exit code stays 0: a warning, like npm's) and says why npm warned.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

type Lock = { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

/** Installed packages whose engines.node does not accept `nodeVersion` ("name@version needs RANGE"). */
export function engineMismatches(lock: Lock, nodeVersion: string): string[] {
  // semver comes with npm's own dependency tree (several packages here use it); typed by hand.
  const semver = require('semver') as {
    validRange(range: string): string | null;
    satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  };
  const out: string[] = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    if (!path) continue; // the project itself
    const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
    if (!range || !semver.validRange(range)) continue;
    if (!semver.satisfies(nodeVersion, range, { includePrerelease: true }))
      out.push(`${path.replace(/^.*node_modules\//, '')}@${p.version ?? '?'} needs Node ${range}`);
  }
  return out;
}

function main(): void {
  const root = join(import.meta.dirname, '..');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
  const runtime = process.versions.node;
  const bad = engineMismatches(lock, runtime);
  const npmNode = /node\/v?(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
  if (bad.length) {
    console.warn(`engines: ${bad.length} package(s) do not accept Node ${runtime}, which runs this project:`);
    for (const b of bad) console.warn(`  ${b}`);
  } else {
    console.log(
      `engines: every installed package accepts Node ${runtime}, the Node this project runs on.` +
        (npmNode && npmNode !== runtime
          ? ` npm itself ran on Node ${npmNode}: any EBADENGINE warnings above judged packages against that Node, which never runs them here.`
          : ''),
    );
  }
}

if (import.meta.main) {
  // An installation must never fail over a note: anything unexpected is said and passed over.
  try {
    main();
  } catch (err) {
    console.warn(`engines: the check could not run (${(err as Error).message})`);
  }
}
