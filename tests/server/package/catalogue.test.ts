// A fresh install seeds a package catalogue on its first start (PACKAGE_CATALOGUE: default, none, or a
// JSON file), never over an administrator's own packages; `npm run admin` beside a running server on the
// same embedded database says so clearly instead of printing nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_CATALOGUE } from '#server/modules/package/testing.ts';
import { seedCatalogue } from '#server/modules/package/index.ts';
import { listAllPackages } from '#server/modules/package/index.ts';
import { liveServerPid, writeServerPid } from '#server/lib/server-pid.ts';
import { type TestApp, createTestApp } from '../helper.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

describe('package catalogue seeding', () => {
  test('default: an empty catalogue gets the default packages, once; something can be bought', async () => {
    const t = await createTestApp();
    apps.push(t);
    expect(await listAllPackages(t.deps)).toHaveLength(0);
    expect(await seedCatalogue(t.deps)).toBe(DEFAULT_CATALOGUE.length);
    const list = await listAllPackages(t.deps);
    expect(list.map((p) => p.nameEn).sort()).toEqual(DEFAULT_CATALOGUE.map((p) => p.nameEn).sort());
    expect(list.every((p) => p.isActive)).toBe(true);
    expect(await seedCatalogue(t.deps)).toBe(0);
    expect(await listAllPackages(t.deps)).toHaveLength(DEFAULT_CATALOGUE.length);
  });

  test('none seeds nothing; a file seeds its packages; a bad file names itself', async () => {
    const none = await createTestApp({ PACKAGE_CATALOGUE: 'none' });
    apps.push(none);
    expect(await seedCatalogue(none.deps)).toBe(0);
    expect(await listAllPackages(none.deps)).toHaveLength(0);

    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    const file = join(dir, 'packages.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          name: '试用',
          nameEn: 'Trial',
          saleProductType: '10',
          signings: 3,
          priceFen: 100,
          validityDays: 30,
        },
      ]),
    );
    const own = await createTestApp({ PACKAGE_CATALOGUE: file });
    apps.push(own);
    expect(await seedCatalogue(own.deps)).toBe(1);
    expect((await listAllPackages(own.deps)).map((p) => p.nameEn)).toEqual(['Trial']);

    writeFileSync(file, JSON.stringify([{ name: 'x' }]));
    const bad = await createTestApp({ PACKAGE_CATALOGUE: file });
    apps.push(bad);
    await expect(seedCatalogue(bad.deps)).rejects.toThrow(/PACKAGE_CATALOGUE: package 1 of/);
  });
});

describe('npm run admin beside a running server', () => {
  test('a live server pid on the data folder: the command explains and exits; a stale pid is ignored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'admin-'));
    // A live process standing in for the server.
    const stand = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(dataDir, 'server.pid'), `${stand.pid}\n`);
      expect(liveServerPid(dataDir)).toBe(stand.pid);
      const run = spawn(process.execPath, ['scripts/admin.ts', 'packages'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' },
      });
      let err = '';
      run.stderr.on('data', (b) => {
        err += String(b);
      });
      const code = await new Promise<number | null>((res) => run.on('close', res));
      expect(code).toBe(3);
      expect(err).toMatch(new RegExp(`server \\(process ${stand.pid}\\) is running`));
      expect(err).toMatch(/\/manage\/admin\/packages/);
    } finally {
      stand.kill();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(liveServerPid(dataDir)).toBeNull();
    const remove = writeServerPid(dataDir);
    expect(liveServerPid(dataDir)).toBeNull(); // our own pid is not "another server"
    remove();
  }, 60_000);
});
