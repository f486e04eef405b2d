// Filling a template (home/templateDetail): the form checks values by type before any call, in the user's
// language, and sends the values and one party per role — the own company by its id.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Template, TemplateDraft } from '#contract/calls/template.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { COMPANY_SEALS, PERSON_SIGNS } from '../../fixtures/data.ts';

const TEMPLATE_ID = '00000000-0000-4000-8000-0000000000a1';
const COMPANY_ID = '00000000-0000-4000-8000-0000000000c1';

const template: Template = {
  templateId: TEMPLATE_ID,
  name: '买卖合同',
  description: null,
  documentName: 'sale.pdf',
  pages: 1,
  pageSizes: [{ widthPt: 595, heightPt: 842, rotate: 0 }],
  roles: [
    {
      key: 'a',
      name: '甲方',
      kind: 'company',
      stepIndex: 0,
      applies: COMPANY_SEALS,
    },
    {
      key: 'b',
      name: '乙方',
      kind: 'person',
      stepIndex: 1,
      applies: PERSON_SIGNS,
    },
  ],
  fields: [
    {
      key: 'amount',
      label: '合同金额',
      type: 'number',
      isRequired: true,
      defaultValue: null,
      filler: 'initiator',
      fillAt: 'launch',
      page: 1,
      rect: [100, 600, 200, 620],
    },
    {
      key: 'signedOn',
      label: '签订日期',
      type: 'date',
      isRequired: false,
      defaultValue: '2025-01-02',
      filler: 'b',
      fillAt: 'launch',
      page: 1,
      rect: [100, 560, 200, 580],
    },
    {
      key: 'agreed',
      label: '同意',
      type: 'checkbox',
      isRequired: true,
      defaultValue: null,
      filler: 'initiator',
      fillAt: 'launch',
      page: 1,
      rect: [100, 520, 116, 536],
    },
  ],
  positions: [],
  signConfigId: null,
  signConfigName: null,
  downloadUrl: `/v1/account/api/csign/downloadTemplatePdf/${TEMPLATE_ID}`,
  createdByName: null,
  createdAt: '2026-11-21T00:00:00.000Z',
  updatedAt: '2026-11-21T00:00:00.000Z',
};

freshClientEachTest({
  token: 't1',
  loginInfo: loginInfo({
    userType: 1,
    companyId: COMPANY_ID,
    companyName: '杭州云签科技有限公司',
    hasCaCert: true,
  }),
});
beforeEach(() => {
  server.use(http.post(`${CSIGN}/getTemplate`, () => ok(template)));
});

