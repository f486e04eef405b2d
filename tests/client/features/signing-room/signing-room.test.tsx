import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SigningRoom } from '#contract/calls/flow.ts';
import { saveRoomLogin } from '@/api/flow.ts';
import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { CSIGN, fail, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { approvalDetail, documentInfo, flowSummary, PERSON_SIGNS } from '../../fixtures/data.ts';

// pdf.js cannot start its worker under jsdom, and how fast it fails decided whether the page showed its
// error before the positions (a race that made this file flaky). The document stays "loading" here: the
// positions are laid out from the server's page sizes, which is what these tests are about.
vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const FLOW = '00000000-0000-4000-8000-0000000000f1';
const PARTY = '00000000-0000-4000-8000-0000000000a1';
const DOC = '00000000-0000-4000-8000-0000000000d1';
const TOKEN = 'room-token-0123456789abcdef';
const SEAL_ID = '00000000-0000-4000-8000-0000000000e1';

const room = (over: Partial<SigningRoom> = {}): SigningRoom => ({
  flow: {
    ...flowSummary({ flowId: FLOW }),
    message: null,
  },
  party: {
    partyId: PARTY,
    stepIndex: 0,
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
  fields: [],
  ...over,
});

const ROOM_LOGIN = {
  roomToken: TOKEN,
  expiresAt: '2099-01-01T00:00:00.000Z',
  flowId: FLOW,
  partyId: PARTY,
  linkType: 1,
};
/** In `locale`, this window holds the party's room login, as the signing link leaves it. */
const enterRoom = (locale: Locale) => {
  useI18nStore.getState().setLocale(locale);
  saveRoomLogin(ROOM_LOGIN);
};
const serveRoom = (answer: SigningRoom) => http.post(`${CSIGN}/getSigningRoom`, () => ok(answer));
/** The room asks for the flow's detail too; the party is not a member, so none. */
const noFlowDetail = () => http.post(`${CSIGN}/getFlowDetail`, () => fail(1101, 'not found'));
/** The onboarding of a party with no account yet: no real name, agreement or certificate. */
const newcomer = (over: Partial<SigningRoom['onboarding']>): SigningRoom['onboarding'] => ({
  ...room().onboarding,
  hasAccount: false,
  isRealNameDone: false,
  isAgreementAccepted: false,
  hasCertificate: false,
  realName: null,
  ...over,
});
const SMS_SENT = { expiresInSeconds: 300, resendAfterSeconds: 60, phoneMasked: '139****0001' };
type Call = { name: string; body: unknown };
/** A handler that keeps each request's name and body in `calls` and answers `answer`. */
const recordInto =
  (calls: Call[]) =>
  (name: string, answer: unknown) =>
  async ({ request }: { request: Request }) => {
    calls.push({ name, body: await request.json() });
    return ok(answer);
  };

freshClientEachTest();
beforeEach(() => {
  server.use(
    // pdf.js asks for the file; the positions are laid out from the server's page sizes either way.
    http.get(`${CSIGN}/downloadDocument/:id`, () => new HttpResponse(null, { status: 404 })),
    http.get('/v1/seal/image/:file', () => new HttpResponse(null, { status: 404 })),
  );
});

describe('signing room', () => {
  it('shows the party its position and signs with its seal after the SMS code (en-US)', async () => {
    enterRoom('en-US');
    const signed: unknown[] = [];
    server.use(
      serveRoom(room()),
      http.post(`${CSIGN}/sendSignSmsCode`, () => ok(SMS_SENT)),
      http.post(`${CSIGN}/signDocument`, async ({ request }) => {
        signed.push(await request.json());
        return ok({ flowStatus: 'signing', partyStatus: 'signed', documents: [] });
      }),
      noFlowDetail(),
    );
    const { router } = renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 5000 })).toBeTruthy();
    // The position is drawn where the rectangle says: 100 pt from the left, (842 - 157) pt from the top, scaled.
    const spot = await screen.findByTestId('sign-position');
    expect(spot.textContent).toBe('Sign here');
    expect(screen.getByRole('radio', { name: /Li Lei name seal/ })).toHaveProperty('checked', true);

    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm signing' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    expect(await within(dialog).findByText('Enter the 6-digit code')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    expect(await within(dialog).findByRole('button', { name: /Resend in \d+s/ })).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign_confirm'));
    expect(signed).toEqual([
      {
        roomToken: TOKEN,
        smsCode: '123456',
        personSealId: SEAL_ID,
        userType: 0,
      },
    ]);
  }, 20_000);

  it('a signer without a real name onboards in the room and comes back ready to sign (en-US, phone)', async () => {
    enterRoom('en-US');
    let onboarding = newcomer({ step: 'nameAuthentication' });
    const calls: Call[] = [];
    server.use(
      http.post(`${CSIGN}/getSigningRoom`, () => ok(room({ seals: [], onboarding }))),
      http.post(`${CSIGN}/getUserAgreement`, () =>
        ok({
          version: '1',
          title: { en: 'Certificate agreement', zh: '协议' },
          text: { en: 'Text', zh: '正文' },
          acceptedAt: null,
        }),
      ),
      http.post(`${CSIGN}/roomRealName`, async ({ request }) => {
        calls.push({ name: 'roomRealName', body: await request.json() });
        onboarding = {
          ...onboarding,
          step: 'userAgreement',
          hasAccount: true,
          isRealNameDone: true,
          realName: 'Li Lei',
        };
        return ok(onboarding);
      }),
      http.post(`${CSIGN}/roomAcceptAgreement`, async ({ request }) => {
        calls.push({ name: 'roomAcceptAgreement', body: await request.json() });
        onboarding = { ...onboarding, step: 'none', isAgreementAccepted: true, hasCertificate: true };
        return ok(onboarding);
      }),
      noFlowDetail(),
    );
    const { router } = renderApp(`/h5/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(
      await screen.findByText(/confirm your real name and receive a certificate/, {}, { timeout: 5000 }),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/h5/v1/nameAuthentication'), {
      timeout: 5000,
    });
    expect(router.state.location.search).toBe(`?flowId=${FLOW}&partyId=${PARTY}`);
    const name = await screen.findByLabelText('Full name', {}, { timeout: 5000 });
    expect((name as HTMLInputElement).value).toBe('Li Lei');
    const phone = screen.getByLabelText('Phone (verified)') as HTMLInputElement;
    expect(phone.disabled).toBe(true);
    expect(phone.value).toBe('139****0001');
    await userEvent.type(screen.getByLabelText('ID card number'), '11010519491231002X');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/h5/v1/userAgreement'), {
      timeout: 5000,
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Accept and get my certificate' }, { timeout: 5000 }),
    );
    // Back in the same room, ready to sign: no onboarding hint any more.
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByTestId('sign-position')).toBeTruthy();
    expect(screen.queryByText(/confirm your real name and receive a certificate/)).toBeNull();
    expect(calls).toEqual([
      {
        name: 'roomRealName',
        body: { roomToken: TOKEN, name: 'Li Lei', idNumber: '11010519491231002X', userType: 0 },
      },
      { name: 'roomAcceptAgreement', body: { roomToken: TOKEN, version: '1', userType: 0 } },
    ]);
  }, 30_000);

  it('keeps the signature a newcomer drew before onboarding and says it is verified, now sign (en-US, phone)', async () => {
    enterRoom('en-US');
    let onboarding = newcomer({ step: 'userAgreement', hasAccount: true, isRealNameDone: true });
    const signed: { signaturePng?: string }[] = [];
    server.use(
      http.post(`${CSIGN}/getSigningRoom`, () => ok(room({ seals: [], onboarding }))),
      http.post(`${CSIGN}/getUserAgreement`, () =>
        ok({
          version: '1',
          title: { en: 'Certificate agreement', zh: '协议' },
          text: { en: 'Text', zh: '正文' },
          acceptedAt: null,
        }),
      ),
      http.post(`${CSIGN}/roomAcceptAgreement`, () => {
        onboarding = { ...onboarding, step: 'none', isAgreementAccepted: true, hasCertificate: true };
        return ok(onboarding);
      }),
      http.post(`${CSIGN}/sendSignSmsCode`, () => ok(SMS_SENT)),
      http.post(`${CSIGN}/signDocument`, async ({ request }) => {
        signed.push((await request.json()) as { signaturePng?: string });
        return ok({ flowStatus: 'signing', partyStatus: 'signed', documents: [] });
      }),
      noFlowDetail(),
    );
    const { router } = renderApp(`/h5/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    const pad = await screen.findByRole('img', { name: /Signature pad/ }, { timeout: 5000 });
    // One stroke across the pad, then Sign: the room sends the newcomer to its onboarding first.
    fireEvent.pointerDown(pad, { button: 0, pointerType: 'mouse', pointerId: 1, clientX: 10, clientY: 40 });
    fireEvent.pointerMove(pad, { pointerType: 'mouse', pointerId: 1, clientX: 60, clientY: 20 });
    fireEvent.pointerUp(pad, { pointerType: 'mouse', pointerId: 1, clientX: 60, clientY: 20 });
    expect(pad.getAttribute('data-strokes')).toBe('1');
    expect(screen.queryByRole('status')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Accept and get my certificate' }, { timeout: 5000 }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/h5/v1/signing_room'), {
      timeout: 5000,
    });
    // Back in the room: told it is verified, and the drawing is still on the pad.
    const verified = await screen.findByRole('status', {}, { timeout: 5000 });
    expect(verified.textContent).toContain("You're verified — now sign");
    expect(verified.textContent).toContain('The signature you drew is kept below');
    const again = await screen.findByRole('img', { name: /Signature pad/ });
    expect(again.getAttribute('data-strokes')).toBe('1');
    expect(screen.getByRole('radio', { name: 'Draw a signature' })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'Undo' })).toHaveProperty('disabled', false);
    // Signing now sends that drawing: nothing to draw again.
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm signing' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign_confirm'));
    expect(signed).toHaveLength(1);
    expect(signed[0].signaturePng).toMatch(/^iVBORw0KGgo/);
  }, 30_000);

  it('the room names the platform, the contract and its sender, and switches language (zh-CN to en-US)', async () => {
    enterRoom('zh-CN');
    usePlatformStore.getState().setCode('ZHDB');
    server.use(
      serveRoom(
        room({ flow: { ...room().flow, initiatorName: 'Wang Fang', initiatorCompanyName: '甲公司' } }),
      ),
      noFlowDetail(),
    );
    renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('platform-brand').textContent).toBe('担保公司平台');
    expect(screen.getByTestId('room-sender').textContent).toBe('发起方：甲公司 Wang Fang');
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByTestId('platform-brand').textContent).toBe('Guarantee-company platform');
    expect(screen.getByTestId('room-sender').textContent).toBe('From Wang Fang, 甲公司');
    expect(screen.getByRole('button', { name: 'Sign' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '中文' })).toBeTruthy();
  }, 20_000);

  it('an embedded room proves the phone with a code before the real-name step (zh-CN, PC)', async () => {
    enterRoom('zh-CN');
    let onboarding = newcomer({ step: 'provePhone', isPhoneProven: false });
    const calls: Call[] = [];
    server.use(
      http.post(`${CSIGN}/getSigningRoom`, () => ok(room({ seals: [], onboarding }))),
      http.post(`${CSIGN}/sendSignSmsCode`, recordInto(calls)('sendSignSmsCode', SMS_SENT)),
      http.post(`${CSIGN}/roomProvePhone`, async ({ request }) => {
        calls.push({ name: 'roomProvePhone', body: await request.json() });
        onboarding = { ...onboarding, step: 'nameAuthentication', isPhoneProven: true };
        return ok(onboarding);
      }),
      noFlowDetail(),
    );
    renderApp(`/pc/v1/nameAuthentication?flowId=${FLOW}&partyId=${PARTY}`);
    expect(await screen.findByRole('heading', { name: '确认手机号' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/139\*\*\*\*0001 是您本人的手机号/)).toBeTruthy();
    expect(screen.getByText('第 1 步，共 3 步')).toBeTruthy();
    // No code typed: said inline, nothing sent.
    await userEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByText('请输入短信中的 6 位验证码')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await userEvent.type(screen.getByLabelText('验证码'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByRole('heading', { name: '确认实名信息' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('第 2 步，共 3 步')).toBeTruthy();
    expect(calls).toEqual([
      { name: 'sendSignSmsCode', body: { roomToken: TOKEN, purpose: 'roomLogin', userType: 0 } },
      { name: 'roomProvePhone', body: { roomToken: TOKEN, smsCode: '123456', userType: 0 } },
    ]);
  }, 30_000);

  it('declines only with a reason, after confirming (zh-CN)', async () => {
    enterRoom('zh-CN');
    const declined: unknown[] = [];
    server.use(
      serveRoom(room()),
      http.post(`${CSIGN}/declineFlow`, async ({ request }) => {
        declined.push(await request.json());
        return ok(null);
      }),
      noFlowDetail(),
    );
    const { router } = renderApp(`/h5/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    await userEvent.click(await screen.findByRole('button', { name: '拒签' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: '拒绝签署' });
    await userEvent.click(within(dialog).getByRole('button', { name: '确认拒签' }));
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    expect(declined).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('原因'), '金额不对');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认拒签' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign_confirm'));
    expect(declined).toEqual([{ roomToken: TOKEN, reason: '金额不对', userType: 0 }]);
  }, 20_000);

  it('cannot sign out of turn: says why and keeps the buttons off', async () => {
    enterRoom('en-US');
    server.use(serveRoom(room({ canSign: false, cannotSignReason: 'An earlier step has not finished yet' })));
    renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(
      await screen.findByText('An earlier step has not finished yet', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Decline' })).toHaveProperty('disabled', true);
  });

  it('asks to open the link again when this window holds no room', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(
      await screen.findByText(
        'This signing room is not open in this window. Open the signing link from your message again.',
        {},
        { timeout: 5000 },
      ),
    ).toBeTruthy();
  });
});

/** The room of a company party of 测试有限公司 that applies the contract seal (type 102), with these seals. */
const companyPartyRoom = (applies: Partial<SigningRoom['party']['applies']>, seals: SigningRoom['seals']) =>
  room({
    party: {
      ...room().party,
      kind: 'company',
      companyId: '00000000-0000-4000-8000-0000000000c1',
      companyName: '测试有限公司',
      applies: { ...PERSON_SIGNS, personSignature: false, companySealType: 102, ...applies },
    },
    seals,
    needs: { companySeal: true, legalPersonSeal: false, personSignature: false },
  });

/** The contract seal (type 102) a company party's room offers. */
const CONTRACT_SEAL: SigningRoom['seals'][number] = {
  sealId: SEAL_ID,
  name: 'Contract seal',
  sealType: 102,
  pngUrl: '/v1/seal/image/e1.png',
  widthMm: 40,
  heightMm: 40,
};

describe('a company party whose launcher did not insist on the seal type', () => {
  const OFFICIAL = '00000000-0000-4000-8000-0000000000e2';
  const FINANCE = '00000000-0000-4000-8000-0000000000e3';
  const LEGAL = '00000000-0000-4000-8000-0000000000e4';
  const companySeal = (sealId: string, name: string, sealType: number) => ({
    sealId,
    name,
    sealType,
    pngUrl: `/v1/seal/image/${sealId}.png`,
    widthMm: 40,
    heightMm: 40,
  });
  const companyRoom = () =>
    companyPartyRoom(
      { anyCompanySeal: true },
      // The company has no contract seal: the seals authorised to the signer are these.
      [
        companySeal(FINANCE, 'Finance seal', 103),
        companySeal(OFFICIAL, 'Official seal', 1),
        companySeal(LEGAL, 'Legal-person seal', 101),
      ],
    );

  it.each([
    ['en-US', '/pc/v1/signing_room', 'No usable seal'],
    ['zh-CN', '/h5/v1/signing_room', '没有可用的印章'],
  ] as const)(
    'the signer chooses among their company seals (%s, %s)',
    async (locale, path, noSeal) => {
      enterRoom(locale);
      server.use(serveRoom(companyRoom()), noFlowDetail());
      renderApp(`${path}?flowId=${FLOW}&partyId=${PARTY}`);
      const official = await screen.findByRole('radio', { name: /Official seal/ }, { timeout: 5000 });
      const finance = screen.getByRole('radio', { name: /Finance seal/ });
      expect(screen.queryByRole('radio', { name: /Legal-person seal/ })).toBeNull();
      expect(screen.queryByText(new RegExp(noSeal))).toBeNull();
      // No contract seal to offer first: the official seal is, and the signer may take another.
      await waitFor(() => expect(official).toHaveProperty('checked', true));
      await userEvent.click(finance);
      expect(finance).toHaveProperty('checked', true);
    },
    20_000,
  );
});

describe('a seal granted by the party’s company to the signer’s company (issue 27)', () => {
  const grantedRoom = () =>
    companyPartyRoom({}, [
      { ...CONTRACT_SEAL, grant: { companyName: '测试有限公司', letterNumber: 'SQ-2026-000007' } },
    ]);

  it.each([
    ['en-US', '/pc/v1/signing_room', 'granted by 测试有限公司 under letter SQ-2026-000007'],
    ['zh-CN', '/h5/v1/signing_room', '由测试有限公司授权（授权书 SQ-2026-000007）'],
  ] as const)(
    'the seal shows who granted it under which letter (%s, %s)',
    async (locale, path, note) => {
      enterRoom(locale);
      server.use(serveRoom(grantedRoom()), noFlowDetail());
      renderApp(`${path}?flowId=${FLOW}&partyId=${PARTY}`);
      const seal = await screen.findByRole('radio', { name: /Contract seal/ }, { timeout: 5000 });
      expect(seal.closest('label')?.textContent).toContain(note);
    },
    20_000,
  );
});

describe('seal-use approval in the room (issue 27)', () => {
  const companyRoom = () => companyPartyRoom({}, [CONTRACT_SEAL]);
  const ZHANG = approvalDetail().approvers;
  const rejected = approvalDetail({
    status: 'rejected',
    approvers: [{ ...ZHANG[0], state: 'rejected' }],
    decisions: [
      {
        userId: ZHANG[0].userId,
        name: 'Zhang San',
        decision: 'reject',
        comment: 'Amount is wrong',
        at: '2026-11-21T01:00:00.000Z',
      },
    ],
  });
  const approved = approvalDetail({
    approvalId: '00000000-0000-4000-8000-0000000000b2',
    status: 'approved',
    approvers: [{ ...ZHANG[0], state: 'approved' }],
  });

  it.each([
    [
      'en-US',
      '/pc/v1/signing_room',
      {
        needed: 'This seal needs approval before use',
        ask: 'Ask for approval',
        waiting: 'Waiting for Zhang San',
        refresh: 'Refresh',
        rejected: 'Rejected by Zhang San: Amount is wrong',
        again: 'Ask again',
        approved: 'Approved — you can sign now',
        sign: 'Sign',
      },
    ],
    [
      'zh-CN',
      '/h5/v1/signing_room',
      {
        needed: '此印章需审批后才能使用',
        ask: '申请用印审批',
        waiting: '等待 Zhang San 审批',
        refresh: '刷新',
        rejected: 'Zhang San 驳回：Amount is wrong',
        again: '重新申请',
        approved: '审批已通过，现在可以签署',
        sign: '签署',
      },
    ],
  ] as const)(
    'asks, waits, reads the rejection, asks again and may sign once approved (%s, %s)',
    async (locale, path, t) => {
      enterRoom(locale);
      let latest: ReturnType<typeof approvalDetail> | null = null;
      const asked: unknown[] = [];
      server.use(
        serveRoom(companyRoom()),
        noFlowDetail(),
        http.post(`${CSIGN}/getRoomApprovals`, () =>
          ok({ seals: [{ sealId: SEAL_ID, needsApproval: latest?.status !== 'approved', latest }] }),
        ),
        http.post(`${CSIGN}/requestSealApproval`, async ({ request }) => {
          asked.push(await request.json());
          latest = approvalDetail({
            approvalId: asked.length === 1 ? approvalDetail().approvalId : approved.approvalId,
          });
          return ok(latest);
        }),
      );
      renderApp(`${path}?flowId=${FLOW}&partyId=${PARTY}`);
      expect(await screen.findByText(t.needed, {}, { timeout: 5000 })).toBeTruthy();
      const sign = screen.getByRole('button', { name: t.sign });
      expect(sign).toHaveProperty('disabled', true);

      await userEvent.click(screen.getByRole('button', { name: t.ask }));
      expect(await screen.findByText(t.waiting)).toBeTruthy();
      expect(asked).toEqual([{ roomToken: TOKEN, sealId: SEAL_ID, userType: 0 }]);

      latest = rejected;
      await userEvent.click(screen.getByRole('button', { name: t.refresh }));
      expect(await screen.findByText(t.rejected)).toBeTruthy();
      expect(sign).toHaveProperty('disabled', true);

      await userEvent.click(screen.getByRole('button', { name: t.again }));
      expect(await screen.findByText(t.waiting)).toBeTruthy();
      latest = approved;
      await userEvent.click(screen.getByRole('button', { name: t.refresh }));
      expect(await screen.findByText(t.approved)).toBeTruthy();
      expect(screen.getByRole('button', { name: t.sign })).toHaveProperty('disabled', false);
      expect(asked).toHaveLength(2);
    },
    20_000,
  );

  it('a sign answered 1330 shows the refusal and the approval step (en-US)', async () => {
    enterRoom('en-US');
    let needsApproval = false;
    server.use(
      serveRoom(companyRoom()),
      noFlowDetail(),
      http.post(`${CSIGN}/getRoomApprovals`, () =>
        ok({ seals: [{ sealId: SEAL_ID, needsApproval, latest: null }] }),
      ),
      http.post(`${CSIGN}/sendSignSmsCode`, () => ok(SMS_SENT)),
      http.post(`${CSIGN}/signDocument`, () => {
        needsApproval = true;
        return fail(1330, 'This seal needs approval before use.');
      }),
    );
    renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm signing' });
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    expect(await screen.findByRole('button', { name: 'Ask for approval' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Confirm signing' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign' })).toHaveProperty('disabled', true);
  }, 20_000);
});

describe('signing link', () => {
  it('logs the party in with phone and SMS code and goes on through the transition (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const logins: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/sendLinkSmsCode`, () => ok({ expiresInSeconds: 300, resendAfterSeconds: 60 })),
      http.post(`${CSIGN}/signingRoomLoginByLinkCode`, async ({ request }) => {
        logins.push(await request.json());
        return ok(ROOM_LOGIN);
      }),
      serveRoom(room()),
    );
    const code = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const { router } = renderApp(`/singingRoom/1/${code}`);
    const phone = await screen.findByLabelText('Phone', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Enter the signing room' }));
    expect(await screen.findByText('Enter an 11-digit mobile number')).toBeTruthy();
    await userEvent.type(phone, '13900000001');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    await userEvent.type(screen.getByLabelText('SMS code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Enter the signing room' }));
    // jsdom's window is 1024 px wide with a desktop user agent: the PC room.
    await waitFor(() => expect(router.state.location.pathname).toBe('/pc/v1/signing_room'));
    expect(router.state.location.search).toBe(`?flowId=${FLOW}&partyId=${PARTY}`);
    expect(logins).toEqual([
      { linkType: 1, linkCode: code, phone: '13900000001', smsCode: '654321', userType: 0 },
    ]);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' })).toBeTruthy();
  });

  it('refuses a malformed link without asking anything (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    renderApp('/singingRoom/7/short');
    expect(await screen.findByText('此签署链接无效。', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByLabelText('手机号')).toBeNull();
  });
});

describe('positions in the room (issue 11 edge 1)', () => {
  const DOC2 = '00000000-0000-4000-8000-0000000000d2';
  const twoDocs = (): SigningRoom => {
    const base = room();
    const first = base.documents[0]!;
    return {
      ...base,
      documents: [first, { ...first, documentId: DOC2, name: 'annex.pdf' }],
      party: {
        ...base.party,
        // stored out of reading order: the room sorts them (document, page, top to bottom)
        positions: [
          { documentId: DOC2, page: 1, rect: [100, 600, 213, 657] },
          { documentId: DOC, page: 1, rect: [100, 100, 213, 157] },
          { documentId: DOC, page: 1, rect: [300, 700, 413, 757] },
        ],
      },
    };
  };

  it.each([
    ['en-US', 'Position 1 of 3', 'Position 2 of 3', 'Position 3 of 3', 'Next position'],
    ['zh-CN', '第 1 个位置，共 3 个', '第 2 个位置，共 3 个', '第 3 个位置，共 3 个', '下一个位置'],
  ] as const)(
    'opens at the first position and walks them with a count (%s)',
    async (locale, p1, p2, p3, next) => {
      enterRoom(locale);
      server.use(serveRoom(twoDocs()));
      renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
      const count = await screen.findByTestId('position-count', {}, { timeout: 5000 });
      expect(count.textContent).toBe(p1);
      expect(await screen.findByRole('region', { name: 'lease.pdf' })).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: next }));
      expect(screen.getByTestId('position-count').textContent).toBe(p2);
      expect(screen.getByRole('region', { name: 'lease.pdf' })).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: next }));
      expect(screen.getByTestId('position-count').textContent).toBe(p3);
      // the third is on the other document: the room switches to it
      expect(await screen.findByRole('region', { name: 'annex.pdf' })).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: next }));
      expect(screen.getByTestId('position-count').textContent).toBe(p1);
      expect(await screen.findByRole('region', { name: 'lease.pdf' })).toBeTruthy();
    },
  );
});

