// The contract centre (issue 29) through the HTTP layer: the search finds a flow by its title, a party's name,
// a party's phone in full (a partial phone finds nothing) and a value a signer typed; the launcher and the
// party both see it, a stranger does not; filters (status, dates, sender, direction, tag, folder) and
// sorting; tags and folders are each account's own (the same flow in different folders of two accounts;
// another account's tag, folder, view or flow id is 1101); saved views; a zip of two flows holds each one's
// PDFs and the completed one's audit report; a zip of more than 20 is built by the background job.
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  CENTRE_ZIP_KEEP_DAYS,
  type CentreFolder,
  type CentreTag,
  type CentreView,
  type ContractItem,
  type ContractsZip,
  deleteCentreView,
  getCentreLabels,
  getContractsZip,
  moveContracts,
  saveCentreFolder,
  saveCentreTag,
  saveCentreView,
  searchContracts,
  startContractsZip,
  tagContracts,
} from '#contract/calls/centre.ts';
import { saveRoomFields } from '#contract/calls/fields.ts';
import { type SigningRoom, getSigningRoom } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { userLogin } from '#contract/calls/session.ts';
import { sql } from 'drizzle-orm';
import { rows } from '#server/db/sql-helpers.ts';
import type { Agent } from '../helper.ts';
import { appForFile } from '../helper.ts';
import { openCompany } from '../fixtures/company.ts';
import {
  type Signer,
  companyWithSeals,
  contractPdf,
  getBytes,
  launchForOne,
  ok,
  openByLink,
  personWithCert,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';

const t = appForFile({
  SMS_MAX_PER_PHONE_HOUR: '1000',
  SMS_RESEND_SECONDS: '0',
  FREE_SIGNING_ALLOWANCE: '100',
});

let launcher: Signer;
let buyer: Signer;
let other: Signer;
let stranger: Signer;
let leaseId: string;
let supplyId: string;

type Page = { list: ContractItem[]; total: number };
const search = async (agent: Agent, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ok(await agent.call<Page>(searchContracts, { userType: 0, filter, pageSize: 100, ...extra }), 'search');
const titles = (p: Page) => p.list.map((x) => x.title).sort();

/** Entry names and bytes of a zip (central directory, then each local entry). */
function readZip(bytes: Uint8Array): Map<string, Uint8Array> {
  const buf = Buffer.from(bytes);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataAt, dataAt + size);
    out.set(name, new Uint8Array(method === 8 ? inflateRawSync(data) : data));
    at += 46 + nameLen + extra + comment;
  }
  return out;
}

beforeAll(async () => {
  launcher = await personWithCert(t, '陈发起');
  buyer = await personWithCert(t, '李买家');
  other = await personWithCert(t, '王其他');
  stranger = await personWithCert(t, '赵路人');
  // The lease: the buyer signs, with a text field it fills in its room.
  const doc = ok(await uploadPdf(launcher.agent, await contractPdf(1)), 'upload');
  leaseId = (
    await launchForOne(launcher.agent, buyer, {
      documentId: doc.documentId,
      title: 'Alpha lease',
      party: {
        fields: [
          {
            key: 'plate',
            label: 'Plate',
            kind: 'text',
            position: {
              documentId: doc.documentId,
              page: 1,
              mm: { left: 20, top: 40, width: 60, height: 8 },
            },
          },
        ],
      },
    })
  ).flowId;
  supplyId = (await launchForOne(launcher.agent, other, { title: 'Beta supply' })).flowId;
  const room = await openByLink(t, buyer.agent, buyer.phone);
  const state = ok(
    await buyer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: room.roomToken }),
    'room',
  );
  const field = state.fields[0];
  ok(
    await buyer.agent.call(saveRoomFields, {
      userType: 0,
      roomToken: room.roomToken,
      values: { [field.fieldId]: 'ZHEJIANG-A88' },
    }),
    'save field',
  );
  // The buyer signs: the lease completes.
  ok(await sign(t, buyer.agent, room, buyer.phone, { personSealId: buyer.sealId ?? undefined }), 'sign');
}, 180_000);

