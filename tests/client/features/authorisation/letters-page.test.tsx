// The authorisation letters screen (/manage/account/letters, issue 27): in the menu near the seals; a company's
// letters with kind, seals, uses and state; revoking asks first; a person is told letters belong to companies.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Letter } from '#contract/calls/authorisation.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const letter: Letter = {
  letterId: '00000000-0000-4000-8000-0000000000a1',
  number: 'SQ-2026-000007',
  kind: 'auto_sign',
  companyId: 'c1',
  companyName: '云签科技',
  granteeUserId: null,
  granteeCompanyId: null,
  granteeName: null,
  seals: [{ sealId: 's1', name: '合同专用章', imageUrl: '/v1/seal/image/s1.png' }],
  purpose: '',
  templates: [{ templateId: 't1', name: '买卖合同模板' }],
  apiKeys: [],
  validFrom: '2026-11-28T10:00:00.000Z',
  validTo: '2027-11-28T10:00:00.000Z',
  maxUses: 5,
  usedCount: 2,
  state: 'active',
  issuedByName: '张三',
  createdAt: '2026-11-28T10:00:00.000Z',
  acceptedAt: null,
  revokedAt: null,
  revokedByName: null,
  revokeReason: null,
  pdfSha256: 'ab'.repeat(32),
  pdfUrl: '/v1/account/api/csign/authorisationLetterPdf/00000000-0000-4000-8000-0000000000a1',
  isMine: true,
};

let letters: Letter[];
let revoked: unknown[];

freshClientEachTest({ token: 't1' });
beforeEach(() => {
  letters = [letter];
  revoked = [];
  server.use(
    http.post(`${CSIGN}/listAuthorisationLetters`, () =>
      ok({ list: letters, total: letters.length, pageNum: 1, pageSize: 100 }),
    ),
    http.post(`${CSIGN}/revokeAuthorisationLetter`, async ({ request }) => {
      revoked.push(await request.json());
      letters = letters.map((l) => ({ ...l, state: 'revoked' as const }));
      return ok(letters[0]);
    }),
  );
});

describe('the authorisation letters screen', () => {
  it('lists a company’s letter (kind, seal, template, uses, state); revoking asks first (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', isAdmin: true }));
    renderApp('/manage/account/letters');
    expect(await screen.findByText('SQ-2026-000007', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Authorisation letters' })).toBeTruthy();
    expect(screen.getAllByText('Automatic signing').length).toBeGreaterThan(0);
    expect(screen.getByText(/买卖合同模板/)).toBeTruthy();
    expect(screen.getByText('2 of 5')).toBeTruthy();
    expect(screen.getByText('In force')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(/the next contract waits for a person/)).toBeTruthy();
    expect(revoked).toHaveLength(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Revoke' }).at(-1)!);
    await waitFor(() => expect(revoked).toEqual([{ userType: 1, letterId: letter.letterId, reason: '' }]));
    expect(await screen.findByText('Revoked')).toBeTruthy();
  }, 30_000);

  it('the legal representative, not the administrator, may issue and revoke; a handler only reads (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    loginInfoHandler(
      loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', isAdmin: false, isLegalRep: true }),
    );
    const first = renderApp('/manage/account/letters');
    expect(await screen.findByText('SQ-2026-000007', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '授权自动签署' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销' })).toBeTruthy();
    first.unmount();
    loginInfoHandler(
      loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', roles: ['handler'] }),
    );
    renderApp('/manage/account/letters');
    expect(await screen.findByText('SQ-2026-000007', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '授权自动签署' })).toBeNull();
    expect(screen.queryByRole('button', { name: '撤销' })).toBeNull();
  }, 30_000);

  it('a person is told that letters belong to companies (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    loginInfoHandler(loginInfo());
    renderApp('/manage/account/letters');
    expect(await screen.findByText(/授权书属于企业账户/, {}, { timeout: 15000 })).toBeTruthy();
  }, 30_000);
});
