import { SEAL_TYPE_NAMES, type SealType } from '#contract/enums.ts';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { getSignerReadiness, type SignerReadiness } from '@/api/flow.ts';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import type { DraftParty } from './launch-draft.ts';
import { readinessTexts } from './readiness-texts.ts';

/** Who a party names, for getSignerReadiness; null while it names nobody yet. */
export function readinessQuery(p: DraftParty) {
  const who = p.picked ? { userId: p.picked.userId } : /^1\d{10}$/.test(p.phone) ? { phone: p.phone } : null;
  if (!who) return null;
  if (p.kind !== 'company') return who;
  // What the party applies, so that readiness checks the seals it will need.
  const seals = {
    companySealType: p.applies.companySealType ?? null,
    anyCompanySeal: p.applies.anyCompanySeal === true,
    legalPersonSeal: p.applies.legalPersonSeal,
  };
  if (p.companyMode === 'own' && p.companyId) return { ...who, companyId: p.companyId, ...seals };
  const name = p.companyName.trim();
  return name.length >= 2 ? { ...who, companyName: name, ...seals } : who;
}

/**
 * At launch, what the signer will meet (issue 11): an account, a real name, a certificate, the company opened.
 * A signer missing any of them still signs from the link alone: the room onboards them.
 */
export function ReadinessLine({
  party,
  onInvite,
  onSealTypes,
}: {
  party: DraftParty;
  /** Company parties: the launcher invites a company that has not opened e-signature to open it in the room. */
  onInvite?: (invite: boolean) => void;
  /** Company parties of an opened company: the seal types the signer may use there, once known. */
  onSealTypes?: (sealTypes: number[]) => void;
}) {
  const tt = useTexts(readinessTexts);
  const locale = useI18nStore((s) => s.locale);
  const query = readinessQuery(party);
  const key = query ? JSON.stringify(query) : '';
  const [answer, setAnswer] = useState<{ key: string; value: SignerReadiness } | null>(null);
  useEffect(() => {
    if (!key) return;
    let isLive = true;
    const timer = setTimeout(() => {
      getSignerReadiness({ signers: [JSON.parse(key)] })
        .then((r) => isLive && setAnswer({ key, value: r.signers[0] }))
        .catch(() => {});
    }, 400);
    return () => {
      isLive = false;
      clearTimeout(timer);
    };
  }, [key]);
  const r = answer?.key === key ? answer.value : null;
  const sealTypes = r?.sealTypes;
  const sealTypesKey = sealTypes?.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: told once per new answer of seal types
  useEffect(() => {
    if (sealTypes) onSealTypes?.(sealTypes);
  }, [sealTypesKey]);
  if (!query || !r) return null;
  const neededSeal = party.applies.companySealType
    ? pick(locale, SEAL_TYPE_NAMES[party.applies.companySealType as SealType])
    : tt('companySeal');
  const flag = (ok: boolean, yes: string, no: string) => (
    <Tag color={ok ? 'green' : 'orange'}>{ok ? yes : no}</Tag>
  );
  const isReady = r.hasCertificate && r.isCompanyOpen !== false && r.hasNeededSeal !== false;
  return (
    <div data-testid="signer-readiness" style={{ margin: '-4px 0 12px', fontSize: 13 }}>
      {flag(r.hasAccount, tt('hasAccount'), tt('noAccount'))}
      {flag(r.isRealNameDone, tt('realName'), tt('noRealName'))}
      {flag(r.hasCertificate, tt('certificate'), tt('noCertificate'))}
      {r.isCompanyOpen === null ? null : flag(r.isCompanyOpen, tt('companyOpen'), tt('companyNotOpen'))}
      {r.hasNeededSeal === undefined
        ? null
        : flag(
            r.hasNeededSeal,
            tt('hasSeal'),
            party.applies.anyCompanySeal && !party.applies.legalPersonSeal
              ? tt('noSeal', { seal: tt('companySeal') })
              : tt('noSeal', { seal: neededSeal }),
          )}
      <span style={{ color: '#666' }}>{isReady ? tt('ready') : tt('willOnboard')}</span>
      {r.isCompanyOpen === false && party.companyMode === 'other' && onInvite ? (
        <label style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 6 }}>
          <input
            type="checkbox"
            checked={party.inviteToOpen === true}
            onChange={(e) => onInvite(e.target.checked)}
          />
          {tt('inviteToOpen')}
        </label>
      ) : null}
    </div>
  );
}
