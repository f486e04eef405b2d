import { describe, expect, it } from 'vitest';
import {
  type DraftParty,
  emptyDraft,
  myselfParty,
  newParty,
  toLaunchRequest,
} from '@/features/document/launch-draft.ts';
import { readinessQuery } from '@/features/document/readiness.tsx';
import { documentInfo } from '../../fixtures/data.ts';

const D1 = '00000000-0000-4000-8000-000000000001';
const ME = '00000000-0000-4000-8000-0000000000aa';
const CO = '00000000-0000-4000-8000-0000000000cc';

const me = (over: object = {}) => ({
  userId: ME,
  userType: 0,
  phone: '13912345678',
  name: '王芳',
  companyId: null,
  companyName: null,
  ...over,
});

const launchOf = (party: DraftParty) =>
  toLaunchRequest({
    ...emptyDraft('quick'),
    title: 'Contract',
    documents: [documentInfo({ documentId: D1, name: 'c.pdf', size: 1 })],
    steps: [{ key: 's', parties: [party] }],
    placements: { [party.key]: { [D1]: { page: 1, rect: [100, 100, 200, 150] } } },
  }).steps[0].parties[0];

describe('"Add myself"', () => {
  it('adds the person by id with the masked phone and the verified name', () => {
    const p = myselfParty(me());
    expect(p).toMatchObject({
      kind: 'person',
      name: '王芳',
      phone: '',
      picked: { userId: ME, phoneMasked: '139****5678' },
    });
    expect(launchOf(p)).toMatchObject({ kind: 'person', userId: ME, name: '王芳' });
  });

  it('acting for a company, adds the own company with me as the handler', () => {
    const p = myselfParty(me({ userType: 1, companyId: CO, companyName: '杭州云签科技有限公司' }));
    expect(p).toMatchObject({ kind: 'company', companyMode: 'own', companyId: CO });
    expect(launchOf(p)).toMatchObject({ kind: 'company', companyId: CO, operatorUserId: ME });
  });
});

describe('readiness and invitations', () => {
  it('asks about a typed full phone or a chosen user, with the company and its seals when there is one', () => {
    expect(readinessQuery({ ...newParty('person'), phone: '1391234' })).toBeNull();
    expect(readinessQuery({ ...newParty('person'), phone: '13912345678' })).toEqual({ phone: '13912345678' });
    expect(readinessQuery(myselfParty(me()))).toEqual({ userId: ME });
    const other: DraftParty = {
      ...newParty('company'),
      companyMode: 'other',
      companyName: ' 未开通有限公司 ',
      phone: '13912345678',
    };
    // A company party is asked about with the seals it applies (readiness checks the signer may use them).
    expect(readinessQuery(other)).toEqual({
      phone: '13912345678',
      companyName: '未开通有限公司',
      companySealType: 102,
      anyCompanySeal: true,
      legalPersonSeal: false,
    });
  });

  it('sends inviteToOpen only for another company the launcher invited', () => {
    const other: DraftParty = {
      ...newParty('company'),
      companyMode: 'other',
      companyName: '未开通有限公司',
      phone: '13912345678',
    };
    expect(launchOf(other)).not.toHaveProperty('inviteToOpen');
    expect(launchOf({ ...other, inviteToOpen: true })).toMatchObject({ inviteToOpen: true });
  });
});
