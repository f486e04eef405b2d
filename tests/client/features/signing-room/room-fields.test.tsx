import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlowField } from '#contract/calls/fields.ts';
import type { SigningRoom } from '#contract/calls/flow.ts';
import { saveRoomLogin } from '@/api/flow.ts';
import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, fail, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { documentInfo, flowSummary, PERSON_SIGNS } from '../../fixtures/data.ts';

// Fields the signer fills in the room (issue 28): guided one by one, checked as typed with the contract's rule,
// saved as the signer goes, the sign button held until every required field is done, the values sent.

vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const PARTY = '00000000-0000-4000-8000-0000000000a1';
const DOC = '00000000-0000-4000-8000-0000000000d1';
const TOKEN = 'room-token-0123456789abcdef';
const SEAL_ID = '00000000-0000-4000-8000-0000000000e1';
const fid = (n: number) => `00000000-0000-4000-8000-00000000010${n}`;

const field = (n: number, over: Partial<FlowField>): FlowField => ({
  fieldId: fid(n),
  partyId: PARTY,
  documentId: DOC,
  key: `f${n}`,
  label: `Field ${n}`,
  kind: 'text',
  isRequired: true,
  options: null,
  page: 1,
  // top to bottom in the order of n
  rect: [100, 700 - n * 40, 260, 720 - n * 40],
  value: null,
  attachment: null,
  signedAt: null,
  ...over,
});

const FIELDS: FlowField[] = [
  field(1, { label: 'Home address', kind: 'text' }),
  field(2, { label: 'Start date', kind: 'date' }),
  field(3, { label: 'I have read the terms', kind: 'checkbox' }),
  field(4, { label: 'Contact phone', kind: 'phone', isRequired: false }),
  field(5, { label: 'ID card copy', kind: 'attachment' }),
  field(6, { label: 'Signed on', kind: 'signDate' }),
];

const room = (fields: FlowField[]): SigningRoom => ({
  flow: { ...flowSummary({ flowId: FLOW }), message: null },
  party: {
    partyId: PARTY,
    stepIndex: 1,
    kind: 'person',
    linkType: 1,
    name: 'Li Lei',
    phoneMasked: '139****0001',
    intent: 'sms',
    companyId: null,
    companyName: null,
    applies: PERSON_SIGNS,
    positions: [{ documentId: DOC, page: 1, rect: [100, 100, 213, 157] }],
    status: 'pending',
    signedAt: null,
    declinedAt: null,
    declineReason: null,
    signedByName: null,
    lastRemindedAt: null,
    sentAt: '2026-11-21T00:00:00.000Z',
    openedAt: null,
    onboardingAt: null,
    onboardingProblem: null,
    progress: 'sent',
  },
  documents: [
    documentInfo({
      documentId: DOC,
      name: 'lease.pdf',
      status: 'signing',
      verificationCode: 'ABCD1234',
      flowId: FLOW,
      downloadUrl: `/v1/account/api/csign/downloadDocument/${DOC}`,
    }),
  ],
  canSign: true,
  cannotSignReason: null,
  signer: { name: 'Li Lei', phoneMasked: '139****0001', hasCertificate: true },
  onboarding: {
    step: 'none',
    isPhoneProven: true,
    hasAccount: true,
    isRealNameDone: true,
    isAgreementAccepted: true,
    hasCertificate: true,
    realName: 'Li Lei',
    expectedName: 'Li Lei',
    phoneMasked: '139****0001',
    agreementVersion: '1',
    identityProvider: { name: 'development', isDevelopment: true },
    company: null,
  },
  seals: [
    {
      sealId: SEAL_ID,
      name: 'Li Lei name seal',
      sealType: null,
      pngUrl: '/v1/seal/image/e1.png',
      widthMm: 40,
      heightMm: 20,
    },
  ],
  needs: { companySeal: false, legalPersonSeal: false, personSignature: true },
  fields,
});

const enterRoom = (locale: Locale) => {
  useI18nStore.getState().setLocale(locale);
  saveRoomLogin({
    roomToken: TOKEN,
    expiresAt: '2099-01-01T00:00:00.000Z',
    flowId: FLOW,
    partyId: PARTY,
    linkType: 1,
  });
};

freshClientEachTest();
beforeEach(() => {
  server.use(
    http.get(`${CSIGN}/downloadDocument/:id`, () => new HttpResponse(null, { status: 404 })),
    http.get('/v1/seal/image/:file', () => new HttpResponse(null, { status: 404 })),
    http.post(`${CSIGN}/getFlowDetail`, () => fail(1101, 'not found')),
  );
});

