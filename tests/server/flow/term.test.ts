// Contract term (issue 29): validation at launch, the reminders the flow sweep sends 30, 7 and 1 days before the
// end of a COMPLETED flow (each once, with a moved clock, only to the launcher and the chosen people), editing
// the term (launcher only, audit), and "Renew": the prefill scoped to the launcher's account, the new flow
// recording the one it renews.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';
import { getAuditTrail, getFlowDetail } from '#contract/calls/flow.ts';
import {
  getFlowRenewal,
  getFlowTerm,
  listFlowTerms,
  setFlowTerm,
  type TermView,
} from '#contract/calls/term.ts';
import { launchTemplateFlow, prepareTemplateLaunch, saveTemplate } from '#contract/calls/template.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { templateSourcePdf } from '../fixtures/template.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { beijingDate } from '#server/lib/beijing-time.ts';
import { appForFile, uniquePhone } from '../helper.ts';
import {
  type Signer,
  contractPdf,
  launchForOne,
  ok,
  personWithCert,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
  userLogin,
} from '../fixtures/flow.ts';

const t = appForFile();
const DAY = 86_400_000;
let launcher: Signer;
let signer: Signer;
let stranger: Signer;
const watcher = uniquePhone();
let flowId: string;

const day = (offset: number) => beijingDate(new Date(t.clock.now().getTime() + offset * DAY));
const termNotices = async (phone: string) =>
  (await listOutbox(t.db, { to: phone, limit: 100 })).filter((m) => m.purpose === 'flow:term_ending');

/** The clock moved on (sessions time out meanwhile: everyone logs in again), then the due jobs run twice. */
async function later(ms: number) {
  t.clock.advance(ms);
  for (const p of [launcher, signer, stranger])
    ok(await p.agent.call(userLogin, { userType: 0, phone: p.phone, password: p.password }), 'login');
  await t.runDueJobs();
  await t.runDueJobs();
}

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  launcher = await personWithCert(t, '甲方');
  signer = await personWithCert(t, '乙方');
  stranger = await personWithCert(t, '丙方');
  ok(
    await launcher.agent.call(createWebhookEndpoint, {
      userType: 0,
      url: receiver.url,
      events: ['flow.term_ending'],
    }),
    'webhook',
  );
});
afterAll(() => receiver?.close());

