// The authorisation letters screen (/manage/account/letters, issue 27): in the menu near the seals; a company's
// letters with kind, seals, uses and state; revoking asks first; the administrator grants seals to another
// company; a grantee company sees who granted a company letter; a person is told letters belong to companies.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Letter } from '#contract/calls/authorisation.ts';
import type { Seal } from '#contract/calls/seal.ts';
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

  it('the grantee company sees a grant it accepted: who granted it, the seals, the period, no revoke (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    letters = [
      {
        ...letter,
        kind: 'company',
        granteeCompanyId: 'c2',
        granteeName: '云签子公司',
        templates: [],
        maxUses: null,
        usedCount: 0,
        acceptedAt: '2026-11-28T11:00:00.000Z',
        isMine: false,
      },
    ];
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c2', companyName: '云签子公司', isAdmin: true }));
    renderApp('/manage/account/letters');
    expect(await screen.findByText('SQ-2026-000007', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.getByText('由云签科技授权')).toBeTruthy();
    expect(screen.getByText('合同专用章')).toBeTruthy();
    expect(screen.getByText(/2027/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: '撤销' })).toBeNull();
  }, 30_000);

  it('the administrator grants seals to another company: its name, the seals, the code (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const issued: Record<string, unknown>[] = [];
    const contractSeal = { id: 's1', name: '合同专用章', sealType: 102, status: 'enabled' } as Seal;
    server.use(
      http.post(`${CSIGN}/getUserCertSealList`, () =>
        ok({ cert: null, seals: [contractSeal], role: 'admin' }),
      ),
      http.post(`${CSIGN}/listTemplates`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 100 })),
      http.post(`${CSIGN}/listApiKeys`, () => ok({ list: [] })),
      http.post(`${CSIGN}/sendLetterSmsCode`, () =>
        ok({ expiresInSeconds: 300, resendAfterSeconds: 60, phoneMasked: '139****0001' }),
      ),
      http.post(`${CSIGN}/issueAuthorisationLetter`, async ({ request }) => {
        issued.push((await request.json()) as Record<string, unknown>);
        return ok({ ...letter, kind: 'company', state: 'pending', number: 'SQ-2026-000008' });
      }),
    );
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', isAdmin: true }));
    renderApp('/manage/account/letters');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Grant seals to another company' }, { timeout: 15000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Grant seals to another company' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and issue' }));
    expect(await within(dialog).findByText('Choose a seal')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '合同专用章' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and issue' }));
    expect(await within(dialog).findByText('Enter the other company’s registered name')).toBeTruthy();
    await userEvent.type(
      within(dialog).getByLabelText('The other company (its registered name)'),
      '云签子公司',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Get code' }));
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and issue' }));
    await waitFor(() => expect(issued).toHaveLength(1));
    expect(issued[0]).toMatchObject({
      kind: 'company',
      sealIds: ['s1'],
      granteeCompanyName: '云签子公司',
      maxUses: null,
      smsCode: '123456',
    });
    expect(within(dialog).queryByLabelText('Most uses')).toBeNull();
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