describe('intent check in the room (issue 11)', () => {
  const withIntent = (intent: 'sms' | 'face' | 'password') => {
    const r = room();
    return { ...r, party: { ...r.party, intent } };
  };

  it('asks the signing password, sets it with a code to the room phone, and signs with it (zh-CN, phone)', async () => {
    enterRoom('zh-CN');
    const calls: Call[] = [];
    const record = recordInto(calls);
    server.use(
      serveRoom(withIntent('password')),
      http.post(`${CSIGN}/sendSignSmsCode`, record('sendSignSmsCode', SMS_SENT)),
      http.post(
        `${CSIGN}/setSigningPassword`,
        record('setSigningPassword', { updatedAt: '2026-11-25T00:00:00Z' }),
      ),
      http.post(
        `${CSIGN}/signDocument`,
        record('signDocument', { flowStatus: 'signing', partyStatus: 'signed', documents: [] }),
      ),
      noFlowDetail(),
    );
    const { router } = renderApp(`/h5/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 5000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '签署' }));
    const dialog = await screen.findByRole('dialog', { name: '确认签署' });
    expect(within(dialog).queryByLabelText('验证码')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认签署' }));
    expect(await within(dialog).findByText('请输入签署密码')).toBeTruthy();
    // Set it: the code goes to the room's own phone, with its own purpose.
    await userEvent.click(within(dialog).getByRole('button', { name: '设置或修改签署密码' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '获取验证码' }));
    await userEvent.type(await within(dialog).findByLabelText('验证码'), '654321');
    await userEvent.type(within(dialog).getByLabelText('新签署密码（6 到 32 位）'), 'my-pass-1');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存签署密码' }));
    expect(await within(dialog).findByText(/签署密码已保存/)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('签署密码'), 'my-pass-1');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认签署' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign_confirm'));
    expect(calls).toEqual([
      { name: 'sendSignSmsCode', body: { roomToken: TOKEN, purpose: 'signingPassword', userType: 0 } },
      {
        name: 'setSigningPassword',
        body: { roomToken: TOKEN, smsCode: '654321', password: 'my-pass-1', userType: 0 },
      },
      {
        name: 'signDocument',
        body: {
          roomToken: TOKEN,
          signingPassword: 'my-pass-1',
          personSealId: SEAL_ID,
          userType: 0,
        },
      },
    ]);
  }, 20_000);

  it('face: starts the provider check for this room and shows the refusal while none has passed (en-US, PC)', async () => {
    enterRoom('en-US');
    const started: unknown[] = [];
    const signed: unknown[] = [];
    server.use(
      serveRoom(withIntent('face')),
      http.post(`${CSIGN}/startRoomFaceAuth`, async ({ request }) => {
        started.push(await request.json());
        return fail(1100, 'complete the real-name step first');
      }),
      http.post(`${CSIGN}/signDocument`, async ({ request }) => {
        signed.push(await request.json());
        return fail(1307, 'pass the face check for this signature first');
      }),
      noFlowDetail(),
    );
    renderApp(`/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`);
    expect(await screen.findByRole('heading', { name: 'Lease 2027' }, { timeout: 5000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm signing' });
    expect(within(dialog).getByText(/confirmed by face recognition/)).toBeTruthy();
    expect(within(dialog).queryByLabelText('SMS code')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start face recognition' }));
    expect(await within(dialog).findByText('complete the real-name step first')).toBeTruthy();
    expect(started).toEqual([
      {
        roomToken: TOKEN,
        deviceType: 'pc',
        signUrl: `/pc/v1/signing_room?flowId=${FLOW}&partyId=${PARTY}`,
        userType: 0,
      },
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm signing' }));
    expect(await within(dialog).findByText('pass the face check for this signature first')).toBeTruthy();
    expect(signed).toEqual([{ roomToken: TOKEN, personSealId: SEAL_ID, userType: 0 }]);
  }, 20_000);
});
