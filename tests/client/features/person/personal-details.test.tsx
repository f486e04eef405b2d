import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest();
beforeEach(() => {
  // The page's cards below the details, not looked at here.
  server.use(
    http.post(`${CSIGN}/getSigningPassword`, () => ok({ isSet: false, updatedAt: null, lockedUntil: null })),
    http.post(`${CSIGN}/getNoticeEmail`, () => ok({ email: null, lang: 'zh', isMailConfigured: false })),
  );
});

describe('personal details', () => {
  it("lists the identity checks with the provider's request ids (zh-CN)", async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo({ userType: 0, name: '李四' }));
    server.use(
      http.post(`${CSIGN}/getPersonalDetails`, () =>
        ok({
          name: '李四',
          idNumberMasked: '110105********1234',
          phoneMasked: '138****5678',
          verifiedAt: '2026-03-01T08:00:00.000Z',
          faceVerifiedAt: '2026-03-01T08:10:00.000Z',
          agreementVersion: null,
          agreementAcceptedAt: null,
          certificate: null,
          verificationRecords: [
            {
              kind: 'identity',
              provider: 'tencent',
              requestId: 'req-3f-1',
              outcome: 'passed',
              at: '2026-03-01T08:00:00.000Z',
            },
            {
              kind: 'face',
              provider: 'tencent',
              requestId: 'req-face-2',
              outcome: 'failed',
              at: '2026-03-01T08:05:00.000Z',
            },
          ],
        }),
      ),
      http.post(`${CSIGN}/getPersonCaCert`, () => ok(null)),
    );
    renderApp('/personalDetails');
    const list = await screen.findByTestId('verification-records', {}, { timeout: 10_000 });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/姓名、身份证号与手机号 · 通过 · tencent（请求编号 req-3f-1）$/);
    expect(items[1]).toMatch(/人脸识别 · 未通过 · tencent（请求编号 req-face-2）$/);
  }, 30_000);
});