describe('search', () => {
  test('by title, party name, full phone only, and a field value; launcher and party see it, a stranger not', async () => {
    expect(titles(await search(launcher.agent, {}))).toEqual(['Alpha lease', 'Beta supply']);
    expect(titles(await search(launcher.agent, { keyword: 'ALPHA' }))).toEqual(['Alpha lease']);
    expect(titles(await search(launcher.agent, { keyword: '李买' }))).toEqual(['Alpha lease']);
    expect(titles(await search(launcher.agent, { keyword: '王其他' }))).toEqual(['Beta supply']);
    expect(titles(await search(launcher.agent, { keyword: buyer.phone }))).toEqual(['Alpha lease']);
    // A partial phone matches no phone.
    expect((await search(launcher.agent, { keyword: buyer.phone.slice(0, 7) })).total).toBe(0);
    expect((await search(launcher.agent, { keyword: buyer.phone.slice(3) })).total).toBe(0);
    expect(titles(await search(launcher.agent, { keyword: 'zhejiang-a88' }))).toEqual(['Alpha lease']);
    // The party sees the flow it received (and not the other one); a stranger sees none.
    const mine = await search(buyer.agent, {});
    expect(titles(mine)).toEqual(['Alpha lease']);
    expect(mine.list[0]).toMatchObject({ isSent: false, isReceived: true, status: 'completed' });
    expect(mine.list[0].parties[0].phone).toContain('****');
    expect(titles(await search(buyer.agent, { keyword: '陈发起' }))).toEqual([]);
    expect((await search(stranger.agent, { keyword: 'alpha' })).total).toBe(0);
    expect((await search(stranger.agent, {})).total).toBe(0);
  });

  test('filters: status, dates, sender, direction; sorting and paging', async () => {
    expect(titles(await search(launcher.agent, { status: 'completed' }))).toEqual(['Alpha lease']);
    expect(titles(await search(launcher.agent, { status: 'signing' }))).toEqual(['Beta supply']);
    const today = new Date(t.clock.now().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await search(launcher.agent, { dateFrom: today, dateTo: today })).total).toBe(2);
    expect((await search(launcher.agent, { dateFrom: '2000-01-01', dateTo: '2000-01-02' })).total).toBe(0);
    expect(
      titles(await search(launcher.agent, { dateField: 'completed', dateFrom: today, dateTo: today })),
    ).toEqual(['Alpha lease']);
    expect((await search(launcher.agent, { senderUserId: launcher.userId })).total).toBe(2);
    expect((await search(launcher.agent, { senderUserId: buyer.userId })).total).toBe(0);
    expect((await search(launcher.agent, { direction: 'received' })).total).toBe(0);
    expect((await search(buyer.agent, { direction: 'sent' })).total).toBe(0);
    const sorted = await search(launcher.agent, { sort: 'titleAsc' }, { pageSize: 1, pageNum: 2 });
    expect(sorted).toMatchObject({ total: 2, list: [{ title: 'Beta supply' }] });
    const bad = await launcher.agent.call(searchContracts, {
      userType: 0,
      filter: { dateFrom: '2026-02-02', dateTo: '2026-02-01' },
    });
    expect(bad.body.code).toBe(Code.Refused);
  });
});