describe('contract term', () => {
  test('the launch refuses an end not after the start, a bad date, a reminder day not offered', async () => {
    for (const term of [
      { startsOn: day(0), endsOn: day(0) },
      { startsOn: day(5), endsOn: day(1) },
      { startsOn: '2026-02-30', endsOn: day(40) },
      { startsOn: day(0), endsOn: day(40), remindDays: [14] },
      { startsOn: day(0), endsOn: day(40), remindPeople: [{ phone: '123' }] },
    ]) {
      const res = await tryLaunchForOne(launcher.agent, signer, { extra: { term } });
      expect(res.body.code, JSON.stringify(term)).toBe(1001);
    }
  });

  test('a completed flow is reminded once at 30, 7 and 1 days, only the launcher and the chosen people', async () => {
    ({ flowId } = await launchForOne(launcher.agent, signer, {
      title: 'Lease 2026',
      extra: {
        deadline: new Date(t.clock.now().getTime() + 60 * DAY).toISOString(),
        term: { startsOn: day(0), endsOn: day(40), remindPeople: [{ phone: watcher, name: '观察员' }] },
      },
    }));
    const view = ok(await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId }), 'term');
    expect(view.term).toMatchObject({
      endsOn: day(40),
      remindDays: [30, 7, 1],
      daysLeft: 40,
      state: 'inForce',
    });
    expect(view.term?.remindPeople).toEqual([{ phone: watcher, name: '观察员' }]);
    // A party sees the term, the people's phones masked.
    const asParty = ok(await signer.agent.call<TermView>(getFlowTerm, { userType: 0, flowId }), 'party');
    expect(asParty.term?.remindPeople[0].phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    expect(asParty.isLauncher).toBe(false);
    expect((await stranger.agent.call(getFlowTerm, { userType: 0, flowId })).body.code).toBe(1101);
    // A list's "expires in N days": only the account's own flows.
    type Briefs = { items: { flowId: string; daysLeft: number }[] };
    const briefs = ok(
      await launcher.agent.call<Briefs>(listFlowTerms, { userType: 0, flowIds: [flowId] }),
      'l',
    );
    expect(briefs.items).toEqual([expect.objectContaining({ flowId, endsOn: day(40), daysLeft: 40 })]);
    const theirs = ok(
      await stranger.agent.call<Briefs>(listFlowTerms, { userType: 0, flowIds: [flowId] }),
      'l',
    );
    expect(theirs.items).toEqual([]);

    // Not completed yet: 30 days before the end nothing goes out.
    await later(10 * DAY);
    expect(await termNotices(launcher.phone)).toHaveLength(0);
    await later(-10 * DAY);
    await signByLink(t, signer.agent, signer);
    const detail = ok(
      await launcher.agent.call<{ status: string }>(getFlowDetail, { userType: 0, flowId }),
      'd',
    );
    expect(detail.status).toBe('completed');

    await t.runDueJobs();
    expect(await termNotices(launcher.phone)).toHaveLength(0);
    const expectCounts = async (n: number) => {
      expect(await termNotices(launcher.phone)).toHaveLength(n);
      expect(await termNotices(watcher)).toHaveLength(n);
      expect(await termNotices(signer.phone)).toHaveLength(0);
    };
    await later(10 * DAY); // 30 days left
    await expectCounts(1);
    expect((await termNotices(watcher))[0].text).toContain('Lease 2026');
    await later(DAY); // 29
    await expectCounts(1);
    await later(22 * DAY); // 7
    await expectCounts(2);
    await later(6 * DAY); // 1
    await expectCounts(3);
    await later(2 * DAY); // ended
    await expectCounts(3);
    const after = ok(await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId }), 'term');
    expect(after.term).toMatchObject({ sentDays: [30, 7, 1], state: 'ended' });
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string }[] }>(getAuditTrail, { userType: 0, flowId }),
      'trail',
    );
    expect(trail.entries.filter((e) => e.event === 'term_remind')).toHaveLength(3);
    // The launcher's webhook heard each threshold once.
    const heard = receiver.received.filter((r) => r.json.type === 'flow.term_ending');
    expect(heard.map((r) => r.json.data)).toEqual(
      [30, 7, 1].map((daysLeft) =>
        expect.objectContaining({ flowId, term: { endsOn: after.term?.endsOn, daysLeft } }),
      ),
    );
  });

  test('the launcher edits the term (audit, reminders start over: only the nearest due is sent); others 1101', async () => {
    const term = { startsOn: day(-300), endsOn: day(5), remindDays: [30, 7, 1] };
    expect((await signer.agent.call(setFlowTerm, { userType: 0, flowId, term })).body.code).toBe(1101);
    expect((await stranger.agent.call(setFlowTerm, { userType: 0, flowId, term })).body.code).toBe(1101);
    const bad = await launcher.agent.call(setFlowTerm, {
      userType: 0,
      flowId,
      term: { ...term, endsOn: day(-400) },
    });
    expect(bad.body.code).toBe(1001);
    const set = ok(await launcher.agent.call<TermView>(setFlowTerm, { userType: 0, flowId, term }), 'set');
    expect(set.term).toMatchObject({ endsOn: day(5), sentDays: [], remindPeople: [] });
    await later(0);
    // 30 and 7 were both due: one notice for both.
    expect(await termNotices(launcher.phone)).toHaveLength(4);
    expect(await termNotices(watcher)).toHaveLength(3);
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'trail',
    );
    expect(trail.entries.find((e) => e.event === 'term_set')?.detail).toContain(day(5));
  });
});

type Renewal = {
  title: string;
  kind: string;
  steps: { parties: { name: string | null; phone: string | null; picked: { userId: string } | null }[] }[];
  term: { startsOn: string; endsOn: string } | null;
};

