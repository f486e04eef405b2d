// Completion against cancel, through HTTP: once the last signature is stored, a cancel is refused with a
// clear message, whether it arrives while completion runs, after a crash before completion, or in many
// parallel races. A flow whose parties all signed never ends "cancelled".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RoomLogin, cancelFlow, signDocument } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { queryRows } from '#server/db/database.ts';
import { completeStragglers } from '#server/modules/flow/testing.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import {
  type Signer,
  contractPdf,
  launchForOne,
  personWithCert,
  roomBySession,
  setSigningFaults,
  signCode,
} from '../fixtures/flow.ts';

let t: TestApp;
let alice: Signer;
let pdf: Uint8Array;

beforeAll(async () => {
  t = await createTestApp({ FREE_SIGNING_ALLOWANCE: '60', SMS_MAX_PER_PHONE_HOUR: '200' });
  alice = await personWithCert(t, '李四', { seal: false });
  pdf = await contractPdf(1);
}, 180_000);
afterAll(() => {
  setSigningFaults(t.deps, undefined);
  return t?.close();
});

/** Alice launches a one-party flow for the signer; the signer opens its room and holds a signing code. */
async function ready(signer: Signer): Promise<{ flowId: string; room: RoomLogin; smsCode: string }> {
  const launched = await launchForOne(alice.agent, signer, { pdf, title: 'race' });
  const room = await roomBySession(signer.agent, launched.flowId);
  const smsCode = await signCode(t, signer.agent, room.roomToken, signer.phone);
  return { flowId: launched.flowId, room, smsCode };
}

const signNow = (signer: Signer, r: { room: RoomLogin; smsCode: string }) =>
  signer.agent.call<{ flowStatus: string }>(signDocument, {
    userType: 0,
    roomToken: r.room.roomToken,
    smsCode: r.smsCode,
    personSealId: signer.sealId,
  });
const cancelNow = (flowId: string) =>
  alice.agent.call(cancelFlow, { userType: 0, flowId, reason: 'changed my mind' });

async function stateOf(flowId: string) {
  const [f] = await queryRows<{ status: string; signed: number; parties: number }>(
    t.db,
    sql`SELECT f.status,
          (SELECT count(*)::int FROM flow_parties p WHERE p.flow_id = f.id AND p.status = 'signed') AS signed,
          (SELECT count(*)::int FROM flow_parties p WHERE p.flow_id = f.id) AS parties
        FROM flows f WHERE f.id = ${flowId}`,
  );
  return f;
}

describe('cancel against the last signature', () => {
  test('a cancel arriving while completion runs is refused; the flow completes', async () => {
    const bob = await personWithCert(t, '王五');
    const r = await ready(bob);
    let during: Awaited<ReturnType<typeof cancelNow>> | undefined;
    setSigningFaults(t.deps, {
      afterLastSignature: async (flowId) => {
        during = await cancelNow(flowId);
      },
    });
    const signed = await signNow(bob, r);
    setSigningFaults(t.deps, undefined);
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    expect(during?.body.code).toBe(Code.FlowClosed);
    expect(during?.body.msg).toMatch(/every party has already signed/);
    expect((await stateOf(r.flowId)).status).toBe('completed');
    const zh = await alice.agent.call(
      cancelFlow,
      { userType: 0, flowId: r.flowId, reason: 'x' },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.code).toBe(Code.FlowClosed);
    expect(zh.body.msg).toMatch(/所有签署方均已签署/);
  }, 120_000);

  test('a crash after the last signature: cancel is refused, the straggler sweep completes the flow', async () => {
    const carol = await personWithCert(t, '陈八');
    const r = await ready(carol);
    setSigningFaults(t.deps, {
      afterLastSignature: () => {
        throw new Error('killed after the last signature');
      },
    });
    const crashed = await signNow(carol, r);
    setSigningFaults(t.deps, undefined);
    expect(crashed.body.code).toBe(Code.Internal);
    expect(await stateOf(r.flowId)).toMatchObject({ status: 'signing', signed: 1, parties: 1 });
    const refused = await cancelNow(r.flowId);
    expect(refused.body.code).toBe(Code.FlowClosed);
    expect(refused.body.msg).toMatch(/every party has already signed/);
    await completeStragglers(t.deps);
    expect((await stateOf(r.flowId)).status).toBe('completed');
  }, 120_000);

  test('many parallel races never end "cancelled" after every party signed', async () => {
    const signers: Signer[] = [];
    for (let i = 0; i < 4; i++) signers.push(await personWithCert(t, ['甲一', '乙二', '丙三', '丁四'][i]));
    // Completion takes a while of its own (B-LTA); a random pause after the last signature widens the
    // window the old code lost in. The cancels are spread over the time a signature and its completion
    // take, so some land before the signature, some while it is stored, some during completion.
    setSigningFaults(t.deps, {
      afterLastSignature: () => new Promise((res) => setTimeout(res, Math.random() * 150)),
    });
    const outcomes: string[] = [];
    const delay = (ms: number) => new Promise((res) => setTimeout(res, ms));
    try {
      for (let round = 0; round < 3; round++) {
        const prepared = [];
        for (const s of signers) prepared.push({ s, r: await ready(s) });
        const results = await Promise.all(
          prepared.map(async ({ s, r }, i) => {
            const [signed, cancelled] = await Promise.all([
              signNow(s, r),
              delay((i + round / 3) * 300 + Math.random() * 100).then(() => cancelNow(r.flowId)),
            ]);
            return { flowId: r.flowId, signed, cancelled };
          }),
        );
        for (const { flowId, signed, cancelled } of results) {
          const state = await stateOf(flowId);
          outcomes.push(state.status);
          expect(['completed', 'cancelled']).toContain(state.status);
          if (state.status === 'cancelled') {
            // The cancel won: the signature was refused and nobody counts as signed.
            expect(cancelled.body.code).toBe(0);
            expect(signed.body.code).not.toBe(0);
            expect(state.signed).toBe(0);
          } else {
            expect(signed.body.code, signed.body.msg).toBe(0);
            expect(cancelled.body.code).toBe(Code.FlowClosed);
            expect(state.signed).toBe(state.parties);
          }
        }
      }
    } finally {
      setSigningFaults(t.deps, undefined);
    }
    expect(outcomes).toHaveLength(12);
  }, 600_000);
});
