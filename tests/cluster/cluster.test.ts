// Several instances (scripts/cluster.ts: Debian's PostgreSQL, s3rver, three instances, HAProxy in front):
// sessions and caches correct whichever instance answers, and one instance killed with SIGKILL while
// signers sign through the balancer: every acknowledged signature is in its document and verifies with
// pdfsig, and no flow is left half-done (its recorded signatures are exactly the PDF's); and one killed
// while it delivers webhooks (jobs): the delivery it had in flight is made by another instance, every event
// is delivered, and no job's effect is recorded twice.
// `npm run test:cluster` (minutes: it starts the whole set-up).
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '#contract/calls/document.ts';
import { DOCUMENT_DOWNLOAD_PATH } from '#contract/calls/document.ts';
import { type FlowDetail, getFlowDetail, launchFlow } from '#contract/calls/flow.ts';
import {
  type LoginInfo,
  getEsignLoginInfo,
  logout,
  updateLoginUserInfoCache,
} from '#contract/calls/session.ts';
import { createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import {
  Browser,
  CallError,
  contractPdf,
  fetchSend,
  outboxCode,
  prepareRooms,
  type Room,
  sign,
} from '../../bench/signers.ts';
import { type Cluster, startCluster } from '../../scripts/cluster.ts';
import { ensureTools } from '../../scripts/ensure-tools.ts';
import { nssDb, run } from '../server/fixtures/pdf-signing.ts';

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
      // A killed instance's running job is failed after 10 s without a heartbeat (the supervisor looks
      // every 2 s) and retried elsewhere; workers look for work every half second.
      JOBS_HEARTBEAT_SECONDS: '10',
      JOBS_SUPERVISE_SECONDS: '2',
      JOBS_POLL_SECONDS: '0.5',
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

/** The local TCP ports of the sockets a process holds open (its fds, matched in /proc/net/tcp{,6}). */
function localPortsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9])) ports.add(Number.parseInt(f[1].split(':')[1], 16));
    }
  return ports;
}

/**
 * A webhook receiver that holds each delivery `holdMs` before answering 200, and notes per event id the
 * answers it gave and the requests cut before it could answer (the sender died).
 */