describe('tags, folders and views, per account', () => {
  test('each account tags and files the same flow its own way; foreign ids are 1101', async () => {
    const tag = ok(
      await launcher.agent.call<CentreTag>(saveCentreTag, { userType: 0, name: '紧急', colour: '#FF0000' }),
      'tag',
    );
    expect(tag).toMatchObject({ name: '紧急', colour: '#ff0000' });
    const twice = await launcher.agent.call(saveCentreTag, { userType: 0, name: '紧急', colour: '#00ff00' });
    expect(twice.body.code).toBe(Code.Refused);
    // The same name is another account's own tag.
    const buyerTag = ok(
      await buyer.agent.call<CentreTag>(saveCentreTag, { userType: 0, name: '紧急', colour: '#0000ff' }),
      'buyer tag',
    );
    ok(
      await launcher.agent.call(tagContracts, {
        userType: 0,
        flowIds: [leaseId],
        tagId: tag.tagId,
        isOn: true,
      }),
      'tag flow',
    );
    expect(titles(await search(launcher.agent, { tagIds: [tag.tagId] }))).toEqual(['Alpha lease']);
    const [lease] = (await search(launcher.agent, { keyword: 'alpha' })).list;
    expect(lease.tags).toEqual([{ tagId: tag.tagId, name: '紧急', colour: '#ff0000' }]);
    // The buyer does not see the launcher's tag on the flow it also sees.
    expect((await search(buyer.agent, {})).list[0].tags).toEqual([]);
    // Foreign ids: another account's tag, a flow the account does not see.
    const foreignTag = await launcher.agent.call(tagContracts, {
      userType: 0,
      flowIds: [leaseId],
      tagId: buyerTag.tagId,
      isOn: true,
    });
    expect(foreignTag.body.code).toBe(Code.NotFound);
    const foreignFlow = await buyer.agent.call(tagContracts, {
      userType: 0,
      flowIds: [leaseId, supplyId],
      tagId: buyerTag.tagId,
      isOn: true,
    });
    expect(foreignFlow.body.code).toBe(Code.NotFound);
    expect((await search(buyer.agent, { tagIds: [buyerTag.tagId] })).total).toBe(0);
    const strangerSearch = await stranger.agent.call(searchContracts, {
      userType: 0,
      filter: { tagIds: [tag.tagId] },
    });
    expect(strangerSearch.body.code).toBe(Code.NotFound);
    const strangerRename = await stranger.agent.call(saveCentreTag, {
      userType: 0,
      tagId: tag.tagId,
      name: 'x',
      colour: '#000000',
    });
    expect(strangerRename.body.code).toBe(Code.NotFound);

    // Folders: the same flow in a folder of each account.
    const folder = ok(
      await launcher.agent.call<CentreFolder>(saveCentreFolder, { userType: 0, name: '2026 租赁' }),
      'folder',
    );
    const buyerFolder = ok(
      await buyer.agent.call<CentreFolder>(saveCentreFolder, { userType: 0, name: '我的合同' }),
      'buyer folder',
    );
    ok(
      await launcher.agent.call(moveContracts, {
        userType: 0,
        flowIds: [leaseId],
        folderId: folder.folderId,
      }),
      'move',
    );
    ok(
      await buyer.agent.call(moveContracts, {
        userType: 0,
        flowIds: [leaseId],
        folderId: buyerFolder.folderId,
      }),
      'buyer move',
    );
    expect(titles(await search(launcher.agent, { folderId: folder.folderId }))).toEqual(['Alpha lease']);
    expect((await search(buyer.agent, {})).list[0].folder).toEqual(buyerFolder);
    expect((await search(launcher.agent, { keyword: 'alpha' })).list[0].folder).toEqual(folder);
    const intoForeign = await launcher.agent.call(moveContracts, {
      userType: 0,
      flowIds: [leaseId],
      folderId: buyerFolder.folderId,
    });
    expect(intoForeign.body.code).toBe(Code.NotFound);
    const strangerMove = await stranger.agent.call(moveContracts, {
      userType: 0,
      flowIds: [leaseId],
      folderId: null,
    });
    expect(strangerMove.body.code).toBe(Code.NotFound);
    // Out of the folder.
    ok(await launcher.agent.call(moveContracts, { userType: 0, flowIds: [leaseId], folderId: null }), 'out');
    expect((await search(launcher.agent, { folderId: folder.folderId })).total).toBe(0);
    expect((await search(buyer.agent, { folderId: buyerFolder.folderId })).total).toBe(1);

    // Saved views, per user.
    const view = ok(
      await launcher.agent.call<CentreView>(saveCentreView, {
        userType: 0,
        name: '紧急合同',
        filter: { tagIds: [tag.tagId], sort: 'titleAsc' },
      }),
      'view',
    );
    const labels = ok(
      await launcher.agent.call<{ tags: CentreTag[]; views: CentreView[]; senders: { userId: string }[] }>(
        getCentreLabels,
        { userType: 0 },
      ),
      'labels',
    );
    expect(labels.views).toEqual([view]);
    expect(labels.tags.map((x) => x.name)).toEqual(['紧急']);
    expect(labels.senders.map((s) => s.userId)).toEqual([launcher.userId]);
    const strangerLabels = ok(
      await stranger.agent.call<{ tags: CentreTag[]; views: CentreView[] }>(getCentreLabels, { userType: 0 }),
      'stranger labels',
    );
    expect(strangerLabels).toMatchObject({ tags: [], views: [] });
    const strangerDelete = await stranger.agent.call(deleteCentreView, { userType: 0, viewId: view.viewId });
    expect(strangerDelete.body.code).toBe(Code.NotFound);
    ok(await launcher.agent.call(deleteCentreView, { userType: 0, viewId: view.viewId }), 'delete view');
  });
});

