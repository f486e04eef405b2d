// The contract term form (issue 29): start and end days, the reminder days (30/7/1), people reminded besides the
// launcher. Used by the launch screen and the flow detail's "Edit term"; the server checks the same rules.
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import { useId } from 'react';
import { TERM_MAX_PEOPLE, TERM_REMIND_DAYS, type TermInput } from '@/api/term.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { termTexts } from './term-texts.ts';

export type TermDraft = TermInput;

/** The same day a year after `day` (YYYY-MM-DD); 29 February gives 28 February. */
const yearAfter = (day: string): string => {
  const next = `${Number(day.slice(0, 4)) + 1}${day.slice(4)}`;
  return next.endsWith('-02-29') ? `${next.slice(0, 8)}28` : next;
};

export const newTerm = (today: string): TermDraft => {
  return {
    startsOn: today,
    endsOn: yearAfter(today),
    remindDays: [...TERM_REMIND_DAYS],
    remindPeople: [],
  };
};

const PHONE = /^1\d{10}$/;

/** The term's problem as a text key of termTexts, or null. */
export function termIssue(t: TermDraft): 'needDates' | 'endAfterStart' | 'badPhone' | null {
  if (!t.startsOn || !t.endsOn) return 'needDates';
  if (t.endsOn <= t.startsOn) return 'endAfterStart';
  if (t.remindPeople.some((p) => !PHONE.test(p.phone))) return 'badPhone';
  return null;
}

const dateStyle = { padding: 6, border: '1px solid #d9d9d9', borderRadius: 6, maxWidth: '100%' };

export function TermFields({ term, onChange }: { term: TermDraft; onChange: (t: TermDraft) => void }) {
  const tt = useTexts(termTexts);
  const startId = useId();
  const endId = useId();
  const issue = termIssue(term);
  const setPerson = (i: number, change: Partial<TermDraft['remindPeople'][number]>) =>
    onChange({
      ...term,
      remindPeople: term.remindPeople.map((p, j) => (j === i ? { ...p, ...change } : p)),
    });
  return (
    <div data-testid="term-fields" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <span>
          <label htmlFor={startId} style={{ display: 'block' }}>
            {tt('startsOn')}
          </label>
          <input
            id={startId}
            type="date"
            value={term.startsOn}
            onChange={(e) => onChange({ ...term, startsOn: e.target.value })}
            style={dateStyle}
          />
        </span>
        <span>
          <label htmlFor={endId} style={{ display: 'block' }}>
            {tt('endsOn')}
          </label>
          <input
            id={endId}
            type="date"
            value={term.endsOn}
            min={term.startsOn || undefined}
            onChange={(e) => onChange({ ...term, endsOn: e.target.value })}
            style={dateStyle}
          />
        </span>
      </div>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend
          style={{ fontSize: 'inherit', marginBottom: 0, display: 'inline', marginRight: 8, float: 'left' }}
        >
          {tt('remindBefore')}
        </legend>
        {TERM_REMIND_DAYS.map((d) => (
          <Checkbox
            key={d}
            checked={term.remindDays.includes(d)}
            onChange={(e) =>
              onChange({
                ...term,
                remindDays: e.target.checked
                  ? TERM_REMIND_DAYS.filter((x) => x === d || term.remindDays.includes(x))
                  : term.remindDays.filter((x) => x !== d),
              })
            }
          >
            {tt('remindDays', { n: d })}
          </Checkbox>
        ))}
      </fieldset>
      <div>
        <div>{tt('remindPeople')}</div>
        {term.remindPeople.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div key={i} style={{ display: 'flex', gap: 8, marginTop: 4, flexWrap: 'wrap' }}>
            <Input
              aria-label={tt('personPhone')}
              placeholder={tt('personPhone')}
              value={p.phone}
              maxLength={11}
              style={{ width: 160 }}
              onChange={(e) => setPerson(i, { phone: e.target.value.trim() })}
            />
            <Input
              aria-label={tt('personName')}
              placeholder={tt('personName')}
              value={p.name ?? ''}
              maxLength={40}
              style={{ width: 160 }}
              onChange={(e) => setPerson(i, { name: e.target.value })}
            />
            <Button
              size="small"
              type="link"
              danger
              onClick={() => onChange({ ...term, remindPeople: term.remindPeople.filter((_, j) => j !== i) })}
            >
              {tt('removePerson')}
            </Button>
          </div>
        ))}
        {term.remindPeople.length < TERM_MAX_PEOPLE ? (
          <Button
            size="small"
            style={{ marginTop: 4 }}
            onClick={() => onChange({ ...term, remindPeople: [...term.remindPeople, { phone: '' }] })}
          >
            {tt('addPerson')}
          </Button>
        ) : null}
      </div>
      {issue ? (
        <div role="alert" style={{ color: '#ff4d4f' }}>
          {tt(issue)}
        </div>
      ) : null}
    </div>
  );
}

/** The term as the server takes it (names trimmed, empty ones dropped). */
export const termRequest = (t: TermDraft): TermInput => ({
  ...t,
  remindPeople: t.remindPeople.map((p) =>
    p.name?.trim() ? { phone: p.phone, name: p.name.trim() } : { phone: p.phone },
  ),
});
