import { SEAL_TYPE_NAMES, type SealType } from '#contract/enums.ts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Tag from 'antd/es/tag';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { type Seal, type SealList, getUserCertSealList, sealImageSrc } from '@/api/seal.ts';
import { PhotoViewer } from '@/components/photo-viewer.tsx';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { exportSheet, type SheetColumn } from '@/lib/export-sheet.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';

export const MESSAGE_MS = 2000;

/** Name of a seal type (SPEC §3) in the current language. */
export function useSealTypeName() {
  const locale = useI18nStore((s) => s.locale);
  return (sealType: number | null) =>
    sealType === null ? '' : pick(locale, SEAL_TYPE_NAMES[sealType as SealType] ?? { zh: '', en: '' });
}

/** The caller's seals (getUserCertSealList) with a reload. */
export function useSealList() {
  const [data, setData] = useState<SealList | null>(null);
  const [isLoading, setIsLoading] = useState(true);
  const reload = useCallback(async () => {
    setIsLoading(true);
    try {
      setData(await getUserCertSealList());
    } catch (error) {
      showApiError(error);
    } finally {
      setIsLoading(false);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, isLoading, reload };
}

/** One seal: its image (opens in the photo viewer), type, state and, for a manager, its actions. */
export function SealCard({
  seal,
  canManage,
  canDelete = canManage,
  onStatus,
  onDelete,
  extra,
  actions,
}: {
  seal: Seal;
  canManage: boolean;
  /** Deleting is the owner's (person) or the administrator's; a seal keeper manages without it. */
  canDelete?: boolean;
  onStatus?: (seal: Seal, status: 'enabled' | 'disabled') => void;
  onDelete?: (seal: Seal) => void;
  /** More lines under the card's facts (the seal's approval rule). */
  extra?: ReactNode;
  /** More buttons beside the manager's (the approval rule). */
  actions?: ReactNode;
}) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const typeName = useSealTypeName();
  const kind = { generated: tt('kindGenerated'), uploaded: tt('kindUploaded'), drawn: tt('kindDrawn') }[
    seal.kind
  ];
  const title = seal.sealType !== null ? typeName(seal.sealType) : seal.name || kind;
  const names = seal.authorisations.map((a) => a.userName ?? a.phone).join(', ');
  return (
    <article className="seal-card" aria-label={title} data-seal-id={seal.id}>
      <div className="seal-card-image">
        <PhotoViewer
          photos={[{ src: sealImageSrc(seal.imageUrl), alt: title, key: seal.id }]}
          thumbWidth={120}
        />
      </div>
      <div className="seal-card-body">
        <h3 className="seal-card-title">{title}</h3>
        {seal.sealType !== null && seal.name && seal.name !== typeName(seal.sealType) ? (
          <div>{seal.name}</div>
        ) : null}
        <div className="seal-card-tags">
          <Tag color={seal.status === 'enabled' ? 'success' : 'default'}>
            {seal.status === 'enabled' ? tt('enabled') : tt('disabled')}
          </Tag>
          <Tag>{kind}</Tag>
          {seal.isUsable ? <Tag color="red">{tt('usable')}</Tag> : null}
        </div>
        {seal.antiCounterfeitNo ? <div>{tt('antiCounterfeitNo', { no: seal.antiCounterfeitNo })}</div> : null}
        <div className="seal-card-muted">{tt('createdAt', { time: formatTime(seal.createdAt, locale) })}</div>
        {names ? <div className="seal-card-muted">{tt('authorisedTo', { names })}</div> : null}
        {extra}
        {canManage ? (
          <div className="seal-card-actions">
            <Button
              size="small"
              onClick={() => onStatus?.(seal, seal.status === 'enabled' ? 'disabled' : 'enabled')}
            >
              {seal.status === 'enabled' ? tt('disable') : tt('enable')}
            </Button>
            {canDelete ? (
              <Popconfirm
                title={tt('deleteConfirm')}
                okText={tt('deleteOk')}
                cancelText={tt('cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete?.(seal)}
              >
                <Button size="small" danger>
                  {tt('delete')}
                </Button>
              </Popconfirm>
            ) : null}
            {actions}
          </div>
        ) : null}
      </div>
    </article>
  );
}

/** Layout of the seal screens: a grid of cards that becomes one column on a phone. */
const SEAL_STYLES = `
.seal-page { padding: 16px; max-width: 1080px; margin: 0 auto; box-sizing: border-box; }
.seal-page h1 { font-size: 22px; margin: 0 0 12px; }
.seal-toolbar { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 16px; }
.seal-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 12px; }
.seal-card { display: flex; gap: 12px; border: 1px solid #eee; border-radius: 8px; padding: 12px; background: #fff; }
.seal-card-image { flex: none; width: 120px; display: flex; align-items: center; justify-content: center;
  background: repeating-conic-gradient(#f6f6f6 0% 25%, #fff 0% 50%) 50% / 16px 16px; border-radius: 4px; }
.seal-card-body { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 4px; }
.seal-card-title { font-size: 16px; margin: 0; }
.seal-card-tags { display: flex; flex-wrap: wrap; gap: 4px; }
.seal-card-muted { color: #888; font-size: 12px; overflow-wrap: anywhere; }
.seal-card-actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 4px; }
.seal-two-col { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
.seal-preview { display: flex; align-items: center; justify-content: center; min-height: 220px;
  border: 1px dashed #ddd; border-radius: 8px; padding: 12px; }
.seal-preview svg { width: 180px; height: auto; max-height: 200px; }
@media (max-width: 600px) {
  .seal-page { padding: 12px; }
  .seal-grid { grid-template-columns: minmax(0, 1fr); }
  .seal-two-col { grid-template-columns: minmax(0, 1fr); }
}
`;

export function SealStyles() {
  return <style>{SEAL_STYLES}</style>;
}

/**
 * Export of the seals a list screen shows (the shared spreadsheet helper), one row per card with what the
 * card says; disabled while there is none.
 */
export function SealExportButton({ seals, sheet }: { seals: Seal[]; sheet: 'company' | 'person' }) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const typeName = useSealTypeName();
  const kindName = (kind: Seal['kind']) =>
    ({ generated: tt('kindGenerated'), uploaded: tt('kindUploaded'), drawn: tt('kindDrawn') })[kind];
  const columns: SheetColumn<Seal>[] = [
    {
      title: tt('colSeal'),
      value: (s) => (s.sealType !== null ? typeName(s.sealType) : s.name || kindName(s.kind)),
    },
    { title: tt('colName'), value: (s) => s.name },
    { title: tt('colStatus'), value: (s) => (s.status === 'enabled' ? tt('enabled') : tt('disabled')) },
    { title: tt('colKind'), value: (s) => kindName(s.kind) },
    { title: tt('colUsable'), value: (s) => (s.isUsable ? tt('yes') : tt('no')) },
    { title: tt('colAntiCounterfeitNo'), value: (s) => s.antiCounterfeitNo },
    { title: tt('colCreatedAt'), value: (s) => formatTime(s.createdAt, locale) },
    {
      title: tt('colAuthorisedTo'),
      value: (s) => s.authorisations.map((a) => a.userName ?? a.phone).join(', '),
    },
  ];
  const name = sheet === 'company' ? tt('sheetCompany') : tt('sheetPerson');
  return (
    <Button disabled={seals.length === 0} onClick={() => void exportSheet(name, columns, seals, name)}>
      {tt('exportSheet')}
    </Button>
  );
}
