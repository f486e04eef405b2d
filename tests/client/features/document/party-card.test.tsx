// The company signer's operator (issue 23, M1): chooseUserOperatorList answers a company's administrators only,
// so the launch screen offers "Find" to the administrator of the session company, and everyone else (an
// operator, or a launcher naming another company) types the operator's full phone.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { companyParty, type DraftParty, newParty } from '@/features/document/launch-draft.ts';
import { PartyCard } from '@/features/document/party-card.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { setNotifier } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';

const COMPANY_ID = '00000000-0000-4000-8000-0000000000c1';

function Harness({ initial }: { initial: DraftParty }) {
  const [party, setParty] = useState(initial);
  return (
    <AntdProvider>
      <PartyCard party={party} index={0} issues={[]} showIssues={false} onChange={setParty} />
    </AntdProvider>
  );
}

/** Signs in as a company session (administrator or operator) and answers the readiness look-ups. */
function actAsCompany(isAdmin: boolean) {
  const me = loginInfo({ userType: 1, companyId: COMPANY_ID, companyName: '测试有限公司', isAdmin });
  useSessionStore.setState({ userInfo: me, loginState: 11 });
  server.use(http.post(`${CSIGN}/getSignerReadiness`, () => ok({ signers: [] })));
  return companyParty(me);
}

beforeEach(() => {
  useI18nStore.getState().setLocale('en-US');
  setNotifier({ error: () => {}, success: () => {} });
});

describe('the operator of a company signer', () => {
  it("the session company's administrator finds members by full phone or name, and picks one", async () => {
    const asked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/chooseUserOperatorList`, async ({ request }) => {
        asked.push(await request.json());
        return ok([{ userId: 'u9', name: '李经办', phone: '139****0009', role: 'operator' }]);
      }),
    );
    render(<Harness initial={actAsCompany(true)} />);
    await userEvent.type(screen.getByLabelText('Operator name'), '李');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    const choices = await screen.findByRole('group', { name: 'Choose who signs' });
    // Its own company (no companyId: the session's), by the typed name.
    expect(asked).toEqual([expect.objectContaining({ keyword: '李' })]);
    expect(asked[0]).not.toHaveProperty('companyId');
    await userEvent.click(within(choices).getByRole('button', { name: '李经办 139****0009' }));
    expect((screen.getByLabelText('Operator phone') as HTMLInputElement).value).toBe('139****0009');
  });

  it('says so when no member matches', async () => {
    server.use(http.post(`${CSIGN}/chooseUserOperatorList`, () => ok([])));
    render(<Harness initial={actAsCompany(true)} />);
    await userEvent.type(screen.getByLabelText('Operator phone'), '13900000009');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('No active member of your company matches.')).toBeTruthy();
  });

  it('an operator of the company is not offered the picker: the full phone is typed', async () => {
    render(<Harness initial={actAsCompany(false)} />);
    expect(screen.queryByRole('button', { name: 'Find' })).toBeNull();
    const phone = screen.getByLabelText('Operator phone') as HTMLInputElement;
    expect(phone.placeholder).toBe('the full phone number');
    await userEvent.type(phone, '13900000009');
    expect(phone.value).toBe('13900000009');
  });

  it('another company: no picker even for an administrator, the full phone is typed (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const own = actAsCompany(true);
    render(<Harness initial={{ ...own, companyMode: 'other', companyId: undefined, companyName: '' }} />);
    expect(screen.queryByRole('button', { name: '查找' })).toBeNull();
    expect((screen.getByLabelText('经办人手机号') as HTMLInputElement).placeholder).toBe('完整手机号');
  });

  it('a person signer keeps its picker (full phone or full name)', async () => {
    useSessionStore.setState({ userInfo: loginInfo(), loginState: 11 });
    render(<Harness initial={newParty('person')} />);
    expect(screen.getByRole('button', { name: 'Find' })).toBeTruthy();
  });
});
