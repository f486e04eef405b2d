import { describe, expect, it } from 'vitest';
import type { DocumentInfo } from '#contract/calls/document.ts';
import {
  boxSizeMm,
  type DraftParty,
  draftIssues,
  emptyDraft,
  type LaunchDraft,
  newDraftField,
  newParty,
  placeField,
  toLaunchRequest,
} from '@/features/document/launch-draft.ts';
import { documentInfo } from '../../fixtures/data.ts';

const doc = (id: string): DocumentInfo => documentInfo({ documentId: id, name: `${id}.pdf` });

const D1 = '00000000-0000-4000-8000-000000000001';
const D2 = '00000000-0000-4000-8000-000000000002';

function ready(over: Partial<LaunchDraft> = {}): LaunchDraft {
  const person: DraftParty = { ...newParty('person'), name: '李雷', phone: '13900000001' };
  return {
    ...emptyDraft('regular'),
    title: 'Contract',
    documents: [doc(D1)],
    steps: [{ key: 's1', parties: [person] }],
    placements: { [person.key]: { [D1]: { page: 1, rect: [100.123, 100, 213.456, 156.7] } } },
    ...over,
  };
}

const keys = (d: LaunchDraft) => draftIssues(d, Date.parse('2026-11-21T00:00:00Z')).map((i) => i.key);

describe('launch form rules', () => {
  it('accepts a complete draft', () => {
    expect(keys(ready())).toEqual([]);
  });

  it('asks for a title, a file, a name, a valid phone and a position', () => {
    const d = ready();
    const p = d.steps[0].parties[0];
    expect(keys({ ...d, title: '  ', documents: [] })).toEqual(
      expect.arrayContaining(['needTitle', 'needDocument']),
    );
    expect(keys({ ...d, steps: [{ key: 's', parties: [{ ...p, name: '', phone: '1390000' }] }] })).toEqual([
      'needName',
      'badPhone',
    ]);
    expect(keys({ ...d, placements: {} })).toEqual(['needPosition']);
    // A position left on a file that was removed since does not count.
    expect(keys({ ...d, documents: [doc(D2)] })).toEqual(['needPosition']);
  });

  it('keeps a quick launch to one file and refuses a deadline in the past', () => {
    expect(keys({ ...ready(), mode: 'quick', documents: [doc(D1), doc(D2)] })).toContain('quickOneDocument');
    expect(keys({ ...ready(), deadline: '2026-11-20T00:00:00.000Z' })).toEqual(['deadlinePast']);
    expect(keys({ ...ready(), deadline: '2026-11-28T00:00:00.000Z' })).toEqual([]);
  });

  it('wants a company to be named and to apply something, and the same signer only once', () => {
    const d = ready();
    const person = d.steps[0].parties[0];
    const company: DraftParty = {
      ...newParty('company'),
      phone: '13900000002',
      companyMode: 'other',
      companyName: 'A',
      applies: {
        companySealType: null,
        legalPersonSeal: false,
        personSignature: false,
        date: true,
        crossPageSeal: false,
      },
    };
    const twice = { ...person, key: 'again' };
    const draft = {
      ...d,
      steps: [
        { key: 's1', parties: [person, company] },
        { key: 's2', parties: [twice] },
      ],
      placements: {
        ...d.placements,
        [company.key]: d.placements[person.key],
        again: d.placements[person.key],
      },
    };
    expect(keys(draft)).toEqual(['needCompany', 'needCompanyApplies', 'duplicateSigner']);
  });

  it('sizes the box for what the party applies', () => {
    expect(boxSizeMm({ kind: 'person', applies: newParty('person').applies })).toEqual({
      width: 40,
      height: 20,
    });
    expect(
      boxSizeMm({
        kind: 'company',
        applies: {
          companySealType: 102,
          legalPersonSeal: true,
          personSignature: false,
          date: true,
          crossPageSeal: false,
        },
      }),
    ).toEqual({ width: 66, height: 50 });
  });

  it('builds the launchFlow request: steps in order, rounded rectangles, company by id or name', () => {
    const d = ready();
    const company: DraftParty = {
      ...newParty('company'),
      name: 'Operator',
      phone: '13900000003',
      companyMode: 'own',
      companyId: '00000000-0000-4000-8000-0000000000c1',
      intent: 'password',
      // The launcher does not allow this party to hand over (reassign, issue 29).
      noReassign: true,
    };
    const draft = {
      ...d,
      deadline: '2026-12-01T10:00:00.000Z',
      message: '  please sign ',
      steps: [...d.steps, { key: 's2', parties: [company] }, { key: 'empty', parties: [] }],
      placements: {
        ...d.placements,
        [company.key]: { [D1]: { page: 1, rect: [1, 2, 3, 4] as [number, number, number, number] } },
      },
    };
    const req = toLaunchRequest(draft);
    expect(req).toMatchObject({
      title: 'Contract',
      documentIds: [D1],
      isQuick: false,
      deadline: '2026-12-01T10:00:00.000Z',
      message: 'please sign',
    });
    expect(req.steps).toHaveLength(2);
    expect(req.steps[0].parties[0]).toEqual({
      kind: 'person',
      name: '李雷',
      phone: '13900000001',
      // No choice made: the SMS code, said explicitly.
      intent: 'sms',
      applies: {
        companySealType: null,
        legalPersonSeal: false,
        personSignature: true,
        date: false,
        crossPageSeal: false,
      },
      positions: [{ documentId: D1, page: 1, rect: [100.12, 100, 213.46, 156.7] }],
    });
    expect(req.steps[1].parties[0]).toMatchObject({
      kind: 'company',
      companyId: '00000000-0000-4000-8000-0000000000c1',
      operatorPhone: '13900000003',
      operatorName: 'Operator',
      intent: 'password',
      allowReassign: false,
    });
    expect(req.steps[1].parties[0]).not.toHaveProperty('companyName');
  });

  it('a signer chosen in a picker goes by id: no phone needed, none sent, still only once', () => {
    const d = ready();
    const chosen: DraftParty = {
      ...d.steps[0].parties[0],
      phone: '',
      picked: { userId: '00000000-0000-4000-8000-0000000000a1', phoneMasked: '139****0001' },
    };
    const handler: DraftParty = {
      ...newParty('company'),
      companyMode: 'own',
      companyId: '00000000-0000-4000-8000-0000000000c1',
      picked: { userId: '00000000-0000-4000-8000-0000000000a2', phoneMasked: '139****0002' },
    };
    const draft = {
      ...d,
      steps: [{ key: 's1', parties: [chosen, handler] }],
      placements: { [chosen.key]: d.placements[chosen.key], [handler.key]: d.placements[chosen.key] },
    };
    expect(keys(draft)).toEqual([]);
    const [person, company] = toLaunchRequest(draft).steps[0].parties;
    expect(person).toMatchObject({ kind: 'person', userId: '00000000-0000-4000-8000-0000000000a1' });
    expect(person).not.toHaveProperty('phone');
    expect(company).toMatchObject({
      kind: 'company',
      operatorUserId: '00000000-0000-4000-8000-0000000000a2',
    });
    expect(company).not.toHaveProperty('operatorPhone');
    const twice = { ...draft, steps: [{ key: 's1', parties: [chosen, { ...chosen, key: 'again' }] }] };
    expect(
      keys({ ...twice, placements: { ...draft.placements, again: draft.placements[chosen.key] } }),
    ).toContain('duplicateSigner');
  });
});

