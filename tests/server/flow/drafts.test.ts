// Launch drafts (issue 29): save, list, resume, replace, delete; a draft is its user's own (another account 1101),
// its documents the account's unlaunched uploads; a launch of its documents ends it; a deleted upload is dropped.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  deleteLaunchDraft,
  getLaunchDraft,
  type LaunchDraftSummary,
  listLaunchDrafts,
  saveLaunchDraft,
} from '#contract/calls/drafts.ts';
import { deleteDocument } from '#contract/calls/document.ts';
import { appForFile } from '../helper.ts';
import { type Signer, contractPdf, launchForOne, ok, personWithCert, uploadPdf } from '../fixtures/flow.ts';

const t = appForFile();
let alice: Signer;
let bob: Signer;

const upload = async (who: Signer) =>
  ok(await uploadPdf(who.agent, await contractPdf(1)), 'upload').documentId;
type Opened = LaunchDraftSummary & {
  form: Record<string, unknown>;
  documentIds: string[];
  droppedDocuments: number;
};

beforeAll(async () => {
  alice = await personWithCert(t, '艾丽');
  bob = await personWithCert(t, '鲍勃');
});

describe('launch drafts', () => {
  let draftId: string;
  let docA: string;
  let docB: string;

  test('save, list and resume the form as given', async () => {
    docA = await upload(alice);
    docB = await upload(alice);
    const form = {
      mode: 'regular',
      title: 'Supply',
      steps: [{ parties: [{ name: '乙' }] }],
      term: { endsOn: '2027-01-01' },
    };
    const saved = ok(
      await alice.agent.call<LaunchDraftSummary>(saveLaunchDraft, {
        userType: 0,
        title: 'Supply',
        form,
        documentIds: [docA, docB],
      }),
      'save',
    );
    draftId = saved.draftId;
    expect(saved).toMatchObject({ title: 'Supply', documentCount: 2 });
    const list = ok(
      await alice.agent.call<{ items: LaunchDraftSummary[] }>(listLaunchDrafts, { userType: 0 }),
      'l',
    );
    expect(list.items.map((d) => d.draftId)).toEqual([draftId]);
    const opened = ok(await alice.agent.call<Opened>(getLaunchDraft, { userType: 0, draftId }), 'open');
    expect(opened.form).toEqual(form);
    expect(opened.documentIds).toEqual([docA, docB]);
    // Replaced in place.
    const again = ok(
      await alice.agent.call<LaunchDraftSummary>(saveLaunchDraft, {
        userType: 0,
        draftId,
        title: 'Supply v2',
        form: { ...form, title: 'Supply v2' },
        documentIds: [docA, docB],
      }),
      'save again',
    );
    expect(again).toMatchObject({ draftId, title: 'Supply v2' });
    expect(
      ok(await alice.agent.call<{ items: LaunchDraftSummary[] }>(listLaunchDrafts, { userType: 0 }), 'l')
        .items,
    ).toHaveLength(1);
  });

  test("another account's user gets 1101 for every call on it and cannot use another's uploads", async () => {
    expect((await bob.agent.call(getLaunchDraft, { userType: 0, draftId })).body.code).toBe(1101);
    expect((await bob.agent.call(deleteLaunchDraft, { userType: 0, draftId })).body.code).toBe(1101);
    const overwrite = await bob.agent.call(saveLaunchDraft, {
      userType: 0,
      draftId,
      title: 'x',
      form: {},
      documentIds: [],
    });
    expect(overwrite.body.code).toBe(1101);
    expect(
      ok(await bob.agent.call<{ items: unknown[] }>(listLaunchDrafts, { userType: 0 }), 'l').items,
    ).toEqual([]);
    const theft = await bob.agent.call(saveLaunchDraft, {
      userType: 0,
      title: 'x',
      form: {},
      documentIds: [docA],
    });
    expect(theft.body.code).toBe(1100);
    const big = await alice.agent.call(saveLaunchDraft, {
      userType: 0,
      title: 'x',
      form: { s: 'x'.repeat(300_000) },
    });
    expect(big.body.code).toBe(1001);
    // Still Alice's, unchanged.
    expect(ok(await alice.agent.call<Opened>(getLaunchDraft, { userType: 0, draftId }), 'o').title).toBe(
      'Supply v2',
    );
  });

  test('a deleted upload is dropped when the draft is opened; a launch of its documents ends the draft', async () => {
    ok(await alice.agent.call(deleteDocument, { userType: 0, documentId: docB }), 'delete doc');
    const opened = ok(await alice.agent.call<Opened>(getLaunchDraft, { userType: 0, draftId }), 'open');
    expect(opened).toMatchObject({ documentIds: [docA], droppedDocuments: 1 });
    await launchForOne(alice.agent, bob, { documentId: docA });
    expect((await alice.agent.call(getLaunchDraft, { userType: 0, draftId })).body.code).toBe(1101);
  });

  test('delete on request', async () => {
    const d = ok(
      await alice.agent.call<LaunchDraftSummary>(saveLaunchDraft, { userType: 0, title: '', form: {} }),
      'save',
    );
    ok(await alice.agent.call(deleteLaunchDraft, { userType: 0, draftId: d.draftId }), 'delete');
    expect((await alice.agent.call(deleteLaunchDraft, { userType: 0, draftId: d.draftId })).body.code).toBe(
      1101,
    );
    expect(
      ok(await alice.agent.call<{ items: unknown[] }>(listLaunchDrafts, { userType: 0 }), 'l').items,
    ).toEqual([]);
  });

  test('a user keeps at most 100 drafts: the 101st is refused until one is deleted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++)
      ids.push(
        ok(
          await bob.agent.call<LaunchDraftSummary>(saveLaunchDraft, {
            userType: 0,
            title: `d${i}`,
            form: {},
          }),
          'save',
        ).draftId,
      );
    expect(
      (await bob.agent.call(saveLaunchDraft, { userType: 0, title: 'one more', form: {} })).body.code,
    ).toBe(1100);
    // Replacing one is still allowed; so is a new one after a deletion.
    ok(
      await bob.agent.call(saveLaunchDraft, { userType: 0, draftId: ids[0], title: 'x', form: {} }),
      'replace',
    );
    ok(await bob.agent.call(deleteLaunchDraft, { userType: 0, draftId: ids[1] }), 'delete');
    ok(await bob.agent.call(saveLaunchDraft, { userType: 0, title: 'one more', form: {} }), 'again');
  });
});
