// Quick launch as the administrator of a company that has only its official seal: the company party must not
// default to a contract seal the company lacks. The seal type defaults to one the signer may use (as readiness
// answers it), the signer may choose among their seals unless the launcher insists on the type, and the
// readiness line says "Ready to sign" only when the seal the party needs is there.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { type DraftParty, myselfParty } from '@/features/document/launch-draft.ts';
import { PartyCard } from '@/features/document/party-card.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { freshClientEachTest } from '../../fixtures/state.ts';

const COMPANY_ID = '00000000-0000-4000-8000-0000000000c1';
const ME = '00000000-0000-4000-8000-0000000000aa';

let current: DraftParty;
function Harness({ initial }: { initial: DraftParty }) {
  const [party, setParty] = useState(initial);
  current = party;
  return (
    <AntdProvider>
      <PartyCard party={party} index={0} issues={[]} showIssues={false} onChange={setParty} />
    </AntdProvider>
  );
}

type Asked = { companySealType?: number | null; anyCompanySeal?: boolean };

/** The server's readiness for a company that has only its official seal (type 1), all else ready. */
function onlyOfficialSeal(asked: Asked[]) {
  server.use(
    http.post(`${CSIGN}/getSignerReadiness`, async ({ request }) => {
      const [s] = ((await request.json()) as { signers: Asked[] }).signers;
      asked.push(s);
      const hasNeededSeal = s.anyCompanySeal === true || s.companySealType === 1;
      return ok({
        signers: [
          {
            hasAccount: true,
            isRealNameDone: true,
            hasCertificate: true,
            isCompanyOpen: true,
            sealTypes: [1],
            hasNeededSeal,
          },
        ],
      });
    }),
  );
}

freshClientEachTest();
beforeEach(() => {
  const me = loginInfo({
    userId: ME,
    userType: 1,
    companyId: COMPANY_ID,
    companyName: '测试有限公司',
    isAdmin: true,
  });
  useSessionStore.setState({ userInfo: me, loginState: 11 });
});

describe('the company seal of a company party', () => {
  it.each([
    [
      'en-US',
      'Official seal',
      'Contract seal',
      'Ready to sign.',
      'Only this seal type',
      /No usable Contract seal/,
    ],
    ['zh-CN', '公章', '合同专用章', '可直接签署。', '只允许此类印章', /没有可用的合同专用章/],
  ] as const)(
    'defaults to a seal the company has and checks it (%s)',
    async (locale, official, contract, ready, only, missing) => {
      useI18nStore.getState().setLocale(locale);
      const asked: Asked[] = [];
      onlyOfficialSeal(asked);
      const me = useSessionStore.getState().userInfo!;
      render(<Harness initial={myselfParty({ ...me, name: '王芳', phone: '13912345678' })} />);
      // The type the company has, not a contract seal it lacks; the signer may still choose among theirs.
      await waitFor(() => expect(current.applies.companySealType).toBe(1));
      expect(current.applies.anyCompanySeal).toBe(true);
      expect(await screen.findByTitle(official)).toBeTruthy();
      expect((await screen.findByTestId('signer-readiness')).textContent).toContain(ready);
      // Readiness was asked about the seal the party needs.
      expect(asked.at(-1)).toMatchObject({ companySealType: 1, anyCompanySeal: true });
      // The launcher insists on a contract seal: readiness says it is missing, not ready.
      await userEvent.click(screen.getByRole('checkbox', { name: only }));
      await userEvent.click(
        screen.getByRole('combobox', { name: locale === 'en-US' ? 'Company seal' : '企业印章' }),
      );
      await userEvent.click(await screen.findByTitle(contract));
      await waitFor(() =>
        expect(current.applies).toMatchObject({ companySealType: 102, anyCompanySeal: false }),
      );
      await waitFor(() => expect(screen.getByTestId('signer-readiness').textContent).toMatch(missing));
      expect(screen.getByTestId('signer-readiness').textContent).not.toContain(ready);
      // The launcher's choice stays: readiness does not put the default back.
      expect(current.applies.companySealType).toBe(102);
    },
    20_000,
  );
});