describe('zips', () => {
  test('two flows zipped at once: the signed PDF and audit report of the completed one, the current PDF of the other', async () => {
    const z = ok(
      await launcher.agent.call<ContractsZip>(startContractsZip, {
        userType: 0,
        flowIds: [leaseId, supplyId],
      }),
      'zip',
    );
    expect(z).toMatchObject({ status: 'ready', total: 2, done: 2 });
    const got = await getBytes(launcher.agent, z.downloadUrl!);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/zip');
    const entries = readZip(got.bytes);
    const names = [...entries.keys()].sort();
    expect(names).toEqual([
      `001 Alpha lease ${leaseId.slice(0, 8)}/audit-report.pdf`,
      `001 Alpha lease ${leaseId.slice(0, 8)}/contract-signed.pdf`,
      `002 Beta supply ${supplyId.slice(0, 8)}/contract.pdf`,
    ]);
    for (const bytes of entries.values()) expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // Not the stranger's: neither the zip nor its bytes; nor a zip of flows it does not see.
    const foreign = await stranger.agent.call(getContractsZip, { userType: 0, zipId: z.zipId });
    expect(foreign.body.code).toBe(Code.NotFound);
    expect((await getBytes(stranger.agent, z.downloadUrl!)).type).not.toBe('application/zip');
    const refused = await stranger.agent.call(startContractsZip, { userType: 0, flowIds: [leaseId] });
    expect(refused.body.code).toBe(Code.NotFound);
    // The buyer may zip the flow it received.
    const buyerZip = ok(
      await buyer.agent.call<ContractsZip>(startContractsZip, { userType: 0, flowIds: [leaseId] }),
      'buyer zip',
    );
    expect(buyerZip.status).toBe('ready');
  });

  test('more than 20 flows: built by the background job, with progress, then downloadable', async () => {
    const ids: string[] = [supplyId, leaseId];
    for (let i = 0; i < 20; i++)
      ids.push((await launchForOne(launcher.agent, other, { title: `Bulk ${i}` })).flowId);
    const z = ok(
      await launcher.agent.call<ContractsZip>(startContractsZip, { userType: 0, flowIds: ids }),
      'zip',
    );
    expect(z).toMatchObject({ status: 'building', total: 22, downloadUrl: null });
    await t.runDueJobs();
    const done = ok(
      await launcher.agent.call<ContractsZip>(getContractsZip, { userType: 0, zipId: z.zipId }),
      'get',
    );
    expect(done).toMatchObject({ status: 'ready', done: 22 });
    const entries = readZip((await getBytes(launcher.agent, done.downloadUrl!)).bytes);
    expect(entries.size).toBe(23);
    expect([...entries.keys()].some((n) => n.startsWith('022 Bulk 19 '))).toBe(true);
  }, 120_000);
});

describe('a company account', () => {
  test("the company's tags and folders are its members' and no other company's", async () => {
    const company = await companyWithSeals(t);
    const rival = await personWithCert(t, '周对手', { seal: false, cert: false });
    await openCompany(t, rival);
    const flowId = (
      await launchForOne(company.admin.agent, other, { title: 'Gamma company lease', userType: 1 })
    ).flowId;
    const as = (agent: Agent) => ({
      call: <T>(def: Parameters<Agent['call']>[0], body: Record<string, unknown>) =>
        agent.call<T>(def, { userType: 1, ...body }),
    });
    const admin = as(company.admin.agent);
    const operator = as(company.operator.agent);
    const tag = ok(await admin.call<CentreTag>(saveCentreTag, { name: '公司', colour: '#123456' }), 'tag');
    const folder = ok(await admin.call<CentreFolder>(saveCentreFolder, { name: '公司合同' }), 'folder');
    ok(await admin.call(tagContracts, { flowIds: [flowId], tagId: tag.tagId, isOn: true }), 'tag flow');
    // The operator (another member) sees the company's tag, folder and the tagged flow, and files it.
    const labels = ok(await operator.call<{ tags: CentreTag[] }>(getCentreLabels, {}), 'operator labels');
    expect(labels.tags).toEqual([tag]);
    ok(await operator.call(moveContracts, { flowIds: [flowId], folderId: folder.folderId }), 'operator move');
    const found = ok(
      await operator.call<Page>(searchContracts, { filter: { tagIds: [tag.tagId] } }),
      'search',
    );
    expect(found.list.map((x) => [x.title, x.folder?.name, x.isSent])).toEqual([
      ['Gamma company lease', '公司合同', true],
    ]);
    // A person's account has none of the company's labels.
    const own = ok(await other.agent.call<{ tags: CentreTag[] }>(getCentreLabels, { userType: 0 }), 'labels');
    expect(own.tags.some((x) => x.tagId === tag.tagId)).toBe(false);
    expect(
      ok(
        await other.agent.call<Page>(searchContracts, { userType: 0, filter: { keyword: 'gamma' } }),
        'party',
      ).list[0].folder,
    ).toBeNull();
    // Another company: 1101 for the tag, the folder and the flow.
    const r = as(rival.agent);
    expect((await r.call(tagContracts, { flowIds: [flowId], tagId: tag.tagId, isOn: true })).body.code).toBe(
      Code.NotFound,
    );
    expect((await r.call(searchContracts, { filter: { folderId: folder.folderId } })).body.code).toBe(
      Code.NotFound,
    );
    expect((await r.call(startContractsZip, { flowIds: [flowId] })).body.code).toBe(Code.NotFound);
    expect(ok(await r.call<Page>(searchContracts, { filter: {} }), 'rival search').total).toBe(0);
  }, 120_000);
});

