// "Hand over to someone else" (转交他人, issue 29) in the signing room, on PC and phones: a person party names the
// new signer (name and phone), a company party picks another administrator or handler of its company; a reason
// is required. The button shows only while the launcher allows it for the party and the party has not signed.
import { useEffect, useState } from 'react';
import { ApiError } from '@/api/http.ts';
import {
  type ReassignCandidate,
  checkReassignForm,
  listReassignCandidates,
  listReassignments,
  reassignParty,
} from '@/api/reassign.ts';
import type { SigningRoom } from '@/api/flow.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { handOverTexts } from './hand-over-texts.ts';
import { Dialog, inputStyle, Notice } from './light-ui.tsx';
import { Field, ReasonField } from './parts.tsx';

type Errors = Partial<Record<'name' | 'phone' | 'handler' | 'reason' | 'form', string>>;

/** The button and its dialog; `onClosed` runs after the hand-over is acknowledged (the room is gone). */
export function HandOverButton({
  room,
  roomToken,
  onClosed,
}: {
  room: SigningRoom;
  roomToken: string;
  onClosed: () => void;
}) {
  const tt = useTexts(handOverTexts);
  const { flowId } = room.flow;
  const { partyId } = room.party;
  const isCompany = room.party.kind === 'company';
  const isOpen = room.flow.status === 'signing' && ['pending', 'waiting'].includes(room.party.status);
  const [isAllowed, setIsAllowed] = useState(false);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [candidates, setCandidates] = useState<ReassignCandidate[] | null>(null);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [handler, setHandler] = useState<string | undefined>();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [isBusy, setIsBusy] = useState(false);
  const [doneTo, setDoneTo] = useState<string | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    listReassignments({ flowId, roomToken })
      .then((h) => setIsAllowed(h.parties.some((p) => p.partyId === partyId && p.allowReassign)))
      .catch(() => setIsAllowed(false));
  }, [isOpen, flowId, partyId, roomToken]);

  if (!isOpen || !isAllowed) return null;

  const open = async () => {
    setErrors({});
    setIsDialogOpen(true);
    if (isCompany && candidates === null)
      try {
        setCandidates((await listReassignCandidates({ flowId, partyId, roomToken })).candidates);
      } catch (e) {
        setErrors({ form: e instanceof ApiError ? e.message : String(e) });
      }
  };

  const submit = async () => {
    const { to, issues } = checkReassignForm({ isCompany, name, phone, handler, reason });
    setErrors(Object.fromEntries(Object.entries(issues).map(([k, v]) => [k, tt(v)])));
    if (!to) return;
    setIsBusy(true);
    try {
      await reassignParty({ flowId, partyId, roomToken, to, reason: reason.trim() });
      const c = candidates?.find((x) => x.userId === handler);
      setDoneTo(isCompany ? `${c?.name ?? ''} ${c?.phoneMasked ?? ''}`.trim() : name.trim());
    } catch (e) {
      setErrors({ form: e instanceof ApiError ? e.message : String(e) });
    } finally {
      setIsBusy(false);
    }
  };

  const close = () => (doneTo ? onClosed() : setIsDialogOpen(false));

  return (
    <>
      <PlainButton size="large" onClick={open} data-testid="hand-over">
        {tt('handOver')}
      </PlainButton>
      <Dialog open={isDialogOpen} title={tt('title')} onClose={close} isBusy={isBusy}>
        {doneTo ? (
          <>
            <Notice type="success" title={tt('done', { to: doneTo })} />
            <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 12 }}>
              <PlainButton kind="primary" onClick={onClosed}>
                {tt('ok')}
              </PlainButton>
            </div>
          </>
        ) : (
          <>
            <p>{isCompany ? tt('introCompany', { company: room.party.companyName ?? '' }) : tt('intro')}</p>
            {isCompany ? (
              candidates && candidates.length === 0 ? (
                <Notice type="warning" title={tt('noHandlers')} />
              ) : (
                <Field label={tt('handler')} error={errors.handler}>
                  {(a11y) => (
                    <select
                      {...a11y}
                      value={handler ?? ''}
                      onChange={(e) => setHandler(e.target.value || undefined)}
                      style={inputStyle}
                    >
                      <option value="">{tt('chooseHandler')}</option>
                      {(candidates ?? []).map((c) => (
                        <option key={c.userId} value={c.userId}>
                          {c.name ?? ''} {c.phoneMasked} ·{' '}
                          {tt(c.role === 'admin' ? 'roleAdmin' : 'roleHandler')}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              )
            ) : (
              <>
                <Field label={tt('newName')} error={errors.name}>
                  {(a11y) => (
                    <input
                      {...a11y}
                      maxLength={32}
                      value={name}
                      onChange={(e) => setName(e.target.value)}
                      style={inputStyle}
                    />
                  )}
                </Field>
                <Field label={tt('newPhone')} error={errors.phone}>
                  {(a11y) => (
                    <input
                      {...a11y}
                      inputMode="numeric"
                      maxLength={11}
                      value={phone}
                      onChange={(e) => setPhone(e.target.value)}
                      style={inputStyle}
                    />
                  )}
                </Field>
              </>
            )}
            <ReasonField label={tt('reason')} error={errors.reason} value={reason} onChange={setReason} />
            {errors.form ? <Notice type="error" title={errors.form} /> : null}
            <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
              <PlainButton onClick={close}>{tt('cancel')}</PlainButton>
              <PlainButton kind="primary" isBusy={isBusy} onClick={submit}>
                {tt('confirm')}
              </PlainButton>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}
