import { useId } from 'react';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { type LaunchMode, useLaunchDraft } from './launch-draft.ts';
import { texts } from './texts.ts';
import { formatDate, localDayValue, localInputValue } from '@/lib/format-time.ts';

/** What the server applies to a flow sent without a deadline. */
const DEFAULT_DEADLINE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The deadline a flow sent now gets: the chosen one, else 7 days from now. */
export const deadlineOf = (deadline: string, now = Date.now()): Date =>
  deadline ? new Date(deadline) : new Date(now + DEFAULT_DEADLINE_DAYS * DAY_MS);

/** A deadline as a date in the user's language ("Dec 6, 2026", "2026年12月6日"), like every date of the app. */
export const deadlineDate = (d: Date, locale: string) => formatDate(d.toISOString(), locale);

/**
 * The launch's deadline: shown as a date in the user's language, 7 days from sending unless the launcher
 * picks another. A quick launch picks a day (signers have until its end); a regular launch a day and time.
 */
export function DeadlineField({ mode, isPastShown }: { mode: LaunchMode; isPastShown: boolean }) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const { draft, update } = useLaunchDraft();
  const id = useId();
  const hintId = useId();
  const isQuick = mode === 'quick';
  const shown = deadlineOf(draft.deadline);
  const setDeadline = (value: string) => {
    // A day alone runs to its last minute, in the launcher's time zone.
    const at = value ? new Date(isQuick ? `${value}T23:59` : value) : null;
    update((d) => ({ ...d, deadline: at && !Number.isNaN(at.getTime()) ? at.toISOString() : '' }));
  };
  return (
    <div>
      <label htmlFor={id} style={{ display: 'block', margin: '16px 0 4px' }}>
        {tt('deadline')}
      </label>
      <input
        id={id}
        type={isQuick ? 'date' : 'datetime-local'}
        aria-describedby={hintId}
        // The quick launch shows the default day; the regular one leaves an empty field for "7 days from sending".
        value={isQuick ? localDayValue(shown) : draft.deadline ? localInputValue(shown) : ''}
        min={isQuick ? localDayValue(new Date()) : `${localDayValue(new Date())}T00:00`}
        onChange={(e) => setDeadline(e.target.value)}
        style={{ padding: 6, border: '1px solid #d9d9d9', borderRadius: 6 }}
      />
      <div id={hintId} data-testid="deadline-date" style={{ color: '#666', fontSize: 12, marginTop: 4 }}>
        {draft.deadline
          ? tt('deadlineUntil', { date: deadlineDate(shown, locale) })
          : tt('deadlineDefault', { date: deadlineDate(shown, locale) })}
      </div>
      {isPastShown ? (
        <div role="alert" style={{ color: '#ff4d4f' }}>
          {tt('issue.deadlinePast')}
        </div>
      ) : null}
    </div>
  );
}