describe('filling a template', () => {
  it('refuses text in a number field and an unticked required box before calling the server (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    let calls = 0;
    server.use(
      http.post(`${CSIGN}/prepareTemplateLaunch`, () => {
        calls++;
        return ok(null);
      }),
    );
    renderApp(`/manage/home/templateDetail?templateId=${TEMPLATE_ID}`);
    const amount = await screen.findByLabelText('合同金额 *', {}, { timeout: 15_000 });
    // The default of the date field is there, in the group of the role that provides it.
    expect((screen.getByLabelText('签订日期') as HTMLInputElement).value).toBe('2025-01-02');
    expect(screen.getByText('乙方的信息')).toBeTruthy();
    await userEvent.type(amount, '十二元');
    await userEvent.click(screen.getByRole('button', { name: '下一步：确认' }));
    expect(await screen.findByText('“合同金额”须为数字')).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5');
    await userEvent.click(screen.getByRole('button', { name: '下一步：确认' }));
    expect(await screen.findByText('请填写“同意”')).toBeTruthy();
    expect(calls).toBe(0);
  }, 20_000);

  it('sends the values and the parties: our company by its id with the operator, the person by phone (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let body: Record<string, unknown> | null = null;
    server.use(
      http.post(`${CSIGN}/prepareTemplateLaunch`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ draftId: '00000000-0000-4000-8000-0000000000d9' } as TemplateDraft);
      }),
      http.post(`${CSIGN}/getTemplateDraft`, () => ok(null)),
    );
    renderApp(`/manage/home/templateDetail?templateId=${TEMPLATE_ID}`);
    await userEvent.type(await screen.findByLabelText('合同金额 *', {}, { timeout: 15_000 }), '8800.50');
    await userEvent.click(screen.getByRole('checkbox', { name: '同意 *' }));
    await userEvent.type(screen.getByLabelText('Operator phone'), '13800000001');
    await userEvent.type(screen.getByLabelText('Signer name'), '李四');
    await userEvent.type(screen.getByLabelText('Signer phone'), '13800000002');
    // each role has its intent check, SMS code unless chosen: the person signs with the signing password
    const intents = screen.getAllByRole('combobox', { name: 'Intent check before signing' });
    expect(intents).toHaveLength(2);
    await userEvent.click(intents[1]);
    await userEvent.click(await screen.findByTitle('Signing password'));
    await userEvent.click(screen.getByRole('button', { name: 'Next: review' }));
    await waitFor(() => expect(body).not.toBeNull(), { timeout: 4000 });
    expect(body).toMatchObject({
      templateId: TEMPLATE_ID,
      title: '买卖合同',
      values: { amount: '8800.50', signedOn: '2025-01-02', agreed: true },
      assignments: [
        { roleKey: 'a', kind: 'company', companyId: COMPANY_ID, operatorPhone: '13800000001', intent: 'sms' },
        { roleKey: 'b', kind: 'person', name: '李四', phone: '13800000002', intent: 'password' },
      ],
    });
  }, 20_000);

  it('asks nothing for a field the person fills in the signing room: it is listed as filled by the role when signing (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let body: { values: Record<string, unknown> } | null = null;
    server.use(
      http.post(`${CSIGN}/getTemplate`, () =>
        ok({
          ...template,
          fields: [
            ...template.fields,
            {
              key: 'address',
              label: 'Home address',
              type: 'text',
              isRequired: true,
              defaultValue: null,
              filler: 'b',
              fillAt: 'room',
              page: 1,
              rect: [100, 480, 260, 500],
            },
          ],
        }),
      ),
      http.post(`${CSIGN}/prepareTemplateLaunch`, async ({ request }) => {
        body = (await request.json()) as { values: Record<string, unknown> };
        return ok({ draftId: '00000000-0000-4000-8000-0000000000d9' } as TemplateDraft);
      }),
      http.post(`${CSIGN}/getTemplateDraft`, () => ok(null)),
    );
    renderApp(`/manage/home/templateDetail?templateId=${TEMPLATE_ID}`);
    const room = await screen.findByTestId('room-fields', {}, { timeout: 15_000 });
    expect(room.textContent).toContain('Home address (text) — filled by 乙方 when signing');
    expect(screen.queryByLabelText(/Home address/)).toBeNull();
    await userEvent.type(screen.getByLabelText('合同金额 *'), '8800.50');
    await userEvent.click(screen.getByRole('checkbox', { name: '同意 *' }));
    await userEvent.type(screen.getByLabelText('Operator phone'), '13800000001');
    await userEvent.type(screen.getByLabelText('Signer name'), '李四');
    await userEvent.type(screen.getByLabelText('Signer phone'), '13800000002');
    await userEvent.click(screen.getByRole('button', { name: 'Next: review' }));
    await waitFor(() => expect(body).not.toBeNull(), { timeout: 4000 });
    expect(body!.values).toEqual({ amount: '8800.50', signedOn: '2025-01-02', agreed: true });
  }, 20_000);

  it('renews a template flow: the old title and parties fill the roles; the review carries the renewal (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const OLD = '00000000-0000-4000-8000-0000000000f1';
    let body: Record<string, unknown> | null = null;
    server.use(
      http.post(`${CSIGN}/getFlowRenewal`, () =>
        ok({
          flowId: OLD,
          kind: 'template',
          title: 'Sale 2026 (renewal)',
          message: null,
          remindEveryDays: null,
          steps: [
            {
              parties: [
                {
                  kind: 'company',
                  name: '王经办',
                  phone: '13800000011',
                  picked: null,
                  companyId: COMPANY_ID,
                  companyName: '杭州云签科技有限公司',
                  applies: COMPANY_SEALS,
                  intent: 'sms',
                },
              ],
            },
            {
              parties: [
                {
                  kind: 'person',
                  name: '李四',
                  phone: '13800000012',
                  picked: null,
                  companyId: null,
                  companyName: null,
                  applies: PERSON_SIGNS,
                  intent: 'password',
                },
              ],
            },
          ],
          term: null,
          templateId: TEMPLATE_ID,
        }),
      ),
      http.post(`${CSIGN}/prepareTemplateLaunch`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ draftId: '00000000-0000-4000-8000-0000000000d9' } as TemplateDraft);
      }),
      http.post(`${CSIGN}/getTemplateDraft`, () => ok(null)),
    );
    renderApp(`/manage/home/templateDetail?templateId=${TEMPLATE_ID}&renew=${OLD}`);
    await userEvent.type(await screen.findByLabelText('合同金额 *', {}, { timeout: 15_000 }), '100');
    await userEvent.click(screen.getByRole('checkbox', { name: '同意 *' }));
    expect((screen.getByLabelText('Signer phone') as HTMLInputElement).value).toBe('13800000012');
    await userEvent.click(screen.getByRole('button', { name: 'Next: review' }));
    await waitFor(() => expect(body).not.toBeNull(), { timeout: 4000 });
    expect(body).toMatchObject({
      title: 'Sale 2026 (renewal)',
      assignments: [
        { roleKey: 'a', kind: 'company', companyId: COMPANY_ID, operatorPhone: '13800000011', intent: 'sms' },
        { roleKey: 'b', kind: 'person', name: '李四', phone: '13800000012', intent: 'password' },
      ],
    });
  }, 20_000);
});
