import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentInfo } from '#contract/calls/document.ts';
import { toLaunchRequest, useLaunchDraft } from '@/features/document/launch-draft.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, fail, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const doc = (over: Partial<DocumentInfo> = {}): DocumentInfo => ({
  documentId: '00000000-0000-4000-8000-0000000000d1',
  name: 'contract.pdf',
  pages: 2,
  size: 2048,
  sha256: 'a'.repeat(64),
  originalSha256: 'a'.repeat(64),
  pageSizes: [
    { widthPt: 595, heightPt: 842, rotate: 0 },
    { widthPt: 595, heightPt: 842, rotate: 0 },
  ],
  status: 'uploaded',
  verificationCode: null,
  flowId: null,
  signatureCount: 0,
  downloadUrl: '/v1/account/api/csign/downloadDocument/00000000-0000-4000-8000-0000000000d1',
  createdAt: '2026-11-21T00:00:00.000Z',
  ...over,
});

const pdfFile = () => new File(['%PDF-1.7\n'], 'contract.pdf', { type: 'application/pdf' });

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ hasCaCert: true, hasSeal: true }) });
beforeEach(() => {
  useLaunchDraft.getState().begin('regular');
  useLaunchDraft.getState().begin('quick');
});

describe('quick launch', () => {
  it('uploads a PDF, shows the quota and moves on to the signers (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 1, used: 2, remaining: 7 })),
      http.post(`${CSIGN}/uploadDocument`, () => ok(doc())),
    );
    renderApp('/manage/home/quicklyFileUpload');
    expect(await screen.findByText('Signings left: 7 of 10', {}, { timeout: 10_000 })).toBeTruthy();
    // The hint tells what the server really refuses: a password to open, or permissions that forbid signing.
    const hint = screen.getByText(/at most \d+ MB each/).textContent ?? '';
    expect(hint).toMatch(/needs a password to open.*forbid signing.*refused/);
    expect(hint).not.toMatch(/encrypted or damaged files are refused/);
    await userEvent.upload(screen.getByLabelText('Choose a PDF file'), pdfFile());
    expect(await screen.findByText(/contract\.pdf/)).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('contract');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText('Signer phone')).toBeTruthy();
  });

  it('shows the deadline, 7 days away as a date in the user language, and lets the launcher change it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T10:00:00.000Z'));
    try {
      useI18nStore.getState().setLocale('en-US');
      server.use(
        http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })),
        http.post(`${CSIGN}/uploadDocument`, () => ok(doc())),
      );
      renderApp('/manage/home/quicklyFileUpload');
      await userEvent.upload(
        await screen.findByLabelText('Choose a PDF file', {}, { timeout: 10_000 }),
        pdfFile(),
      );
      await screen.findByText(/contract\.pdf/);
      await userEvent.click(screen.getByRole('button', { name: 'Next' }));
      const deadline = (await screen.findByLabelText('Deadline')) as HTMLInputElement;
      expect(deadline.value).toBe('2026-12-06');
      expect(screen.getByTestId('deadline-date').textContent).toBe(
        'Signers have until Dec 6, 2026 (7 days from sending).',
      );
      // Nothing chosen: the request leaves the deadline to the server's 7 days.
      expect(toLaunchRequest(useLaunchDraft.getState().draft).deadline).toBeUndefined();
      fireEvent.change(deadline, { target: { value: '2026-12-20' } });
      expect(screen.getByTestId('deadline-date').textContent).toBe('Signers have until Dec 20, 2026.');
      expect(deadline.value).toBe('2026-12-20');
      // The chosen day runs to its last minute, in the launcher's time zone.
      expect(toLaunchRequest(useLaunchDraft.getState().draft).deadline).toBe(
        new Date(2026, 11, 20, 23, 59).toISOString(),
      );
      act(() => useI18nStore.getState().setLocale('zh-CN'));
      expect(screen.getByTestId('deadline-date').textContent).toBe('签署截止至 2026年12月20日。');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the server refusal of a file and stays on the files step (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })),
      http.post(`${CSIGN}/uploadDocument`, () => fail(1320, '文件已加密，无法处理')),
    );
    renderApp('/manage/home/quicklyFileUpload');
    await userEvent.upload(await screen.findByLabelText('选择 PDF 文件', {}, { timeout: 4000 }), pdfFile());
    expect(screen.getByText(/需要密码才能打开.*禁止签署.*会被拒绝/).textContent).not.toMatch(
      /加密或损坏的文件会被拒绝/,
    );
    expect(await screen.findByText('contract.pdf 被拒绝：文件已加密，无法处理')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByText('请输入标题；请上传 PDF 文件')).toBeTruthy();
    expect(screen.queryByLabelText('签署人手机号')).toBeNull();
  });

  it('says so clearly and refuses to send when no signing is left', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(http.post(`${CSIGN}/getQuota`, () => ok({ total: 3, reserved: 1, used: 2, remaining: 0 })));
    renderApp('/manage/home/quicklyFileUpload');
    expect(
      await screen.findByText(
        'Your signing allowance is used up: no flow can be sent until a package is bought.',
        {},
        { timeout: 4000 },
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('quota')).toBeNull());
  });

  it('finds a signer by full name and chooses one: the phone shows masked and cannot be edited', async () => {
    useI18nStore.getState().setLocale('en-US');
    let asked = '';
    server.use(
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })),
      http.post(`${CSIGN}/uploadDocument`, () => ok(doc())),
      http.post(`${CSIGN}/chooseUserList`, async ({ request }) => {
        asked = ((await request.json()) as { keyword: string }).keyword;
        return ok([
          { userId: '00000000-0000-4000-8000-0000000000a1', name: '韩梅梅', phone: '139****0001' },
          { userId: '00000000-0000-4000-8000-0000000000a2', name: '韩梅梅', phone: '138****0002' },
        ]);
      }),
    );
    renderApp('/manage/home/quicklyFileUpload');
    await userEvent.upload(
      await screen.findByLabelText('Choose a PDF file', {}, { timeout: 10_000 }),
      pdfFile(),
    );
    await screen.findByText(/contract\.pdf/);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.type(await screen.findByLabelText('Signer name'), '韩梅梅');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    const choices = await screen.findByRole('group', { name: 'Choose who signs' });
    expect(asked).toBe('韩梅梅');
    await userEvent.click(within(choices).getByRole('button', { name: '韩梅梅 138****0002' }));
    const phone = screen.getByLabelText('Signer phone') as HTMLInputElement;
    expect(phone.value).toBe('138****0002');
    expect(phone.readOnly).toBe(true);
    expect(useLaunchDraft.getState().draft.steps[0].parties[0].picked?.userId).toBe(
      '00000000-0000-4000-8000-0000000000a2',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect((screen.getByLabelText('Signer phone') as HTMLInputElement).readOnly).toBe(false);
  });
  it('chooses the intent check per party: SMS code by default, then face or signing password (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })),
      http.post(`${CSIGN}/uploadDocument`, () => ok(doc())),
    );
    renderApp('/manage/home/quicklyFileUpload');
    await userEvent.upload(await screen.findByLabelText('选择 PDF 文件', {}, { timeout: 10_000 }), pdfFile());
    await screen.findByText(/contract\.pdf/);
    await userEvent.click(screen.getByRole('button', { name: /下一步/ }));
    const select = await screen.findByRole('combobox', { name: '签署意愿认证' });
    // The default is said on screen, and is what the draft sends.
    expect(screen.getByTitle('短信验证码')).toBeTruthy();
    expect(useLaunchDraft.getState().draft.steps[0].parties[0].intent ?? 'sms').toBe('sms');
    await userEvent.click(select);
    // antd lists its options by title (the visible row), in both languages' labels.
    await userEvent.click(await screen.findByTitle('签署密码'));
    await waitFor(() => expect(useLaunchDraft.getState().draft.steps[0].parties[0].intent).toBe('password'));
    await userEvent.click(select);
    await userEvent.click(await screen.findByTitle('人脸识别'));
    await waitFor(() => expect(useLaunchDraft.getState().draft.steps[0].parties[0].intent).toBe('face'));
  }, 20_000);
});