describe('copy recipients (抄送)', () => {
  test('a person copied on a flow finds it as copied; the direction filter splits it from sent and received', async () => {
    const copied = await personWithCert(t, '孙抄送');
    await launchForOne(launcher.agent, other, {
      title: 'Gamma loan',
      extra: { cc: [{ name: '孙抄送', phone: copied.phone, notifyProgress: false }] },
    });
    const mine = await search(copied.agent, {});
    expect(titles(mine)).toEqual(['Gamma loan']);
    expect(mine.list[0]).toMatchObject({ isSent: false, isReceived: false, isCopied: true });
    expect(titles(await search(copied.agent, { direction: 'copied' }))).toEqual(['Gamma loan']);
    expect((await search(copied.agent, { direction: 'received' })).total).toBe(0);
    expect(titles(await search(copied.agent, { keyword: 'gamma' }))).toEqual(['Gamma loan']);
    // The launcher sees it as sent, never as copied; a stranger still sees nothing.
    const sent = (await search(launcher.agent, { keyword: 'gamma' })).list;
    expect(sent).toMatchObject([{ isSent: true, isCopied: false }]);
    expect((await search(launcher.agent, { direction: 'copied' })).total).toBe(0);
    expect((await search(stranger.agent, {})).total).toBe(0);
  });
});

describe('zips are kept a week', () => {
  test(`a ready zip expires after ${CENTRE_ZIP_KEEP_DAYS} days: its file is removed, the contracts are not`, async () => {
    const z = ok(
      await launcher.agent.call<ContractsZip>(startContractsZip, { userType: 0, flowIds: [leaseId] }),
      'zip',
    );
    const key = (
      await rows<{ blob_key: string }>(t.db, sql`SELECT blob_key FROM centre_zips WHERE id = ${z.zipId}`)
    )[0].blob_key;
    const later = async (days: number) => {
      t.clock.advance(days * 86_400_000);
      ok(
        await launcher.agent.call(userLogin, {
          userType: 0,
          phone: launcher.phone,
          password: launcher.password,
        }),
        'login',
      );
      await t.runDueJobs();
    };
    await later(CENTRE_ZIP_KEEP_DAYS - 1);
    expect((await getBytes(launcher.agent, z.downloadUrl!)).type).toBe('application/zip');
    await later(2);
    const gone = ok(
      await launcher.agent.call<ContractsZip>(getContractsZip, { userType: 0, zipId: z.zipId }),
      'get',
    );
    expect(gone).toMatchObject({ status: 'expired', downloadUrl: null });
    expect(await t.deps.storage.has(key)).toBe(false);
    const refused = await getBytes(launcher.agent, z.downloadUrl!);
    expect(refused.type).not.toBe('application/zip');
    expect(new TextDecoder().decode(refused.bytes)).toContain('7 days');
    // The contract itself: still there, its signed PDF still downloadable.
    const [lease] = (await search(launcher.agent, { keyword: 'alpha' })).list;
    expect(lease).toMatchObject({ flowId: leaseId, status: 'completed' });
    expect(
      (await launcher.agent.call<ContractsZip>(startContractsZip, { userType: 0, flowIds: [leaseId] })).body
        .code,
    ).toBe(0);
  });
});
