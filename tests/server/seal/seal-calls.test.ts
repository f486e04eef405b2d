import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Seal,
  authoriseSeal,
  checkAntiCounterfeitNo,
  deleteSeal,
  getUserCertSealList,
  listSealOperators,
  previewSeal,
  revokeSealAuthorisation,
  saveCompanyCustomizeSeal,
  saveCompanySeal,
  savePersonImageSeal,
  savePersonSeal,
  setSealStatus,
} from '#contract/calls/seal.ts';
import { getUserQualification } from '#contract/calls/session.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { sealForSigning } from '#server/modules/seal/index.ts';
import type { Agent } from '../helper.ts';
import { appForFile } from '../helper.ts';
import {
  type Company,
  logInAgain,
  padSignaturePng,
  person,
  scannedSealPng,
  upload,
  verifiedCompany,
} from '../fixtures/seal.ts';

const t = appForFile();

type List = { cert: unknown; seals: Seal[]; role: string | null };
const list = async (agent: Agent, userType = 0) =>
  (await agent.call<List>(getUserCertSealList, { userType })).body.data;
const DAY = 24 * 60 * 60 * 1000;

describe('person seals', () => {
  it('generates a name seal from the verified name and lists it as usable', async () => {
    const p = await person(t, '张三');
    const saved = await p.agent.call<Seal>(savePersonSeal, { userType: 0, sealDTO: { userType: 0 } });
    expect(saved.body.code).toBe(0);
    expect(saved.body.data).toMatchObject({
      name: '张三印',
      kind: 'generated',
      status: 'enabled',
      sealType: null,
    });
    const l = await list(p.agent);
    expect(l.seals.map((s) => s.id)).toEqual([saved.body.data.id]);
    expect(l.seals[0].isUsable).toBe(true);
    // The image is the seal's SVG, only for its owner.
    const svg = await p.agent.get(`${l.seals[0].imageUrl}?ts=abc123`);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(svg.text).toMatch(/^<svg[^>]+width="18mm|^<svg[^>]+width="\d+(\.\d+)?mm/);
    const png = await p.agent.get(l.seals[0].pngUrl);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    // The login info now says the person has a seal.
    const info = await p.agent.call<{ hasSeal: boolean }>(getUserQualification, { userType: 0 });
    expect(info.body.data.hasSeal).toBe(true);
  });

  it('refuses a name seal before real-name verification, with a clear message', async () => {
    const p = await person(t);
    const res = await p.agent.call(savePersonSeal, { userType: 0 }, { headers: { 'accept-language': 'en' } });
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(/real-name verification/);
    const zh = await p.agent.call(
      savePersonSeal,
      { userType: 0 },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.msg).toMatch(/实名认证/);
  });

  it("passes on the renderer's refusal of a name too long for a seal", async () => {
    const p = await person(t, '欧阳娜娜娜娜');
    const res = await p.agent.call(savePersonSeal, { userType: 0 }, { headers: { 'accept-language': 'en' } });
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(/too long: at most 5 characters/);
  });

  it('saves a signature drawn on a pad and an uploaded image', async () => {
    const p = await person(t, '李雷');
    const drawn = await upload<Seal>(
      p.agent,
      callPath(savePersonImageSeal),
      { userType: '0', kind: 'drawn' },
      {
        bytes: padSignaturePng(),
      },
    );
    expect(drawn.body.code).toBe(0);
    expect(drawn.body.data).toMatchObject({ kind: 'drawn', status: 'enabled' });
    expect(drawn.body.data.imageUrl).toMatch(/\.png$/);
    // A signature prints 40 mm wide, keeping its proportions.
    expect(drawn.body.data.widthMm).toBeCloseTo(40, 1);
    expect(drawn.body.data.heightMm).toBeLessThan(20);
    const uploaded = await upload<Seal>(
      p.agent,
      callPath(savePersonImageSeal),
      { userType: '0' },
      {
        bytes: scannedSealPng(),
        type: 'image/png',
      },
    );
    expect(uploaded.body.data.kind).toBe('uploaded');
    expect((await list(p.agent)).seals).toHaveLength(2);
    const img = await p.agent.get(drawn.body.data.imageUrl);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
  });

  it('refuses bad uploads with clear messages', async () => {
    const p = await person(t, '韩梅梅');
    const en = { 'accept-language': 'en' };
    const send = (bytes: Uint8Array, type = 'image/png') =>
      upload(p.agent, callPath(savePersonImageSeal), { userType: '0' }, { bytes, type }).then((r) => r.body);
    void en;
    const text = await send(new TextEncoder().encode('hello, this is not an image'), 'text/plain');
    expect(text.code).toBe(Code.Refused);
    expect(text.msg).toMatch(/not a PNG or JPG|不是 PNG 或 JPG/);
    const svg = await send(
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><circle r="5"/></svg>'),
      'image/svg+xml',
    );
    expect(svg.code).toBe(Code.Refused);
    expect(svg.msg).toMatch(/SVG/);
    const big = new Uint8Array(5 * 1024 * 1024 + 100);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const tooBig = await send(big);
    expect(tooBig.code).toBe(Code.Refused);
    expect(tooBig.msg).toMatch(/5 MB/);
    const wide = createCanvas(4001, 8);
    const tooWide = await send(new Uint8Array(wide.encodeSync('png')));
    expect(tooWide.code).toBe(Code.Refused);
    expect(tooWide.msg).toMatch(/4001/);
    expect(tooWide.msg).toMatch(/4000/);
    const none = await upload(p.agent, callPath(savePersonImageSeal), { userType: '0' });
    expect(none.body.code).toBe(Code.BadRequest);
    // Nothing was saved by any of these.
    expect((await list(p.agent)).seals).toHaveLength(0);
  });

  it('uploads need a session and the XSRF headers, and JSON bodies are refused', async () => {
    const anon = await upload(
      t.agent(),
      callPath(savePersonImageSeal),
      { userType: '0' },
      { bytes: scannedSealPng() },
    );
    expect(anon.body.code).toBe(Code.NotLoggedIn);
    const p = await person(t, '陈一');
    const json = await p.agent.call(callPath(savePersonImageSeal), { userType: 0 });
    expect(json.body.code).toBe(Code.BadRequest);
    expect(json.body.msg).toMatch(/multipart/);
  });

  it('disables, enables and deletes; a disabled seal is not usable', async () => {
    const p = await person(t, '周五');
    const saved = (await p.agent.call<Seal>(savePersonSeal, { userType: 0 })).body.data;
    const off = await p.agent.call<Seal>(setSealStatus, {
      userType: 0,
      sealId: saved.id,
      status: 'disabled',
    });
    expect(off.body.data).toMatchObject({ status: 'disabled', isUsable: false });
    expect((await list(p.agent)).seals[0].isUsable).toBe(false);
    const info = await p.agent.call<{ hasSeal: boolean }>(getUserQualification, { userType: 0 });
    expect(info.body.data.hasSeal).toBe(false);
    await expect(
      sealForSigning(t.deps, { holder: { userType: 0, userId: p.userId }, sealId: saved.id }),
    ).rejects.toThrow(/cannot be used/);
    await p.agent.call(setSealStatus, { userType: 0, sealId: saved.id, status: 'enabled' });
    const forSigning = await sealForSigning(t.deps, {
      holder: { userType: 0, userId: p.userId },
      sealId: saved.id,
    });
    expect(new TextDecoder().decode(forSigning.pdf.subarray(0, 5))).toBe('%PDF-');
    expect(forSigning.widthMm).toBeGreaterThan(15);
    const del = await p.agent.call(deleteSeal, { userType: 0, sealId: saved.id });
    expect(del.body.code).toBe(0);
    expect((await list(p.agent)).seals).toHaveLength(0);
    expect((await p.agent.get(saved.imageUrl)).status).toBe(404);
  });

  it("refuses someone else's seal: calls, images and signing", async () => {
    const owner = await person(t, '孙七');
    const other = await person(t, '吴八');
    const saved = (await owner.agent.call<Seal>(savePersonSeal, { userType: 0 })).body.data;
    const status = await other.agent.call(setSealStatus, {
      userType: 0,
      sealId: saved.id,
      status: 'disabled',
    });
    expect(status.body.code).toBe(Code.NotFound);
    const del = await other.agent.call(deleteSeal, { userType: 0, sealId: saved.id });
    expect(del.body.code).toBe(Code.NotFound);
    expect((await other.agent.get(saved.imageUrl)).status).toBe(HttpStatus.NoPermission);
    expect((await t.agent().get(saved.imageUrl)).status).toBe(HttpStatus.NoPermission);
    expect((await owner.agent.get(saved.imageUrl)).status).toBe(200);
    await expect(
      sealForSigning(t.deps, { holder: { userType: 0, userId: other.userId }, sealId: saved.id }),
    ).rejects.toThrow(/not found/);
    // The owner's seal is still enabled.
    expect((await list(owner.agent)).seals[0].status).toBe('enabled');
  });

  it('previews the name seal without saving it', async () => {
    const p = await person(t, '郑九');
    const res = await p.agent.call<{ svg: string }>(previewSeal, { userType: 0, sealDTO: { userType: 0 } });
    expect(res.body.data.svg).toMatch(/^<svg/);
    expect((await list(p.agent)).seals).toHaveLength(0);
  });
});

