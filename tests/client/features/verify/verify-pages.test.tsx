import { createHash } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformDocument, SignatureCard, VerifyResult } from '#contract/calls/verify.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { setNotifier } from '@/lib/notify.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useVerifyStore } from '@/features/verify/verify-store.ts';
import { CSIGN, fail, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';

// pdf.js cannot start its worker under jsdom: the document view is laid out from the report's page sizes.
vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const card = (over: Partial<SignatureCard> = {}): SignatureCard => ({
  index: 1,
  field: 'party-1',
  kind: 'approval',
  status: 'valid',
  signer: { name: '李四', organisation: null, serial: '01' },
  signedAt: '2026-11-01T08:00:00.000Z',
  timestamp: { time: '2026-11-01T08:00:01.000Z', authority: 'e-Sign TSA', valid: true },
  intact: true,
  cryptoValid: true,
  coverage: 'ENTIRE_REVISION',
  modifiedAfterSigning: 'allowed',
  trusted: true,
  trustSource: 'platform',
  revocation: 'good',
  indication: 'TOTAL_PASSED',
  subIndication: null,
  trustAside: { indication: 'TOTAL_PASSED', subIndication: null },
  docMdp: null,
  subFilter: 'ETSI.CAdES.detached',
  chain: [
    { subject: '李四', issuer: 'Issuing CA', serial: '01', notBefore: '2026-01-01', notAfter: '2027-01-01' },
    {
      subject: 'Issuing CA',
      issuer: 'Root CA',
      serial: '02',
      notBefore: '2026-01-01',
      notAfter: '2036-01-01',
    },
    { subject: 'Root CA', issuer: 'Root CA', serial: '03', notBefore: '2026-01-01', notAfter: '2046-01-01' },
  ],
  reasons: ['MODIFIED_ALLOWED'],
  details: [],
  changes: ['revision 3: document time-stamp added'],
  widgets: [{ page: 1, rect: [100, 100, 200, 150] }],
  changedRegions: [],
  warnings: [],
  filledFields: [],
  ...over,
});

const result = (over: Partial<VerifyResult> = {}): VerifyResult => ({
  reportId: '11111111-2222-4333-8444-555555555555',
  expiresAt: '2026-11-01T09:00:00.000Z',
  source: 'platform',
  file: {
    name: '租赁合同.pdf',
    size: 12345,
    sha256: 'ab'.repeat(32),
    pages: [{ widthPt: 595, heightPt: 842, rotate: 0 }],
  },
  verifiedAt: '2026-11-01T08:00:00.000Z',
  status: 'valid',
  verdict: 'TOTAL_PASSED',
  subIndication: null,
  trustAside: { verdict: 'TOTAL_PASSED', subIndication: null },
  revisions: 3,
  signatures: [card()],
  ...over,
});

/** An upload whose one signature was followed by changes that are not allowed. */
const modifiedResult = (cardOver: Partial<SignatureCard> = {}, over: Partial<VerifyResult> = {}) =>
  result({
    source: 'upload',
    status: 'modified',
    verdict: 'TOTAL_FAILED',
    signatures: [
      card({
        status: 'modified',
        modifiedAfterSigning: 'disallowed',
        reasons: ['MODIFIED_DISALLOWED'],
        indication: 'TOTAL_FAILED',
        ...cardOver,
      }),
    ],
    ...over,
  });

const document: PlatformDocument = {
  verificationCode: 'ABCD-EFGH-JKLM-NPQR',
  documentName: '租赁合同.pdf',
  flowTitle: '租赁合同 Lease',
  flowStatus: 'completed',
  launchedAt: '2026-11-01T07:00:00.000Z',
  completedAt: '2026-11-01T08:00:00.000Z',
};

beforeEach(() => {
  usePlatformStore.getState().setCode('BCP_STFWPT');
  useVerifyStore.getState().clear();
  setNotifier({ error: () => {}, success: () => {} });
});

describe('/verify/<code> (opened from the QR code of a platform document)', () => {
  it('shows the verification at once, and its views keep the same verification without verifying again', async () => {
    useI18nStore.getState().setLocale('en-US');
    const asked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/verifyByCode`, async ({ request }) => {
        asked.push(await request.json());
        return ok({ document, result: result() });
      }),
    );
    const { router } = renderApp('/verify/ABCD-EFGH-JKLM-NPQR');
    const banner = await screen.findByRole('status', { name: 'Verification result' }, { timeout: 10_000 });
    expect(banner.textContent).toContain('Signed and all signatures are valid');
    expect(screen.getByText('租赁合同 Lease')).toBeTruthy();
    const sig = screen.getByRole('article', { name: 'Signature 1' });
    expect(within(sig).getByText('Signature is valid')).toBeTruthy();
    expect(within(sig).getByText('Trusted: chains to the platform root')).toBeTruthy();
    expect(within(sig).getByText('e-Sign TSA')).toBeTruthy();
    expect(asked).toEqual([{ code: 'ABCD-EFGH-JKLM-NPQR', userType: 0 }]);

    await userEvent.click(screen.getByRole('tab', { name: 'Certificate chains' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify/chain'));
    expect(router.state.location.search).toBe('?code=ABCD-EFGH-JKLM-NPQR');
    const tree = await screen.findByRole('tree', { name: 'Certificate chain' });
    // The root at the top, the signer last.
    const titles = within(tree)
      .getAllByText(/^(Root CA|Issuing CA|李四)$/)
      .map((e) => e.textContent);
    expect(titles).toEqual(['Root CA', 'Issuing CA', '李四']);
    expect(asked).toHaveLength(1);
  }, 30_000);

  it('says so for an unknown code, in Chinese', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(http.post(`${CSIGN}/verifyByCode`, () => ok(null)));
    renderApp('/verify/ZZZZ-ZZZZ');
    expect(await screen.findByText('没有验证码为 ZZZZ-ZZZZ 的文件。', {}, { timeout: 10_000 })).toBeTruthy();
  }, 30_000);

  it('a typed code opens its verification', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(http.post(`${CSIGN}/verifyByCode`, () => ok({ document, result: result() })));
    const { router } = renderApp('/verify');
    await userEvent.type(
      await screen.findByLabelText('Verification code', {}, { timeout: 10_000 }),
      ' abcd-efgh ',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify/abcd-efgh'));
  }, 30_000);
});

describe('/check', () => {
  it('an encrypted upload gets the clear message', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(http.post(`${CSIGN}/checkPdf`, () => fail(1904, 'server words')));
    renderApp('/check');
    const input = await screen.findByLabelText('Choose a PDF to verify', {}, { timeout: 10_000 });
    await userEvent.upload(
      input,
      new File(['%PDF-1.7 encrypted'], 'secret.pdf', { type: 'application/pdf' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The PDF is encrypted with a password it needs to open; it cannot be verified (encrypted files that open without one are).',
    );
  }, 30_000);

  it('a modified upload shows why, and the route then names the kept report', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const modified = modifiedResult({ trusted: false, trustSource: null });
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(modified)));
    const { router } = renderApp('/check');
    const input = await screen.findByLabelText('选择要验证的 PDF', {}, { timeout: 10_000 });
    await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
    const sig = await screen.findByRole('article', { name: '签名 1' });
    expect(within(sig).getByText('签名后文件被修改')).toBeTruthy();
    expect(within(sig).getByText('签名后进行了不允许的修改。')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/check/${modified.reportId}`));
    expect(screen.getByRole('link', { name: '下载报告（PDF）' }).getAttribute('href')).toContain(
      `/downloadVerifyReport/${modified.reportId}.pdf`,
    );
  }, 30_000);

  it('a page changed after signing: the card says where in words, the document draws it as a red box', async () => {
    useI18nStore.getState().setLocale('en-US');
    const bytes = '%PDF-1.7 signed, then a field filled over the signed words';
    const region = { page: 1, rect: [70.4, 295, 449.6, 313], what: 'covered' } as const;
    const modified = modifiedResult(
      { changedRegions: [{ ...region, rect: [...region.rect] }] },
      { file: { ...result().file, sha256: createHash('sha256').update(bytes).digest('hex') } },
    );
    server.use(http.post(`${CSIGN}/getVerifyReport`, () => ok({ document: null, result: modified })));
    const { router } = renderApp(`/check/${modified.reportId}`);
    const sig = await screen.findByRole('article', { name: 'Signature 1' }, { timeout: 10_000 });
    const where = within(sig).getByRole('region', { name: 'Where a page changed after signing' });
    expect(where.textContent).toContain(
      'Page 1: a form field now covers text that was signed (region x 70–450, y 295–313 pt).',
    );
    useI18nStore.getState().setLocale('zh-CN');
    await waitFor(() =>
      expect(where.textContent).toContain(
        '第 1 页：表单域现在遮盖了签署时的文字（区域 x 70–450，y 295–313 点）。',
      ),
    );
    useI18nStore.getState().setLocale('en-US');
    await waitFor(() => expect(where.textContent).toContain('Page 1: a form field'));

    // "Show" opens the document (the kept report has no file: the reader chooses it again) with the region
    // drawn on page 1, over the field's place.
    await userEvent.click(within(where).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/check/checkPdf'));
    await userEvent.upload(
      await screen.findByLabelText('Show my copy of the file'),
      new File([bytes], 'a.pdf', { type: 'application/pdf' }),
    );
    const box = await screen.findByRole('button', { name: 'Changed after signing, page 1' });
    expect(box.textContent).toBe('Changed after signing');
    expect(box.closest('.pdf-page')?.getAttribute('data-page')).toBe('1');
    // the box is where the region is: below the top of the page by (842 − 313) pt, as wide as 379.2 pt
    const page = box.closest<HTMLElement>('.pdf-page');
    const scale = Number.parseFloat(page?.style.width ?? '0') / 595;
    expect(scale).toBeGreaterThan(0);
    expect(Number.parseFloat(box.style.top)).toBeCloseTo((842 - 313) * scale, 0);
    expect(Number.parseFloat(box.style.width)).toBeCloseTo(379.2 * scale, 0);
  }, 30_000);

  it('a tampered upload (the digest fails) says only that: nothing about later changes or trust', async () => {
    useI18nStore.getState().setLocale('en-US');
    const broken = { status: 'invalid', intact: false, indication: 'TOTAL_FAILED' } as const;
    const tampered = result({
      source: 'upload',
      status: 'invalid',
      verdict: 'TOTAL_FAILED',
      signatures: [
        // as the report said it before: the verifier's view of later revisions and of the chain kept
        card({ ...broken, reasons: ['HASH_MISMATCH', 'MODIFIED_ALLOWED'] }),
        // as the report says it now
        card({
          ...broken,
          index: 2,
          modifiedAfterSigning: 'unknown',
          trusted: null,
          trustSource: null,
          reasons: ['HASH_MISMATCH'],
        }),
      ],
    });
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(tampered)));
    renderApp('/check');
    const input = await screen.findByLabelText('Choose a PDF to verify', {}, { timeout: 10_000 });
    await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
    for (const n of [1, 2]) {
      const sig = await screen.findByRole('article', { name: `Signature ${n}` });
      const text = sig.textContent ?? '';
      expect(within(sig).getByText('Signature is invalid')).toBeTruthy();
      expect(text).toContain('The signed content has been changed (the digest does not match).');
      expect(text).not.toContain('Only allowed changes followed');
      expect(text).not.toContain('Allowed changes only');
      expect(text).not.toMatch(/Trusted|Not trusted/);
      expect(within(sig).getByText('Not known: the signed content itself was changed')).toBeTruthy();
      expect(within(sig).getByText('Not assessed: the signature does not hold')).toBeTruthy();
    }
  }, 30_000);

  it('a revoked certificate shows when it was revoked, and why nothing can be proven without a time-stamp', async () => {
    useI18nStore.getState().setLocale('en-US');
    const revoked = result({
      source: 'upload',
      status: 'indeterminate',
      verdict: 'INDETERMINATE',
      signatures: [
        card({
          status: 'indeterminate',
          revocation: 'revoked',
          revokedAt: '2026-10-02T03:04:00.000Z',
          reasons: ['REVOKED'],
          indication: 'INDETERMINATE',
          subIndication: 'REVOKED_NO_POE',
          timestamp: null,
        }),
      ],
    });
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(revoked)));
    renderApp('/check');
    const input = await screen.findByLabelText('Choose a PDF to verify', {}, { timeout: 10_000 });
    await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
    const sig = await screen.findByRole('article', { name: 'Signature 1' });
    const when = new Date('2026-10-02T03:04:00.000Z').toLocaleString('en-US', {
      year: 'numeric',
    });
    expect(within(sig).getByText(/^Revoked on /).textContent).toContain(when);
    expect(within(sig).getByRole('note').textContent).toMatch(
      /No time-stamp proves the signature was made before/,
    );
  }, 30_000);

  it('the verdict is in plain words; the ETSI code only inside the technical details (both languages)', async () => {
    const attacked = modifiedResult(
      {
        subIndication: 'FORMAT_FAILURE',
        trustAside: { indication: 'TOTAL_FAILED', subIndication: 'FORMAT_FAILURE' },
        changes: [],
        details: [],
      },
      { subIndication: 'FORMAT_FAILURE' },
    );
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(attacked)));
    for (const [locale, label, words, advice, technical] of [
      [
        'en-US',
        'Choose a PDF to verify',
        'The document has been altered or corrupted since it was signed',
        /not what was signed/,
        'Technical details',
      ],
      ['zh-CN', '选择要验证的 PDF', '文件在签名后已被修改或损坏', /并非签署时的内容/, '技术细节'],
    ] as const) {
      useI18nStore.getState().setLocale(locale);
      const { unmount } = renderApp('/check');
      const input = await screen.findByLabelText(label, {}, { timeout: 10_000 });
      await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
      const banner = await screen.findByRole('status', {
        name: locale === 'en-US' ? 'Verification result' : '验证结果',
      });
      expect(within(banner).getByText(words)).toBeTruthy();
      expect(within(banner).getByText(advice)).toBeTruthy();
      // every mention of the ETSI code sits inside a collapsed technical-details element
      const codes = screen.getAllByText(/TOTAL_FAILED/);
      expect(codes.length).toBeGreaterThanOrEqual(2);
      for (const el of codes) {
        const details = el.closest('details');
        expect(details, el.textContent ?? '').not.toBeNull();
        expect(details?.open).toBe(false);
        expect(within(details as HTMLElement).getByText(technical)).toBeTruthy();
      }
      unmount();
    }
  }, 60_000);

  it("a valid signature's warnings (odd, not against it) are listed in its technical details", async () => {
    useI18nStore.getState().setLocale('en-US');
    const warned = result({
      signatures: [
        card({ warnings: ['an unsigned attribute of the signature could not be read: left out'] }),
      ],
    });
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(warned)));
    renderApp('/check');
    const input = await screen.findByLabelText('Choose a PDF to verify', {}, { timeout: 10_000 });
    await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
    const sig = await screen.findByRole('article', { name: 'Signature 1' });
    const warning = within(sig).getByText(/an unsigned attribute of the signature could not be read/);
    expect(warning.closest('details')).not.toBeNull();
  }, 30_000);

  it('each signature lists the fields it filled, label = value, in both languages', async () => {
    useI18nStore.getState().setLocale('en-US');
    const filled = result({
      signatures: [
        card({
          filledFields: [
            { name: 'f1', label: '姓名', value: '张三丰', checkbox: false },
            { name: 'f2', label: 'I have read the terms', value: 'Yes', checkbox: true },
          ],
        }),
        card({ index: 2, field: 'party-2' }),
      ],
    });
    server.use(http.post(`${CSIGN}/checkPdf`, () => ok(filled)));
    renderApp('/check');
    const input = await screen.findByLabelText('Choose a PDF to verify', {}, { timeout: 10_000 });
    await userEvent.upload(input, new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' }));
    const sig = await screen.findByRole('article', { name: 'Signature 1' });
    const list = within(sig).getByRole('region', { name: 'Fields filled with this signature' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '姓名 = 张三丰',
      'I have read the terms = ticked',
    ]);
    // a signature that filled nothing shows no such list
    const second = screen.getByRole('article', { name: 'Signature 2' });
    expect(within(second).queryByRole('region', { name: 'Fields filled with this signature' })).toBeNull();
    useI18nStore.getState().setLocale('zh-CN');
    const zh = await within(await screen.findByRole('article', { name: '签名 1' })).findByRole('region', {
      name: '本签名填写的字段',
    });
    expect(zh.textContent).toContain('I have read the terms = 已勾选');
  }, 30_000);

  it('an expired report says so', async () => {
    useI18nStore.getState().setLocale('en-US');
    server.use(http.post(`${CSIGN}/getVerifyReport`, () => ok(null)));
    renderApp('/check/11111111-2222-4333-8444-555555555555');
    expect(await screen.findByText(/This report no longer exists/, {}, { timeout: 10_000 })).toBeTruthy();
  }, 30_000);
});