describe('regular launch', () => {
  it('chooses automatic reminders every N days; the draft sends them (zh-CN, then en-US)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    useLaunchDraft.getState().begin('regular');
    server.use(
      http.post(`${CSIGN}/getQuota`, () => ok({ total: 10, reserved: 0, used: 0, remaining: 10 })),
      http.post(`${CSIGN}/uploadDocument`, () => ok(doc())),
    );
    renderApp('/manage/home/fileUpload');
    await userEvent.upload(
      await screen.findByLabelText('选择 PDF 文件（可多选）', {}, { timeout: 10_000 }),
      pdfFile(),
    );
    await screen.findByText(/contract\.pdf/);
    await userEvent.click(screen.getByRole('button', { name: /下一步/ }));
    const select = await screen.findByRole('combobox', { name: '自动提醒' });
    expect(screen.getByTitle('不提醒')).toBeTruthy();
    expect(useLaunchDraft.getState().draft.remindEveryDays ?? null).toBeNull();
    await userEvent.click(select);
    await userEvent.click(await screen.findByTitle('每 3 天'));
    await waitFor(() => expect(useLaunchDraft.getState().draft.remindEveryDays).toBe(3));
    useI18nStore.getState().setLocale('en-US');
    expect(await screen.findByTitle('Every 3 days')).toBeTruthy();
    expect(screen.getByText('Automatic reminders')).toBeTruthy();
  }, 20_000);
});
