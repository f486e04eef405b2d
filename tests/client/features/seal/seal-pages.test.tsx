import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Seal } from '#contract/calls/seal.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const seal = (over: Partial<Seal> = {}): Seal => ({
  id: '00000000-0000-4000-8000-000000000001',
  sealType: 102,
  name: '合同专用章',
  kind: 'generated',
  status: 'enabled',
  imageUrl: '/v1/seal/image/00000000-0000-4000-8000-000000000001.svg',
  pngUrl: '/v1/seal/image/00000000-0000-4000-8000-000000000001.png',
  widthMm: 40,
  heightMm: 40,
  antiCounterfeitNo: '1234567890123',
  createdAt: '2026-11-01T08:00:00.000Z',
  isUsable: true,
  authorisations: [],
  ...over,
});

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ userType: 1, companyId: 'c1', isAdmin: true }) });

describe('company seals screen', () => {
  it('shows each seal with its type name in the chosen language and disables one', async () => {
    useI18nStore.getState().setLocale('en-US');
    let current = seal();
    const statusCalls: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ cert: null, seals: [current], role: 'admin' })),
      http.post(`${CSIGN}/setSealStatus`, async ({ request }) => {
        statusCalls.push(await request.json());
        current = seal({ status: 'disabled', isUsable: false });
        return ok(current);
      }),
      http.post(`${CSIGN}/updateLoginUserInfoCache`, () => ok(loginInfo({ userType: 1 }))),
    );
    renderApp('/manage/account/stamp');
    const card = await screen.findByRole('article', { name: 'Contract seal' }, { timeout: 10_000 });
    expect(within(card).getByText('Enabled')).toBeTruthy();
    expect(within(card).getByText('Anti-counterfeit no. 1234567890123')).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(within(screen.getByRole('article')).getByText('Disabled')).toBeTruthy());
    expect(statusCalls).toEqual([{ sealId: current.id, status: 'disabled', userType: 1 }]);
  }, 30_000);

  it('deletes only after confirmation (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    let seals = [seal({ sealType: 1, name: '公章' })];
    const deleted: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ cert: null, seals, role: 'admin' })),
      http.post(`${CSIGN}/deleteSeal`, async ({ request }) => {
        deleted.push(await request.json());
        seals = [];
        return ok(null);
      }),
      http.post(`${CSIGN}/updateLoginUserInfoCache`, () => ok(loginInfo({ userType: 1 }))),
    );
    renderApp('/manage/account/stamp');
    const card = await screen.findByRole('article', { name: '公章' }, { timeout: 10_000 });
    await userEvent.click(within(card).getByRole('button', { name: '删除' }));
    expect(deleted).toEqual([]);
    await screen.findByText('确定删除该印章？删除后不能再用于签署。');
    const confirm = screen.getAllByRole('button', { name: '删除' }).at(-1);
    if (!confirm) throw new Error('no confirm button');
    await userEvent.click(confirm);
    await waitFor(() => expect(deleted).toHaveLength(1));
    await screen.findByText('企业还没有印章。');
  }, 30_000);

  it('an operator with no seal sees why, and no manage buttons', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(
      http.post(`${CSIGN}/getUserCertSealList`, () => ok({ cert: null, seals: [], role: 'operator' })),
    );
    renderApp('/manage/account/stamp');
    await screen.findByText(
      'No seal is authorised to you at the moment. Ask your administrator.',
      undefined,
      {
        timeout: 10_000,
      },
    );
    expect(screen.queryByRole('button', { name: 'Add a seal' })).toBeNull();
  }, 30_000);
});

describe('add a company seal', () => {
  it('previews the chosen type live and sends its definition', async () => {
    useI18nStore.getState().setLocale('en-US');
    const previews: { sealDTO: { sealType: number; purpose?: string } }[] = [];
    server.use(
      http.post(`${CSIGN}/previewSeal`, async ({ request }) => {
        previews.push((await request.json()) as (typeof previews)[number]);
        return ok({ svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', widthMm: 40, heightMm: 40 });
      }),
    );
    renderApp('/manage/account/stamp/addStamp');
    await waitFor(() => expect(previews.at(-1)?.sealDTO.sealType).toBe(1), { timeout: 10_000 });
    await userEvent.click(screen.getByText('Other seal'));
    const purpose = await screen.findByLabelText('Purpose');
    await userEvent.type(purpose, '投标专用章');
    await waitFor(
      () => expect(previews.at(-1)?.sealDTO).toMatchObject({ sealType: 99, purpose: '投标专用章' }),
      {
        timeout: 10_000,
      },
    );
    expect(await screen.findByRole('img', { name: 'Preview: Other seal' })).toBeTruthy();
  }, 30_000);
});