async function slowReceiver(holdMs: number) {
  const answered = new Map<string, number[]>(); // event id -> times answered
  const cut = new Set<string>();
  const open = new Map<IncomingMessage, { eventId: string; port: number }>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const eventId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      open.set(req, { eventId, port: req.socket.remotePort ?? 0 });
      const timer = setTimeout(() => {
        open.delete(req);
        answered.set(eventId, [...(answered.get(eventId) ?? []), Date.now()]);
        res.end('ok');
      }, holdMs);
      res.on('close', () => {
        if (res.writableFinished) return;
        clearTimeout(timer);
        open.delete(req);
        cut.add(eventId);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    answered,
    cut,
    open,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('an instance killed with SIGKILL while it runs jobs (webhook deliveries)', () => {
  const EVENTS = Number(process.env.CLUSTER_TEST_EVENTS ?? 24);

  it("delivers every event; the killed instance's delivery is made by another; no job effect twice", async () => {
    // The previous test killed i2: bring it back, so that three instances take jobs.
    const [i1, i2, i3] = cluster.instances;
    if (i2.child.exitCode !== null || i2.child.signalCode !== null) await cluster.restart(i2);
    const receiver = await slowReceiver(2000);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const kit = { newBrowser: () => on(i1.url), code: outboxCode(i1.url) };
      const [{ initiator }] = await prepareRooms(kit, { parties: 1, prefix: '136' });
      const endpoint = await initiator.call<{ endpointId: string }>(createWebhookEndpoint, {
        userType: 0,
        url: receiver.url,
        events: ['flow.launched'],
      });
      // Kill i3 the moment the receiver holds a delivery that i3 sent (matched by the connection's port),
      // while the launches below go on through i1.
      const victim = i3;
      const victimPid = victim.child.pid!;
      let inFlight: { eventId: string; port: number } | undefined;
      let killedAt = 0;
      const killing = until(
        'a delivery in flight from the victim',
        () => {
          const ports = localPortsOf(victimPid);
          inFlight = [...receiver.open.values()].find((o) => ports.has(o.port));
          if (inFlight) {
            victim.child.kill('SIGKILL');
            killedAt = Date.now();
          }
          return inFlight !== undefined;
        },
        240_000,
      );
      // Each launch stores one `flow.launched` event and queues its delivery job; the receiver's 2 s per
      // delivery keeps a backlog that all three instances work on.
      const pdf = await contractPdf();
      for (let n = 0; n < EVENTS; n++) {
        const up = await initiator.call<{ documentId: string }>(uploadDocument, { userType: 0 }, pdf);
        await initiator.call(launchFlow, {
          userType: 0,
          title: `jobs ${n}`,
          documentIds: [up.documentId],
          steps: [
            {
              parties: [
                {
                  kind: 'person',
                  name: 's',
                  phone: `136${String(n + 1).padStart(8, '0')}`,
                  positions: [
                    { documentId: up.documentId, page: 1, mm: { left: 20, top: 200, width: 30, height: 30 } },
                  ],
                },
              ],
            },
          ],
        });
      }
      await killing;
      await until('the victim gone', () => victim.child.signalCode === 'SIGKILL', 10_000);
      const eventsOf = async () =>
        (
          await db.query<{ id: string; event_id: string; state: string; ok_attempts: number }>(
            `SELECT m.id, m.event_id, m.state,
                    (SELECT count(*)::int FROM webhook_attempts a WHERE a.message_id = m.id AND a.ok) AS ok_attempts
               FROM webhook_messages m WHERE m.endpoint_id = $1`,
            [endpoint.endpointId],
          )
        ).rows;
      expect((await eventsOf()).length).toBe(EVENTS);
      await until(
        'every event answered',
        async () => (await eventsOf()).every((e) => receiver.answered.has(e.event_id)),
        150_000,
      );
      const events = await eventsOf();
      const victimEvent = events.find((e) => e.event_id === inFlight!.eventId)!;
      // The delivery job the victim was running: failed for its missed heartbeat, run again elsewhere.
      const jobsOf = async (messageId: string) =>
        (
          await db.query<{ state: string; retry_count: number }>(
            `SELECT state, retry_count FROM pgboss.job WHERE name = 'webhook.deliver' AND data->>'messageId' = $1`,
            [messageId],
          )
        ).rows;
      await until(
        "the victim's job completed",
        async () => (await jobsOf(victimEvent.id)).some((j) => j.state === 'completed' && j.retry_count > 0),
        120_000,
      );
      const duplicates = [...receiver.answered].filter(([, at]) => at.length > 1);
      console.log(
        `cluster jobs test: ${EVENTS} events; cut by the kill: ${[...receiver.cut].join(', ')}; ` +
          `answered twice: ${duplicates.length}`,
      );
      // The delivery in flight on the killed instance was cut, then made (answered) by another instance.
      expect(receiver.cut.has(victimEvent.event_id)).toBe(true);
      expect(receiver.answered.get(victimEvent.event_id)?.length).toBe(1);
      // Every event delivered and recorded delivered once: one successful attempt per message.
      expect(events.map((e) => [e.state, e.ok_attempts])).toEqual(events.map(() => ['delivered', 1]));
      // The receiver got an event twice only if the killed instance's POST was answered just before the
      // kill and not recorded (at-least-once: receivers dedupe by event id); no other event twice.
      for (const [, at] of duplicates) {
        expect(at.length).toBe(2);
        expect(at[0]).toBeLessThanOrEqual(killedAt);
      }
      expect(duplicates.length).toBeLessThanOrEqual(1);
      // No delivery job left waiting, running or failed.
      const left = await db.query<{ state: string; n: number }>(
        `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'webhook.deliver'
            AND data->>'messageId' = ANY($1) AND state <> 'completed' GROUP BY state`,
        [events.map((e) => e.id)],
      );
      expect(left.rows).toEqual([]);
    } finally {
      await db.end();
      await receiver.close();
    }
  }, 600_000);
});