describe('company seals', () => {
  let co: Company;
  let other: Company;
  beforeAll(async () => {
    co = await verifiedCompany(t, { operators: 2 });
    other = await verifiedCompany(t, { name: '上海另一家贸易有限公司', operators: 0 });
  });

  it('the administrator generates seals of every type; names and numbers as expected', async () => {
    const types = [1, 101, 102, 103, 104, 105, 99];
    for (const sealType of types) {
      const res = await co.admin.agent.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: {
          userType: 1,
          sealType,
          purpose: sealType === 99 ? '投标专用章' : undefined,
          generateAntiCounterfeitNo: true,
        },
      });
      expect(res.body.code, res.body.msg).toBe(0);
      expect(res.body.data.sealType).toBe(sealType);
      expect(res.body.data.antiCounterfeitNo).toMatch(/^\d{13}$/);
    }
    const l = await list(co.admin.agent, 1);
    expect(l.role).toBe('admin');
    const names = Object.fromEntries(l.seals.map((s) => [s.sealType, s.name]));
    expect(names).toMatchObject({
      1: '公章',
      102: '合同专用章',
      104: '发票专用章',
      99: '投标专用章',
      101: '李四印',
    });
    // Every seal's image shows to members of the company.
    const svg = await co.operators[0].agent.get(l.seals[0].imageUrl);
    expect(svg.status).toBe(200);
    expect(svg.text).toMatch(/^<svg/);
  });

  it('checks an anti-counterfeit number publicly, with the company name masked', async () => {
    const res = await co.admin.agent.call<Seal>(saveCompanySeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 102, antiCounterfeitNo: 'AB12CD34' },
    });
    expect(res.body.data.antiCounterfeitNo).toBe('AB12CD34');
    const found = await t
      .agent()
      .call<{ companyName: string; sealType: number; status: string }>(checkAntiCounterfeitNo, {
        userType: 0,
        no: 'ab12cd34',
      });
    expect(found.body.data).toMatchObject({ sealType: 102, status: 'enabled' });
    expect(found.body.data.companyName).toBe('杭州******公司');
    const missing = await t.agent().call(checkAntiCounterfeitNo, { userType: 0, no: 'ZZZZ9999' });
    expect(missing.body).toMatchObject({ code: 0, data: null });
    // The same number cannot be given to a second seal.
    const again = await other.admin.agent.call(saveCompanySeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 102, antiCounterfeitNo: 'AB12CD34' },
    });
    expect(again.body.code).toBe(Code.Refused);
  });

  it("refuses a company name too long for a seal with the renderer's message", async () => {
    const long = await verifiedCompany(t, {
      name: '中华人民共和国某某省某某市某某区某某街道某某社区某某科技发展研究有限责任公司',
      operators: 0,
    });
    const res = await long.admin.agent.call(
      saveCompanySeal,
      { userType: 1, sealDTO: { userType: 1, sealType: 102 } },
      { headers: { 'accept-language': 'en' } },
    );
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(/company name/i);
  });

  it('an operator may not create, upload, change or authorise seals (602)', async () => {
    const op = co.operators[0];
    const gen = await op.agent.call(saveCompanySeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 102 },
    });
    expect(gen.status).toBe(HttpStatus.NoPermission);
    const up = await upload(
      op.agent,
      callPath(saveCompanyCustomizeSeal),
      { userType: '1', sealType: '102' },
      {
        bytes: scannedSealPng(),
      },
    );
    expect(up.status).toBe(HttpStatus.NoPermission);
    const anySeal = (await list(co.admin.agent, 1)).seals[0];
    const st = await op.agent.call(setSealStatus, { userType: 1, sealId: anySeal.id, status: 'disabled' });
    expect(st.status).toBe(HttpStatus.NoPermission);
    const auth = await op.agent.call(authoriseSeal, {
      userType: 1,
      sealId: anySeal.id,
      userIds: [op.userId],
      validFrom: new Date().toISOString(),
      validTo: new Date(Date.now() + DAY).toISOString(),
    });
    expect(auth.status).toBe(HttpStatus.NoPermission);
    expect((await op.agent.call(listSealOperators, { userType: 1 })).status).toBe(HttpStatus.NoPermission);
  });

  it('uploads a company seal image (administrator)', async () => {
    const res = await upload<Seal>(
      co.admin.agent,
      callPath(saveCompanyCustomizeSeal),
      { userType: '1', sealType: '103' },
      {
        bytes: scannedSealPng(),
      },
    );
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data).toMatchObject({ kind: 'uploaded', sealType: 103, name: '财务专用章' });
    expect(Math.max(res.body.data.widthMm, res.body.data.heightMm)).toBeCloseTo(40, 1);
    const svgUpload = await upload(
      co.admin.agent,
      callPath(saveCompanyCustomizeSeal),
      { userType: '1', sealType: '103' },
      {
        bytes: new TextEncoder().encode(
          '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>',
        ),
        type: 'image/svg+xml',
      },
    );
    expect(svgUpload.body.code).toBe(Code.Refused);
  });

  it("another company's seal id is not found, its image refused", async () => {
    const theirs = (
      await other.admin.agent.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: { userType: 1, sealType: 1 },
      })
    ).body.data;
    const st = await co.admin.agent.call(setSealStatus, {
      userType: 1,
      sealId: theirs.id,
      status: 'disabled',
    });
    expect(st.body.code).toBe(Code.NotFound);
    const del = await co.admin.agent.call(deleteSeal, { userType: 1, sealId: theirs.id });
    expect(del.body.code).toBe(Code.NotFound);
    const auth = await co.admin.agent.call(authoriseSeal, {
      userType: 1,
      sealId: theirs.id,
      userIds: [co.operators[0].userId],
      validFrom: new Date().toISOString(),
      validTo: new Date(Date.now() + DAY).toISOString(),
    });
    expect(auth.body.code).toBe(Code.NotFound);
    expect((await co.admin.agent.get(theirs.imageUrl)).status).toBe(HttpStatus.NoPermission);
    await expect(
      sealForSigning(t.deps, {
        holder: { userType: 1, companyId: co.id, userId: co.admin.userId },
        sealId: theirs.id,
      }),
    ).rejects.toThrow(/not found/);
    // ... and the other company's seal is unchanged.
    expect((await list(other.admin.agent, 1)).seals.find((s) => s.id === theirs.id)?.status).toBe('enabled');
  });

  it('authorises a seal to an operator for a period: visible and usable only within it', async () => {
    const seal = (
      await co.admin.agent.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: { userType: 1, sealType: 105 },
      })
    ).body.data;
    const [op, op2] = co.operators;
    const ops = await co.admin.agent.call<{ userId: string }[]>(listSealOperators, { userType: 1 });
    expect(ops.body.data.map((o) => o.userId).sort()).toEqual([op.userId, op2.userId].sort());
    expect((await list(op.agent, 1)).seals.find((s) => s.id === seal.id)).toBeUndefined();

    const now = t.clock.now().getTime();
    const res = await co.admin.agent.call<Seal>(authoriseSeal, {
      userType: 1,
      sealId: seal.id,
      userIds: [op.userId],
      validFrom: new Date(now + DAY).toISOString(),
      validTo: new Date(now + 3 * DAY).toISOString(),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.authorisations).toHaveLength(1);
    expect(res.body.data.authorisations[0]).toMatchObject({ userId: op.userId, isCurrent: false });
    const holder = { userType: 1 as const, companyId: co.id, userId: op.userId };

    // Before the period: not listed, not usable for signing.
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
    await expect(sealForSigning(t.deps, { holder, sealId: seal.id })).rejects.toThrow(/cannot be used/);

    t.clock.advance(DAY + 60_000);
    // A day later every session has ended: the people log in again.
    await logInAgain(t, co);
    const during = await list(op.agent, 1);
    const mine = during.seals.find((s) => s.id === seal.id);
    expect(mine).toMatchObject({ isUsable: true });
    expect(mine?.authorisations).toHaveLength(1);
    expect(during.role).toBe('operator');
    // The second operator, not authorised, still does not see it.
    expect((await list(op2.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
    const info = await op.agent.call<{ hasSeal: boolean }>(getUserQualification, { userType: 1 });
    expect(info.body.data.hasSeal).toBe(true);
    const forSigning = await sealForSigning(t.deps, { holder, sealId: seal.id });
    expect(forSigning.widthMm).toBeGreaterThan(30);

    // Disabled by the administrator: gone from the operator's list.
    await co.admin.agent.call(setSealStatus, { userType: 1, sealId: seal.id, status: 'disabled' });
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
    await co.admin.agent.call(setSealStatus, { userType: 1, sealId: seal.id, status: 'enabled' });
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).toContain(seal.id);

    // After the period: gone again.
    t.clock.advance(2 * DAY);
    await logInAgain(t, co);
    await logInAgain(t, other);
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
    await expect(sealForSigning(t.deps, { holder, sealId: seal.id })).rejects.toThrow(/cannot be used/);
  });

  it('revokes an authorisation', async () => {
    const seal = (
      await co.admin.agent.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: { userType: 1, sealType: 103 },
      })
    ).body.data;
    const op = co.operators[1];
    const now = t.clock.now().getTime();
    const res = await co.admin.agent.call<Seal>(authoriseSeal, {
      userType: 1,
      sealId: seal.id,
      userIds: [op.userId],
      validFrom: new Date(now - 1000).toISOString(),
      validTo: new Date(now + DAY).toISOString(),
    });
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).toContain(seal.id);
    // Another company's administrator cannot revoke it.
    const foreign = await other.admin.agent.call(revokeSealAuthorisation, {
      userType: 1,
      authorisationId: res.body.data.authorisations[0].id,
    });
    expect(foreign.body.code).toBe(Code.NotFound);
    const revoked = await co.admin.agent.call<Seal>(revokeSealAuthorisation, {
      userType: 1,
      authorisationId: res.body.data.authorisations[0].id,
    });
    expect(revoked.body.data.authorisations).toHaveLength(0);
    expect((await list(op.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
  });

  it('refuses authorising users who are not operators of the company, and bad periods', async () => {
    const seal = (await list(co.admin.agent, 1)).seals[0];
    const now = t.clock.now().getTime();
    const stranger = await person(t, '路人甲');
    const bad = await co.admin.agent.call(authoriseSeal, {
      userType: 1,
      sealId: seal.id,
      userIds: [stranger.userId],
      validFrom: new Date(now).toISOString(),
      validTo: new Date(now + DAY).toISOString(),
    });
    expect(bad.body.code).toBe(Code.Refused);
    const backwards = await co.admin.agent.call(authoriseSeal, {
      userType: 1,
      sealId: seal.id,
      userIds: [co.operators[0].userId],
      validFrom: new Date(now + DAY).toISOString(),
      validTo: new Date(now).toISOString(),
    });
    expect(backwards.body.code).toBe(Code.Refused);
  });

  it('the administrator deletes a seal; its authorisations end with it', async () => {
    const seal = (
      await co.admin.agent.call<Seal>(saveCompanySeal, {
        userType: 1,
        sealDTO: { userType: 1, sealType: 104 },
      })
    ).body.data;
    const now = t.clock.now().getTime();
    await co.admin.agent.call(authoriseSeal, {
      userType: 1,
      sealId: seal.id,
      userIds: [co.operators[0].userId],
      validFrom: new Date(now - 1000).toISOString(),
      validTo: new Date(now + DAY).toISOString(),
    });
    expect((await list(co.operators[0].agent, 1)).seals.map((s) => s.id)).toContain(seal.id);
    const opDel = await co.operators[0].agent.call(deleteSeal, { userType: 1, sealId: seal.id });
    expect(opDel.status).toBe(HttpStatus.NoPermission);
    expect((await co.admin.agent.call(deleteSeal, { userType: 1, sealId: seal.id })).body.code).toBe(0);
    expect((await list(co.admin.agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
    expect((await list(co.operators[0].agent, 1)).seals.map((s) => s.id)).not.toContain(seal.id);
  });

  it('previews a company seal (administrator) without saving', async () => {
    const before = (await list(co.admin.agent, 1)).seals.length;
    const res = await co.admin.agent.call<{ svg: string; widthMm: number }>(previewSeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 104 },
    });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data.svg).toMatch(/^<svg/);
    expect(res.body.data.widthMm).toBe(40);
    expect((await list(co.admin.agent, 1)).seals.length).toBe(before);
    const bad = await co.admin.agent.call(previewSeal, {
      userType: 1,
      sealDTO: { userType: 1, sealType: 99 },
    });
    expect(bad.body.code).toBe(Code.Refused);
  });
});
