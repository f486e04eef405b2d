// lib/idle-garbage.ts (issue 23): the garbage of a busy spell is collected once requests have paused, never
// while one is in flight, only when the heap has grown enough since the last time, and at most so often.
import { EventEmitter } from 'node:events';
import { afterEach, expect, test } from 'vitest';
import { type IdleGarbage, releaseGarbageWhenIdle } from '#server/lib/idle-garbage.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let idle: IdleGarbage | undefined;
afterEach(() => idle?.stop());

/** Memory outside V8's heap that counts as the heap's growth (external_memory): 8 MB of ArrayBuffers. */
let held: ArrayBuffer[] = [];
const grow = () => {
  held = Array.from({ length: 8 }, () => new ArrayBuffer(1024 * 1024));
};

test('collects after a pause with nothing in flight, once the heap has grown; not during a request', async () => {
  const collected: number[] = [];
  idle = releaseGarbageWhenIdle({
    collect: () => {
      collected.push(Date.now());
      held = []; // what the collection would give back
      return true;
    },
    idleMs: 100,
    growthBytes: 6 * 1024 * 1024,
    minGapMs: 0,
    checkEveryMs: 20,
  });
  idle.start();
  await sleep(250);
  expect(collected).toHaveLength(0); // idle, but nothing grew

  const res = new EventEmitter();
  idle.track(res);
  grow();
  await sleep(250);
  expect(collected).toHaveLength(0); // grown, but a request is in flight
  res.emit('close');
  await sleep(50);
  expect(collected).toHaveLength(0); // not yet idle long enough
  await sleep(250);
  expect(collected).toHaveLength(1);
  expect(held).toHaveLength(0);
  await sleep(250);
  expect(collected).toHaveLength(1); // nothing grew since
});

test('at most once per minGapMs, and never again when the runtime has no gc', async () => {
  let calls = 0;
  idle = releaseGarbageWhenIdle({
    collect: () => {
      calls += 1;
      return false;
    },
    idleMs: 0,
    growthBytes: 1,
    minGapMs: 0,
    checkEveryMs: 10,
  });
  idle.start();
  grow();
  await sleep(150);
  expect(calls).toBe(1);

  let runs = 0;
  idle.stop();
  idle = releaseGarbageWhenIdle({
    collect: () => {
      runs += 1;
      return true;
    },
    idleMs: 0,
    growthBytes: 1,
    minGapMs: 10_000,
    checkEveryMs: 10,
  });
  idle.start();
  grow();
  await sleep(100);
  grow();
  await sleep(100);
  expect(runs).toBe(1);
});