describe('automatic reminders', () => {
  it('sends remindEveryDays only when the launcher chose it', () => {
    expect(toLaunchRequest(ready())).not.toHaveProperty('remindEveryDays');
    expect(toLaunchRequest(ready({ remindEveryDays: null }))).not.toHaveProperty('remindEveryDays');
    expect(toLaunchRequest(ready({ remindEveryDays: 3 })).remindEveryDays).toBe(3);
  });

  it("a signer's fields (issue 28): labelled, options for a choice, placed; sent as the party's fields", () => {
    const d = ready();
    const p = d.steps[0].parties[0];
    const text = { ...newDraftField('text', 'Address'), key: 'addr' };
    const radio = { ...newDraftField('radio', 'Plan'), key: 'plan', options: ['A'] };
    const withFields = (fields: DraftParty['fields']) => ({
      ...d,
      steps: [{ key: 's1', parties: [{ ...p, fields }] }],
    });
    expect(keys(withFields([{ ...text, label: ' ' }, radio]))).toEqual([
      'fieldLabel',
      'fieldNotPlaced',
      'fieldOptions',
      'fieldNotPlaced',
    ]);
    let placed: LaunchDraft = withFields([text, { ...radio, options: ['A', 'B'] }]);
    placed = placeField(placed, p.key, 'addr', { documentId: D1, page: 1, rect: [10.004, 20, 160, 42] });
    placed = placeField(placed, p.key, 'plan', { documentId: D1, page: 2, rect: [10, 60, 130, 82] });
    expect(keys(placed)).toEqual([]);
    const party = toLaunchRequest(placed).steps[0].parties[0];
    expect(party.fields).toEqual([
      {
        key: 'addr',
        label: 'Address',
        kind: 'text',
        isRequired: true,
        position: { documentId: D1, page: 1, rect: [10, 20, 160, 42] },
      },
      {
        key: 'plan',
        label: 'Plan',
        kind: 'radio',
        isRequired: true,
        options: ['A', 'B'],
        position: { documentId: D1, page: 2, rect: [10, 60, 130, 82] },
      },
    ]);
    // Without fields the request has none (what launches sent before issue 28).
    expect('fields' in toLaunchRequest(d).steps[0].parties[0]).toBe(false);
  });
});

describe('contract term and renewal (issue 29)', () => {
  const term = {
    startsOn: '2027-01-01',
    endsOn: '2028-01-01',
    remindDays: [30, 7, 1] as (1 | 7 | 30)[],
    remindPeople: [],
  };

  it('sends the term (names trimmed) and the flow renewed only when set', () => {
    expect(toLaunchRequest(ready())).not.toHaveProperty('term');
    expect(toLaunchRequest(ready())).not.toHaveProperty('renewsFlowId');
    const req = toLaunchRequest(
      ready({
        term: {
          ...term,
          remindPeople: [
            { phone: '13900000009', name: '  法务 ' },
            { phone: '13900000008', name: ' ' },
          ],
        },
        renewsFlowId: D2,
      }),
    );
    expect(req.term).toEqual({
      ...term,
      remindPeople: [{ phone: '13900000009', name: '法务' }, { phone: '13900000008' }],
    });
    expect(req.renewsFlowId).toBe(D2);
  });

  it('flags a term whose end is not after its start, or a bad phone', () => {
    expect(draftIssues(ready({ term }))).toEqual([]);
    expect(draftIssues(ready({ term: { ...term, endsOn: '2027-01-01' } })).map((i) => i.key)).toEqual([
      'termInvalid',
    ]);
    expect(
      draftIssues(ready({ term: { ...term, remindPeople: [{ phone: '123' }] } })).map((i) => i.key),
    ).toEqual(['termInvalid']);
  });
});
