// Several instances (scripts/cluster.ts: Debian's PostgreSQL, s3rver, three instances, HAProxy in front):
// sessions and caches correct whichever instance answers, and one instance killed with SIGKILL while
// signers sign through the balancer: every acknowledged signature is in its document and verifies with
// pdfsig, and no flow is left half-done (its recorded signatures are exactly the PDF's).
// `npm run test:cluster` (minutes: it starts the whole set-up).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_DOWNLOAD_PATH } from '#contract/calls/document.ts';
import { type FlowDetail, getFlowDetail } from '#contract/calls/flow.ts';
import {
  type LoginInfo,
  getEsignLoginInfo,
  logout,
  updateLoginUserInfoCache,
} from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import {
  Browser,
  CallError,
  fetchSend,
  outboxCode,
  prepareRooms,
  type Room,
  sign,
} from '../../bench/signers.ts';
import { type Cluster, startCluster } from '../../scripts/cluster.ts';
import { ensureTools } from '../../scripts/ensure-tools.ts';
import { nssDb, run } from '../server/pdf/sign/helpers.ts';

let cluster: Cluster;
const work = mkdtempSync(join(tmpdir(), 'esign-cluster-test-'));

beforeAll(async () => {
  ensureTools(['poppler-utils', 'libnss3-tools']); // pdfsig and certutil check the signatures
  cluster = await startCluster({
    // CLUSTER_BASE_PORT: another port range when a second cluster runs on the machine.
    basePort: Number(process.env.CLUSTER_BASE_PORT ?? 18600),
    env: {
      SMS_MAX_PER_IP_HOUR: '100000',
      SMS_MAX_PER_PHONE_HOUR: '1000',
      LOGIN_MAX_PER_IP: '100000',
      FREE_SIGNING_ALLOWANCE: '1000',
      // A minute: only the instances telling each other (LISTEN/NOTIFY) can explain a change seen at once.
      CACHE_TTL_MS: '60000',
    },
  });
}, 300_000);
afterAll(async () => {
  await cluster?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The same browser (cookies) sending to a given instance. */
function on(url: string, from?: Browser): Browser {
  const b = new Browser(fetchSend(url));
  if (from) for (const [k, v] of from.cookies) b.cookies.set(k, v);
  return b;
}

async function soon(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('sessions and caches across instances', () => {
  it('log in through one instance, act through another, log out on a third: refused on all', async () => {
    const [i1, i2, i3] = cluster.instances;
    const kit = { newBrowser: () => on(i1.url), code: outboxCode(i1.url) };
    const [room] = await prepareRooms(kit, { parties: 1, prefix: '135' });
    const onI2 = on(i2.url, room.b);
    const onI1 = on(i1.url, room.b);
    // Both instances have the session (and its login info) cached now.
    expect((await onI1.call<LoginInfo>(getEsignLoginInfo, { userType: 0 })).phone).toBe(room.phone);
    expect((await onI2.call<LoginInfo>(getEsignLoginInfo, { userType: 0 })).phone).toBe(room.phone);
    await on(i3.url, room.b).call(logout, { userType: 0 });
    const refused = (b: Browser) => async () => {
      try {
        await b.call(updateLoginUserInfoCache, { userType: 0 });
        return false;
      } catch (err) {
        return err instanceof CallError && err.code === Code.NotLoggedIn;
      }
    };
    expect(await soon(refused(onI1))).toBe(true);
    expect(await soon(refused(onI2))).toBe(true);
  }, 300_000);
});

describe('an instance killed with SIGKILL while signing', () => {
  const SIGNERS = Number(process.env.CLUSTER_TEST_SIGNERS ?? 12);

  it('loses no acknowledged signature and leaves no flow half-done', async () => {
    const kit = { newBrowser: () => on(cluster.url), code: outboxCode(cluster.url) };
    const rooms = await prepareRooms(kit, { parties: SIGNERS, prefix: '134', concurrency: 4 });
    const acknowledged = new Set<Room>();
    const attempts = new Map<Room, string[]>();
    // Each signer tries again after a failure (a broken connection, the balancer's 502), as a person
    // pressing the button again would; an attempt refused by the server is recorded and ends the retries.
    const signer = async (r: Room) => {
      for (let attempt = 0; attempt < 4; attempt++) {
        try {
          await sign(r);
          acknowledged.add(r);
          return;
        } catch (err) {
          attempts.set(r, [...(attempts.get(r) ?? []), (err as Error).message]);
          if (err instanceof CallError && err.code !== null) return;
          await new Promise((res) => setTimeout(res, 500));
        }
      }
    };
    const victim = cluster.instances[1];
    const all = Promise.all(rooms.map(signer));
    // Kill it while the signatures are in flight (the first one is answered after a few hundred ms here).
    await new Promise((r) => setTimeout(r, 300));
    victim.child.kill('SIGKILL');
    await all;
    expect(victim.child.signalCode).toBe('SIGKILL');
    console.log(
      `cluster test: ${acknowledged.size}/${rooms.length} signatures acknowledged; failed attempts: ` +
        JSON.stringify([...attempts.values()]),
    );
    expect(acknowledged.size, JSON.stringify([...attempts.values()])).toBeGreaterThan(0);

    const rootPem = await (await fetch(`${cluster.url}/v1/pki/root.crt`)).text();
    const nss = nssDb(work, rootPem);
    for (const [i, r] of rooms.entries()) {
      const detail = await r.initiator.call<FlowDetail>(getFlowDetail, { userType: 0, flowId: r.flowId });
      const pdf = await fetch(`${cluster.url}${DOCUMENT_DOWNLOAD_PATH}/${r.documentId}`, {
        headers: {
          cookie: [...r.initiator.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
        },
      });
      expect(pdf.status).toBe(200);
      const file = join(work, `flow-${i}.pdf`);
      writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
      const out = run('pdfsig', ['-nssdir', nss, '-no-ocsp', file]).out;
      const valid = out
        .split(/Signature #\d+:/)
        .slice(1)
        .filter((b) => b.includes('Signature is Valid.'));
      const blocks = out.split(/Signature #\d+:/).length - 1;
      // No half-done flow: what the flow records as signed is exactly what the document carries.
      expect(valid.length, out).toBe(blocks);
      expect(detail.signedCount, `${r.flowId}: ${out}`).toBe(blocks);
      // No lost signature: every acknowledged one is there and valid.
      if (acknowledged.has(r)) expect(detail.signedCount).toBe(1);
    }
  }, 600_000);
});