describe('renew', () => {
  test('the prefill: same parties, "(renewal)", the next term; only the launcher account; only completed', async () => {
    const r = ok(await launcher.agent.call<Renewal>(getFlowRenewal, { userType: 0, flowId }), 'renewal');
    expect(r.title).toBe('Lease 2026 (renewal)');
    expect(r.kind).toBe('upload');
    expect(r.steps).toHaveLength(1);
    expect(r.steps[0].parties[0]).toMatchObject({
      name: '乙方',
      phone: null,
      picked: { userId: signer.userId },
    });
    expect(r.term).toMatchObject({ startsOn: day(6), endsOn: day(6 + 305) });
    expect((await signer.agent.call(getFlowRenewal, { userType: 0, flowId })).body.code).toBe(1101);
    expect((await stranger.agent.call(getFlowRenewal, { userType: 0, flowId })).body.code).toBe(1101);
    const open = await launchForOne(launcher.agent, { name: '丁', phone: uniquePhone() });
    expect((await launcher.agent.call(getFlowRenewal, { userType: 0, flowId: open.flowId })).body.code).toBe(
      1100,
    );
    // A typed phone of someone not registered comes back as typed.
    const typed = ok(
      await launcher.agent.call<{ status: string }>(getFlowDetail, { userType: 0, flowId: open.flowId }),
      'd',
    );
    expect(typed.status).toBe('signing');
  });

  test('the renewal records the flow it renews; another account cannot renew it', async () => {
    const refused = await tryLaunchForOne(stranger.agent, signer, { extra: { renewsFlowId: flowId } });
    expect(refused.body.code).toBe(1101);
    const renewed = await launchForOne(launcher.agent, signer, {
      title: 'Lease 2026 (renewal)',
      extra: { renewsFlowId: flowId },
    });
    const old = ok(await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId }), 'old');
    expect(old.renewedBy.map((x) => x.flowId)).toEqual([renewed.flowId]);
    const fresh = ok(
      await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId: renewed.flowId }),
      'new',
    );
    expect(fresh.renews).toMatchObject({ flowId, title: 'Lease 2026' });
    expect(fresh.term).toBeNull();
  });

  test('a template flow: launched with a term from the template; its renewal names the template and the phones', async () => {
    const up = ok(await uploadPdf(launcher.agent, await templateSourcePdf(), 0, 'loan.pdf'), 'upload');
    const tpl = ok(
      await launcher.agent.call<{ templateId: string }>(saveTemplate, {
        userType: 0,
        documentId: up.documentId,
        name: '借条',
        roles: [{ key: 'lender', name: '出借人', kind: 'person', applies: {}, stepIndex: 0 }],
        positions: [{ roleKey: 'lender', page: 1, rect: [330, 130, 450, 190] }],
      }),
      'template',
    );
    const draft = ok(
      await launcher.agent.call<{ draftId: string }>(prepareTemplateLaunch, {
        userType: 0,
        templateId: tpl.templateId,
        title: 'Loan',
        assignments: [{ roleKey: 'lender', kind: 'person', name: '乙方', phone: signer.phone }],
      }),
      'fill',
    );
    const launched = ok(
      await launcher.agent.call<{ flowId: string }>(launchTemplateFlow, {
        userType: 0,
        draftId: draft.draftId,
        term: { startsOn: day(0), endsOn: day(365), remindDays: [30] },
      }),
      'launch',
    );
    const view = ok(
      await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId: launched.flowId }),
      'term',
    );
    expect(view.term).toMatchObject({ endsOn: day(365), remindDays: [30] });
    await signByLink(t, signer.agent, signer);
    const r = ok(
      await launcher.agent.call<Renewal & { templateId: string | null }>(getFlowRenewal, {
        userType: 0,
        flowId: launched.flowId,
      }),
      'renewal',
    );
    expect(r).toMatchObject({ kind: 'template', templateId: tpl.templateId, title: 'Loan (renewal)' });
    // A template's roles take phones: the phone comes back even for a registered signer.
    expect(r.steps[0].parties[0]).toMatchObject({ name: '乙方', phone: signer.phone });
  });

  test('the integrator API launches with a term (from documents)', async () => {
    const key = await makeKey(launcher.agent, ['flows:write', 'flows:read']);
    const pdf = Buffer.from(await contractPdf(1)).toString('base64');
    const up = await open<{ documentId: string }>(t, 'POST', '/documents', {
      key: key.secret,
      body: { filename: 'api.pdf', contentBase64: pdf },
    });
    const { documentId } = up.body.data;
    const body = {
      from: 'documents',
      title: 'API lease',
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: '乙方',
              phone: signer.phone,
              positions: [{ documentId, page: 1, mm: { left: 20, top: 200, width: 40, height: 20 } }],
            },
          ],
        },
      ],
    };
    const bad = await open(t, 'POST', '/flows', {
      key: key.secret,
      body: { ...body, term: { startsOn: day(3), endsOn: day(2) } },
    });
    expect(bad.body.code).toBe(1001);
    const res = await open<{ flowId: string }>(t, 'POST', '/flows', {
      key: key.secret,
      body: { ...body, term: { startsOn: day(0), endsOn: day(90), remindDays: [7] } },
    });
    expect(res.body.code).toBe(0);
    const view = ok(
      await launcher.agent.call<TermView>(getFlowTerm, { userType: 0, flowId: res.body.data.flowId }),
      'term',
    );
    expect(view.term).toMatchObject({ endsOn: day(90), remindDays: [7], daysLeft: 90 });
  });
});