const signButton = (name = 'Sign') => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('fields the signer fills in the room (issue 28)', () => {
  it('guides field by field, checks as typed, saves as it goes, signs only when complete and sends the values (en-US)', async () => {
    enterRoom('en-US');
    const saved: unknown[] = [];
    const uploads: { fieldId: unknown; roomToken: unknown; name: string }[] = [];
    const signed: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getSigningRoom`, () => ok(room(FIELDS))),
      http.post(`${CSIGN}/saveRoomFields`, async ({ request }) => {
        saved.push(await request.json());
        return ok({ fields: FIELDS });
      }),
      http.post(`${CSIGN}/uploadRoomAttachment`, async ({ request }) => {
        // The multipart body as the client sends it (text parts first, then the file).
        const body = await request.text();
        const part = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)`).exec(body)?.[1];
        const name = /filename="([^"]+)"/.exec(body)?.[1] ?? '';
        uploads.push({ fieldId: part('fieldId'), roomToken: part('roomToken'), name });
        return ok({
          ...FIELDS[4],
          value: name,
          attachment: {
            name,
            mediaType: 'image/png',
            size: 2048,
            sha256: 'ab'.repeat(32),
            downloadUrl: `/v1/account/api/csign/downloadFieldAttachment/${fid(5)}`,
          },
        });
      }),
      http.post(`${CSIGN}/sendSignSmsCode`, () =>
        ok({ expiresInSeconds: 300, resendAfterSeconds: 60, phoneMasked: '139****0001' }),
      ),
      http.post(`${CSIGN}/signDocument`, async ({ request }) => {
        signed.push(await request.json());
        return ok({ flowStatus: 'signing', partyStatus: 'signed', documents: [] });
      }),
    );
    const { router } = renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    const guide = await screen.findByTestId('field-guide', {}, { timeout: 5000 });
    // Six fields: the optional phone and the signing date need nothing, four stop the signature.
    expect(within(guide).getByTestId('field-progress').textContent).toBe('Field 1 of 6 — 4 left');
    expect(signButton().disabled).toBe(true);
    expect(screen.getByTestId('fields-left').textContent).toMatch(/^4 required fields left/);
    // The shown field's box is highlighted on the page.
    expect((await screen.findByTestId('field-box-current')).getAttribute('aria-label')).toBe(
      'Field: Home address',
    );

    // Next without a value: the rule says the field is required.
    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));
    await userEvent.click(within(guide).getByRole('button', { name: 'Previous' }));
    expect(within(guide).getByRole('alert').textContent).toBe('this field is required');
    await userEvent.type(within(guide).getByLabelText(/Home address/), '1 Long Road, Shanghai');
    expect(within(guide).queryByRole('alert')).toBeNull();
    expect(within(guide).getByTestId('field-progress').textContent).toBe('Field 1 of 6 — 3 left');
    // Saved while the signer goes on (a reload keeps it).
    await waitFor(() =>
      expect(saved).toContainEqual({
        roomToken: TOKEN,
        values: { [fid(1)]: '1 Long Road, Shanghai' },
        userType: 0,
      }),
    );

    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));
    expect(within(guide).getByTestId('field-progress').textContent).toBe('Field 2 of 6 — 3 left');
    expect(screen.getByTestId('field-box-current').getAttribute('aria-label')).toBe('Field: Start date');
    fireEvent.change(within(guide).getByLabelText(/Start date/), { target: { value: '2027-01-15' } });
    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));
    await userEvent.click(within(guide).getByLabelText(/I have read the terms/));
    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));

    // The optional phone: a bad number is refused as it is typed, and it stops the signature too.
    const phone = within(guide).getByLabelText(/Contact phone/);
    await userEvent.type(phone, '1380');
    expect(within(guide).getByRole('alert').textContent).toBe('enter an 11-digit mainland mobile number');
    await userEvent.type(phone, '0000001');
    expect(within(guide).queryByRole('alert')).toBeNull();
    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));

    // The attachment: uploaded, then shown with its name and size.
    expect(signButton().disabled).toBe(true);
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'id-copy.png', { type: 'image/png' });
    await userEvent.upload(within(guide).getByLabelText(/ID card copy/), png);
    expect(await within(guide).findByRole('link', { name: 'id-copy.png' })).toBeTruthy();
    expect(within(guide).getByText('2 kB')).toBeTruthy();
    expect(uploads).toEqual([{ fieldId: fid(5), roomToken: TOKEN, name: 'id-copy.png' }]);
    expect(within(guide).getByTestId('field-progress').textContent).toBe('Field 5 of 6 — all done');

    await userEvent.click(within(guide).getByRole('button', { name: 'Next' }));
    expect(within(guide).getByTestId('sign-date-note').textContent).toBe(
      'Filled with the signing date when you sign',
    );
    expect(screen.queryByTestId('fields-left')).toBeNull();
    expect(signButton().disabled).toBe(false);

    await userEvent.click(signButton());
    const dialog = await screen.findByRole('dialog', { name: 'Confirm signing' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign_confirm'));
    expect(signed).toEqual([
      {
        roomToken: TOKEN,
        smsCode: '123456',
        personSealId: SEAL_ID,
        fieldValues: {
          [fid(1)]: '1 Long Road, Shanghai',
          [fid(2)]: '2027-01-15',
          [fid(3)]: true,
          [fid(4)]: '13800000001',
        },
        userType: 0,
      },
    ]);
  }, 40_000);

  it("shows the rule's message in Chinese and starts from the values saved before a reload (zh-CN, phone)", async () => {
    enterRoom('zh-CN');
    server.use(
      http.post(`${CSIGN}/getSigningRoom`, () =>
        ok(
          room([
            field(1, { label: '住址', kind: 'text', value: '上海市长宁路 1 号' }),
            field(2, { label: '身份证号', kind: 'idNumber' }),
          ]),
        ),
      ),
      http.post(`${CSIGN}/saveRoomFields`, () => ok({ fields: [] })),
    );
    renderApp(`/h5/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    const guide = await screen.findByTestId('field-guide', {}, { timeout: 5000 });
    expect((within(guide).getByLabelText(/住址/) as HTMLInputElement).value).toBe('上海市长宁路 1 号');
    expect(within(guide).getByTestId('field-progress').textContent).toBe('第 1 项，共 2 项 — 还剩 1 项');
    await userEvent.click(within(guide).getByRole('button', { name: '下一项' }));
    await userEvent.type(within(guide).getByLabelText(/身份证号/), '110105194912310021');
    expect(within(guide).getByRole('alert').textContent).toBe('身份证号校验位错误');
    expect(screen.getByTestId('fields-left').textContent).toBe('还有 1 项必填内容未完成，请填写后再签署');
    expect(signButton('签署').disabled).toBe(true);
  }, 30_000);
});
